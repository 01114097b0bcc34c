"""Wheel builds carry the console's chart library: build it (npm ci against the pinned lock file) when missing.

Everything else about the package is in pyproject.toml. Editable installs (`make deps`) skip this: there the
Makefile's `assets` target builds the same files into the source tree.
"""

import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
VENDOR = ROOT / "src" / "gpuscope" / "console" / "static" / "vendor" / "uPlot.iife.min.js"


class BuildPyWithAssets(build_py):
    def run(self) -> None:
        if not getattr(self, "editable_mode", False) and not VENDOR.exists():
            subprocess.run([str(ROOT / "scripts" / "build-console-assets")], check=True)
        super().run()


setup(cmdclass={"build_py": BuildPyWithAssets})

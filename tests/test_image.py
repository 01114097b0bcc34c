"""The container image's contents, checked without a container runtime: the wheel alone, installed into a fresh
virtualenv, runs the Dockerfile's exact ENTRYPOINT and CMD with the Helm chart's arguments on simulated GPUs.

Offline, pip cannot fetch the dependencies, so the fresh venv gets gpuscope from the wheel (``--no-deps``) and
the third-party packages through a ``.pth`` line pointing at the project venv's site-packages. Only paths are
borrowed: a ``.pth``-added directory's own ``.pth`` files (the project's editable install) are not run, and the
test checks that ``gpuscope`` is imported from the fresh venv, not from the source tree.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from tests.support.exporter_process import clean_env, exporter_process
from tests.support.image import ROOT, image_facts, map_paths
from tests.support.net import free_port

pytestmark = pytest.mark.e2e


def _run(*argv: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, f"{argv} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_wheel_only_install_runs_the_images_entrypoint(tmp_path: Path) -> None:
    # Build the wheel from a copy holding only what the Dockerfile's build stage copies.
    tree = tmp_path / "tree"
    tree.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, tree / name)
    shutil.copytree(ROOT / "src", tree / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    dist = tmp_path / "dist"
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", dist, tree)
    (wheel,) = dist.glob("gpuscope-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "gpuscope/fields/default-counters.csv" in names  # package data travels in the wheel
    assert not [n for n in names if n.startswith(("tests/", "bench/"))]
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    scripts = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "dcgm-exporter = gpuscope.cli:dcgm_exporter_main" in scripts

    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", "--without-pip", venv)
    _run(sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "install", "--no-deps", "--no-index", wheel)
    site = Path(
        _run(venv / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").strip()
    )
    (site / "_project_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    where = _run(venv / "bin" / "python", "-c", "import gpuscope; print(gpuscope.__file__)", cwd=tmp_path).strip()
    assert where.startswith(str(site)), where  # the wheel's copy, not the source tree
    # Both commands exist: dcgm-exporter (the image's entrypoint) and gpuscope (the generated DaemonSet's command).
    assert (venv / "bin" / "dcgm-exporter").is_file()
    assert (venv / "bin" / "gpuscope").is_file()

    # The image's command, with the Helm chart's default arguments, from an empty working directory.
    image = image_facts()
    assert image.port == 9400
    assert image.entrypoint == ["dcgm-exporter"]
    mapping = image.realise(tmp_path / "root")
    port = free_port()
    args = [map_paths(a, mapping) for a in ("-f", "/etc/dcgm-exporter/default-counters.csv")]
    env = clean_env({"DCGM_EXPORTER_LISTEN": f"127.0.0.1:{port}", "DCGM_EXPORTER_INTERVAL": "500"})
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}/usr/bin:/bin"  # dcgm-exporter from the fresh venv only
    env.pop("PYTHONPATH", None)
    command = [shutil.which(image.entrypoint[0], path=env["PATH"]) or "missing", *image.entrypoint[1:], *image.cmd]
    assert command[0].startswith(str(venv)), command
    workdir = tmp_path / "empty"
    workdir.mkdir()
    with exporter_process([*command, *args], f"http://127.0.0.1:{port}", tmp_path, env=env, cwd=workdir) as exporter:
        metrics = exporter.get("/metrics").text
    assert re.search(r"^DCGM_FI_DEV_GPU_TEMP\{gpu=\"0\"", metrics, re.M)
    assert f"from {mapping['/etc/dcgm-exporter/default-counters.csv']}" in exporter.log()

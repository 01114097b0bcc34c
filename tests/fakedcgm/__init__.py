"""The fake libdcgm: C source, built with the system C compiler once per source version, and its control API.

``build(cache_dir)`` compiles ``fakedcgm.c`` into ``cache_dir/libdcgm-fake-<hash>.so`` (reused while the source
is unchanged). ``FakeDcgm`` drives the model of the library that gpuscope's binding loaded from the same path:
``dlopen`` returns the one already-loaded copy, so both share its state.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
from pathlib import Path

SOURCE = Path(__file__).with_name("fakedcgm.c")


def build(cache_dir: Path) -> Path:
    """The compiled fake library (built now if this source version was not built yet)."""
    digest = hashlib.sha256(SOURCE.read_bytes()).hexdigest()[:16]
    target = cache_dir / f"libdcgm-fake-{digest}.so"
    if target.exists():
        return target
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        raise RuntimeError("no C compiler: install gcc (scripts/ensure-binaries does)")
    cache_dir.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(f".{os.getpid()}.tmp")
    cmd = [
        compiler,
        "-shared",
        "-fPIC",
        "-O1",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-pthread",
        "-o",
        str(partial),
        str(SOURCE),
    ]
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    partial.replace(target)  # atomic: parallel test workers never load a half-written library
    return target


class FakeDcgm:
    """The control side of one loaded fake library."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lib = ctypes.CDLL(str(path))
        self._lib.fake_apply.argtypes = [ctypes.c_char_p]
        self._lib.fake_apply.restype = ctypes.c_int
        self._lib.fake_calls.argtypes = [ctypes.c_char_p]
        self._lib.fake_calls.restype = ctypes.c_uint
        self._lib.fake_watch_count.restype = ctypes.c_int

    def apply(self, *lines: str) -> None:
        for line in lines:
            for part in line.strip().splitlines():
                if self._lib.fake_apply(part.strip().encode()) != 0:
                    raise ValueError(f"fake libdcgm rejected model line {part!r}")

    def calls(self, function: str) -> int:
        return int(self._lib.fake_calls(function.encode()))

    def watch_count(self) -> int:
        return int(self._lib.fake_watch_count())

    def release(self) -> None:
        """End a ``hang`` now."""
        self._lib.fake_release()

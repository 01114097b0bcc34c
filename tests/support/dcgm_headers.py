"""The vendored DCGM headers, and what the C compiler reads in them: constants printed by a program built on them."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path

import pytest

HEADERS = Path(__file__).resolve().parents[2] / "third_party" / "dcgm" / "dcgmlib"


def compiler() -> str:
    found = shutil.which("gcc") or shutil.which("cc")
    if found is None:
        pytest.fail("no C compiler: install gcc (scripts/ensure-binaries does)")
    return found


def c_constants(header: str, names: Iterable[str], work: Path) -> dict[str, int]:
    """Each name's value as ``(int)(name)`` in a C program that includes ``header`` from the vendored headers."""
    program = work / "constants.c"
    program.write_text(
        f'#include <stdio.h>\n#include "{header}"\nint main(void) {{\n'
        + "".join(f'    printf("{name} %d\\n", (int)({name}));\n' for name in names)
        + "    return 0;\n}\n",
        encoding="utf-8",
    )
    binary = work / "constants"
    subprocess.run([compiler(), "-I", str(HEADERS), "-o", str(binary), str(program)], check=True)
    out = subprocess.run([binary], capture_output=True, text=True, check=True).stdout
    return {name: int(value) for name, value in (line.split() for line in out.splitlines())}

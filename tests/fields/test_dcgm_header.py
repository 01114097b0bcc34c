"""The generated DCGM field table (``fields/dcgm_header.py``) against NVIDIA's vendored headers.

Two independent checks: the committed module is what scripts/gen-dcgm-fields writes today (nobody edited it by
hand, nobody updated the headers without regenerating), and every id and alias in it is what the C compiler
makes of dcgm_fields.h (so the generator's reading of the header is the preprocessor's, not just self-consistent).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gpuscope.fields import dcgm_header

ROOT = Path(__file__).resolve().parents[2]
HEADERS = ROOT / "third_party" / "dcgm" / "dcgmlib"


def test_committed_module_is_what_the_generator_writes() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen-dcgm-fields"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def test_every_id_and_alias_is_what_the_c_compiler_reads(tmp_path: Path) -> None:
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        pytest.fail("no C compiler: install gcc (scripts/ensure-binaries does)")
    names = [row[0] for row in dcgm_header.FIELDS] + list(dcgm_header.ALIASES)
    program = tmp_path / "ids.c"
    program.write_text(
        '#include <stdio.h>\n#include "dcgm_fields.h"\nint main(void) {\n'
        + "".join(f'    printf("{name} %d\\n", (int)({name}));\n' for name in names)
        + "    return 0;\n}\n",
        encoding="utf-8",
    )
    binary = tmp_path / "ids"
    subprocess.run([compiler, "-I", str(HEADERS), "-o", str(binary), str(program)], check=True)
    printed = dict(
        line.split()
        for line in subprocess.run([binary], capture_output=True, text=True, check=True).stdout.splitlines()
    )
    by_name = {row[0]: row[1] for row in dcgm_header.FIELDS}
    expected = {**by_name, **{alias: by_name[target] for alias, target in dcgm_header.ALIASES.items()}}
    assert {name: int(value) for name, value in printed.items()} == expected


def test_rows_carry_the_metadata_dcgm_registers() -> None:
    # Only the range markers and DCGM_FI_SYSTEM_FIELD_UNKNOWN lack metadata; every type is a DCGM_FT_* letter.
    levels = set(dcgm_header.ENTITY_GROUPS.values())
    for name, field_id, kind, level, _tag, _unit in dcgm_header.FIELDS:
        if field_id == 0:
            assert (kind, level) == ("", -1), name
            continue
        assert kind in {"b", "d", "i", "s", "t"}, name
        assert level in levels, name
    assert len({row[0] for row in dcgm_header.FIELDS}) == len(dcgm_header.FIELDS)
    assert not set(dcgm_header.ALIASES) & {row[0] for row in dcgm_header.FIELDS}

"""Item 13 of the hostile-input audit, the local stack's part: a --data-dir that is a file and a damaged
stack.json are one clear line (exit 2), never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import assert_one_line_error, gpuscope, gpuscope_here


def test_up_refuses_a_data_dir_that_is_a_file(tmp_path: Path) -> None:
    target = tmp_path / "not-a-dir"
    target.write_text("x")
    assert_one_line_error(gpuscope("up", "--no-tui", "--data-dir", str(target)), "--data-dir", "is not a directory")
    assert_one_line_error(
        gpuscope("up", "--no-tui", "--data-dir", str(target / "below")), "--data-dir", "is a file, not a directory"
    )
    assert target.read_text() == "x"


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ('{"urls": {"control": "http://127.0.0.1:1"', "is damaged"),
        ("[1, 2]", "is damaged (not a JSON object)"),
        ('{"urls": 5}', "is damaged (no urls.control URL)"),
        ('{"urls": {"control": "file:///etc/passwd"}}', "is damaged (no urls.control URL)"),
        ("[" * 100_000 + "]" * 100_000, "is damaged"),
    ],
    ids=["truncated", "list", "wrong-type", "not-http", "nested"],
)
def test_a_damaged_state_file_is_one_line(tmp_path: Path, content: str, fragment: str) -> None:
    (tmp_path / "stack.json").write_text(content)
    assert_one_line_error(gpuscope_here("status", "--data-dir", str(tmp_path)), "stack.json", fragment)


def test_a_device_as_state_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "stack.json").symlink_to("/dev/zero")
    assert_one_line_error(gpuscope("status", "--data-dir", str(tmp_path)), "stack.json", "not a regular file")

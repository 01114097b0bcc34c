"""``gpuscope.outputs.write_text``, the one atomic writer: whole or not at all, and nothing left behind."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from gpuscope.outputs import write_text


def _entries(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


def test_writes_and_replaces_the_whole_file(tmp_path: Path) -> None:
    target = tmp_path / "state.json"
    write_text(target, "first\n")
    write_text(str(target), "second, ü\n")  # a str path too
    assert target.read_text(encoding="utf-8") == "second, ü\n"
    assert _entries(tmp_path) == ["state.json"]


def test_a_write_failing_midway_leaves_the_old_content_and_no_temporary_file(tmp_path: Path) -> None:
    """A real short write: the file-size limit (as a full disk would) stops the write after the temporary file
    exists. In a child process, so the limit is never this test run's; the child lifts it again before it exits,
    or its coverage data could not be written."""
    target = tmp_path / "targets.json"
    target.write_text("old\n")
    script = (
        "import errno, resource, sys\n"
        "from gpuscope.outputs import write_text\n"
        "soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (16, hard))\n"
        "try:\n"
        "    write_text(sys.argv[1], 'x' * 4096)\n"
        "except OSError as exc:\n"
        "    sys.exit(3 if exc.errno == errno.EFBIG else 4)\n"
        "finally:\n"
        "    resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(target)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 3, done.stderr  # the write failed, with the file-size error
    assert target.read_text() == "old\n"
    assert _entries(tmp_path) == ["targets.json"]


def test_a_failing_rename_removes_the_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "report.html"
    target.mkdir()  # a file cannot be renamed over a directory
    (target / "keep").write_text("x")
    with pytest.raises(IsADirectoryError):
        write_text(target, "<html>")
    assert _entries(tmp_path) == ["report.html"]
    assert _entries(target) == ["keep"]


def test_a_missing_directory_is_an_oserror_and_creates_nothing(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        write_text(tmp_path / "absent" / "state.json", "{}")
    assert _entries(tmp_path) == []


def test_text_that_cannot_be_encoded_touches_nothing(tmp_path: Path) -> None:
    target = tmp_path / "ledger.json"
    target.write_text("old")
    with pytest.raises(UnicodeEncodeError):
        write_text(target, "lone surrogate \udc80")
    assert target.read_text() == "old"
    assert _entries(tmp_path) == ["ledger.json"]


def test_modes_follow_the_umask_like_any_new_file(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        write_text(tmp_path / "shared", "a")
        write_text(tmp_path / "private", "b", mode=0o600)
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "shared").stat().st_mode) == 0o640
    assert stat.S_IMODE((tmp_path / "private").stat().st_mode) == 0o600


def test_concurrent_writers_of_one_target_never_share_a_temporary_file(tmp_path: Path) -> None:
    """With the old fixed ``<name>.tmp``, one writer's rename took the other's file away mid-write."""
    target = tmp_path / "targets.json"
    errors: list[BaseException] = []

    def writer(text: str) -> None:
        try:
            for _ in range(40):
                write_text(target, text)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(c * 1000,)) for c in "ab"]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert target.read_text() in ("a" * 1000, "b" * 1000)  # one writer's text, whole
    assert _entries(tmp_path) == ["targets.json"]

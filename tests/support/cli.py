"""The CLI as a user runs it, in a real process: ``gpuscope(...)`` and the one-line-error contract; and
``gpuscope_here(...)``, the same command in this process, for tests of what a command says and writes."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys


def gpuscope(*args: str, env: dict[str, str] | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gpuscope", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )


def gpuscope_here(*args: str) -> subprocess.CompletedProcess[str]:
    """``gpuscope(...)`` run through the entry point's ``main`` in this process, with the same result: where the
    process itself is not what is tested, this saves the second or so each new process spends importing gpuscope
    (``make quick``'s budget). An exception ``main`` lets through is the traceback a user would see: it fails here."""
    from gpuscope.cli import main  # here: the modules that only start processes need none of gpuscope

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return subprocess.CompletedProcess(["gpuscope", *args], code, out.getvalue(), err.getvalue())


def assert_one_line_error(result: subprocess.CompletedProcess[str], *fragments: str) -> None:
    """Bad input: exit 2, one ``gpuscope: error: ...`` line holding every fragment, no traceback."""
    assert result.returncode == 2, result
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gpuscope: error: "), result.stderr
    assert "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]

"""Writing the report to ``-o``: atomically (``gpuscope.outputs``), a failure one line naming the flag."""

from __future__ import annotations

from gpuscope import outputs
from gpuscope.errors import UsageError


def write_atomic(path: str, text: str) -> None:
    try:
        outputs.write_text(path, text)
    except OSError as exc:
        raise UsageError(f"-o {path}: cannot write there: {exc.strerror or exc}") from None

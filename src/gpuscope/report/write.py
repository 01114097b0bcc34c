"""Writing the report: a temporary file beside the target, renamed over it, so a failure leaves no partial file."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from gpuscope.errors import UsageError


def write_atomic(path: str, text: str) -> None:
    target = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent or Path("."))
    except OSError as exc:
        raise UsageError(f"-o {path}: cannot write there: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        # mkstemp creates 0600; a report is a document to share, so it gets the usual umask-derived mode.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise UsageError(f"-o {path}: cannot write there: {exc.strerror or exc}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise

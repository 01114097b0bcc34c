"""Files gpuscope writes for others to read: whole or not at all.

``write_text`` is the one atomic writer of a single file (a report, the stack's state file, a ``file_sd`` targets
file, the remediator's ledger): the text goes to a temporary file of its own in the target's directory, is flushed
to disk, and is renamed over the target, so a reader (Prometheus re-reading a targets file, ``gpuscope status``
reading the state file) sees the old content or the new, never a part; the rename is then made durable too. A
failure at any step removes the temporary file and leaves the target as it was. The temporary name is unique
(two writers of one target never share one) and hidden (``.<name>.<random>.tmp``, outside ``*.json`` globs).

A whole bundle is a tree, staged and swapped by ``gpuscope.bundle``; reading what users name is ``gpuscope.inputs``.
Errors are ``OSError``, for the caller to turn into its one line naming the flag or file.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

_ATTEMPTS = 8  # unique names that may be taken before giving up (a collision is a 1 in 2**64 event)


def write_text(path: str | os.PathLike[str], text: str, *, mode: int = 0o666) -> None:
    """Replace ``path`` with ``text`` (UTF-8) atomically.

    ``mode`` is filtered by the umask, as ``open`` does: the default gives the file the permissions any new file
    gets; ``0o600`` keeps it to its owner.
    """
    target = Path(path)
    data = text.encode("utf-8")  # before any file exists: text that cannot be encoded leaves nothing behind
    fd, tmp = _create_unique(target, mode)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _sync_directory(target.parent)


def _create_unique(target: Path, mode: int) -> tuple[int, str]:
    # os.open with O_EXCL rather than tempfile.mkstemp: mkstemp forces 0600, and reading the umask to undo that
    # would change it process-wide for a moment, under other threads.
    directory = target.parent
    for _ in range(_ATTEMPTS):
        tmp = str(directory / f".{target.name}.{secrets.token_hex(8)}.tmp")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, mode), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"{directory}: no unused temporary name for {target.name} after {_ATTEMPTS} tries")


def _sync_directory(directory: Path) -> None:
    # The rename lives in the directory: without this a crash may bring back the old file. Some file systems
    # refuse to open or sync a directory; the file itself is already whole, so that is not an error.
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

"""Reading a named input file: regular files only, at most a fixed size, UTF-8 with an optional byte-order mark.

``open(path).read()`` on ``/dev/zero`` never returns and on a FIFO blocks until a writer comes; on a 10 GB file it
takes 10 GB. So the file is opened without blocking, checked to be a regular file (after opening, so a swap
between check and open cannot slip a device in), and read up to the cap plus one byte: one byte more means the file
is too big. A UTF-8 byte-order mark (what some Windows editors write) is dropped, so the first field of a CSV or
the first key of a YAML file is not read as ``\\ufeffname``.
"""

from __future__ import annotations

import os
import stat

from gpuscope.errors import UsageError

MAX_CONFIG_BYTES = 4 * 1024 * 1024  # a fleet spec, collectors CSV or web config; real ones are a few KiB
MAX_SECRET_BYTES = 1024 * 1024  # a certificate chain, a key, a token or password file

_BOM = "\ufeff"


class MissingFile(UsageError):
    """The file does not exist: callers re-raise it with the hint that fits their flag."""


class NotRegularFile(OSError):
    """``read_head``: the path is a directory, device, FIFO or socket, never read."""


_OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | getattr(os, "O_NOCTTY", 0)


def read_head(path: str, limit: int, *, dir_fd: int | None = None, follow_links: bool = True) -> bytes:
    """The first ``limit`` bytes of the regular file ``path``, for files a collection reads every interval
    (``/proc/<pid>/cgroup``, a job mapping file, a service-account token): a FIFO or device put in their place
    never blocks the collection. Raises ``OSError`` as ``open`` does (``FileNotFoundError``...), and
    ``NotRegularFile`` for anything but a regular file. ``dir_fd``: ``path`` is a name inside that open
    directory; ``follow_links=False``: a symbolic link is refused (``O_NOFOLLOW``, ``ELOOP``), for a directory
    that someone else writes into (a link there would let them show any file the reader may read)."""
    flags = _OPEN_FLAGS if follow_links else _OPEN_FLAGS | os.O_NOFOLLOW
    fd = os.open(path, flags, dir_fd=dir_fd)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegularFile(f"{path}: not a regular file")
        chunks: list[bytes] = []
        size = 0
        while size < limit:  # /proc files say st_size 0: read until the end or the limit
            chunk = os.read(fd, min(65536, limit - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_text(path: str, what: str, limit: int = MAX_CONFIG_BYTES) -> str:
    """The text of ``path``; ``what`` names the file for the error (``"collectors file"``).

    Raises ``UsageError`` (one line: which file, what is wrong, the fix) when the file is missing (``MissingFile``),
    is not a regular file, is larger than ``limit`` bytes or is not UTF-8.
    """
    return decode(read_bytes(path, what, limit), path, what)


def read_bytes(path: str, what: str, limit: int = MAX_CONFIG_BYTES) -> bytes:
    """At most ``limit`` bytes of the regular file ``path``; ``UsageError`` otherwise."""
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        raise MissingFile(f"{what} {path!r} does not exist") from None
    except OSError as exc:
        raise UsageError(f"cannot read {what} {path!r}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise UsageError(f"cannot read {what} {path!r}: it is a directory; give the path of a file")
        if not stat.S_ISREG(info.st_mode):
            raise UsageError(f"cannot read {what} {path!r}: not a regular file (a device, FIFO or socket); give a file")
        if info.st_size > limit:
            raise UsageError(f"cannot read {what} {path!r}: {info.st_size} bytes, more than the {_size(limit)} allowed")
        chunks: list[bytes] = []
        size = 0
        while size <= limit:  # st_size can lie (a file growing while read, /proc): the read itself is capped too
            chunk = os.read(fd, min(65536, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise UsageError(f"cannot read {what} {path!r}: more than the {_size(limit)} allowed")
        return b"".join(chunks)
    except OSError as exc:
        raise UsageError(f"cannot read {what} {path!r}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def decode(data: bytes, path: str, what: str) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise UsageError(f"cannot read {what} {path!r}: line {line} is not UTF-8 text; save it as UTF-8") from None
    return text.removeprefix(_BOM)


def _size(limit: int) -> str:
    return f"{limit // (1024 * 1024)} MiB" if limit >= 1024 * 1024 else f"{limit} bytes"

"""Noticing that a file was rewritten, by polling its ``stat``: dcgm-exporter's reload on a new ``-f`` file.

dcgm-exporter (4.5.3-4.8.2, commit d5e5f51: ``pkg/cmd/app.go`` runs ``internal/pkg/watcher/file.go``) watches the
collectors file's directory with fsnotify and, 200 ms after the last event naming the file, reloads if its
modification time changed. A poll does the same without inotify: ``os.stat`` of the path (following symbolic
links, so the ``..data`` swap of a ConfigMap volume counts too) costs microseconds. A change is acted on once the
file has stayed the same for one poll (a write in progress is not read half done), and a file that cannot be
read (removed, being replaced) is no change: its next version is.
"""

from __future__ import annotations

import os
from collections.abc import Callable

# (device, inode, size, modification time in ns); None: the file cannot be stat'ed now
Signature = tuple[int, int, int, int] | None


def signature(path: str) -> Signature:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


class FileWatch:
    """One file's last version acted on; ``poll`` says once when a settled new version is there. Not thread-safe
    (the reloader calls it under its lock)."""

    def __init__(self, path: str, stat: Callable[[str], Signature] = signature) -> None:
        self.path = path
        self._stat = stat
        self._seen = stat(path)
        self._candidate: Signature = None

    def mark(self) -> None:
        """The file as it is now is the version acted on (a reload is reading it, whatever asked for one)."""
        self._seen = self._stat(self.path)
        self._candidate = None

    def poll(self) -> bool:
        """True once per new version, when it is the same as at the previous poll."""
        now = self._stat(self.path)
        if now is None or now == self._seen:
            self._candidate = None
            return False
        if now != self._candidate:
            self._candidate = now  # changed since the last poll: wait one more for the writer to finish
            return False
        self._seen, self._candidate = now, None
        return True

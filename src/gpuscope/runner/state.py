"""The running stack's footprint in its data directory: an exclusive lock and a state file.

``gpuscope up`` holds an flock on ``<data-dir>/lock`` for its whole life, so a second ``up`` on the same directory
refuses at once. Its children inherit the locked file descriptor, and an flock lasts until its last holder closes
it: a supervisor killed with SIGKILL leaves the directory locked until the last Prometheus it started has exited
(they stop on their own, with the supervisor), so no second stack can ever share a TSDB directory with a replica
that is still flushing; ``stack.json`` tells ``status``, ``inject`` and ``clear`` where the control API listens.
"""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path
from typing import IO, Any

from gpuscope import outputs
from gpuscope.errors import EnvironmentProblem, InvalidValue, UsageError
from gpuscope.inputs import MAX_SECRET_BYTES, MissingFile, read_text

_RESTART = "stop `gpuscope up` and start it again, which rewrites it"


class StackLock:
    """An exclusive, non-blocking lock on the data directory."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: IO[str] | None = None

    def acquire(self, state_path: Path) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = self.path.open("a+")
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            pid = _owner(state_path)
            if pid is not None and not _alive(pid):
                raise EnvironmentProblem(
                    f"the `gpuscope up` (pid {pid}) that ran on {self.path.parent} has exited but its child processes "
                    f"still hold the directory while they stop: try again in a few seconds, or use another "
                    "{data_dir}"
                ).naming("data_dir") from None
            raise EnvironmentProblem(
                f"another `gpuscope up` (pid {pid or '?'}) is running on {self.path.parent}: stop it with Ctrl-C, or "
                "start this one with another {data_dir}"
            ).naming("data_dir") from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        self._file = handle

    @property
    def fd(self) -> int | None:
        """The locked descriptor, for children to inherit (they then hold the lock as long as they live)."""
        return self._file.fileno() if self._file is not None else None

    @property
    def held(self) -> bool:
        """Still ours: the lock file was not removed or replaced behind our back (e.g. ``rm -rf`` of the dir)."""
        if self._file is None:
            return False
        try:
            return os.stat(self.path).st_ino == os.fstat(self._file.fileno()).st_ino
        except OSError:
            return False

    def release(self) -> None:
        if self._file is not None:
            fcntl.flock(self._file.fileno(), fcntl.LOCK_UN)
            self._file.close()
            self._file = None


def _owner(state_path: Path) -> int | None:
    try:
        pid = read_state(state_path).get("pid")
    except EnvironmentProblem:
        return None
    return pid if isinstance(pid, int) and not isinstance(pid, bool) and pid > 0 else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def data_directory(path: str) -> Path:
    """``--data-dir`` resolved; a path that exists and is not a directory is one clear error, before anything starts."""
    directory = Path(path).resolve()
    if directory.exists() and not directory.is_dir():
        raise InvalidValue(
            "data_dir",
            "",
            f"{{data_dir}} {path!r} is not a directory; pass a directory (it is created if missing)",
            refs=("data_dir",),
        )
    for parent in directory.parents:
        if parent.exists():
            if not parent.is_dir():
                raise InvalidValue("data_dir", repr(path), f"{parent} is a file, not a directory")
            break
    return directory


def write_state(path: Path, state: dict[str, Any]) -> None:
    """The state file, replaced whole: ``gpuscope status`` may read it at any moment."""
    outputs.write_text(path, json.dumps(state, indent=2, sort_keys=True) + "\n")


def read_state(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(read_text(str(path), "the stack's state file", MAX_SECRET_BYTES))
    except MissingFile:
        raise EnvironmentProblem(
            f"no `gpuscope up` is running on {path.parent} (no {path.name}); start one with `gpuscope up`, or pass "
            "the {data_dir} it uses"
        ).naming("data_dir") from None
    except UsageError as exc:
        raise EnvironmentProblem(exc.template).naming(*exc.refs) from None
    except (ValueError, RecursionError) as exc:
        raise EnvironmentProblem(f"{path} is damaged ({exc}); {_RESTART}") from None
    if not isinstance(data, dict):
        raise EnvironmentProblem(f"{path} is damaged (not a JSON object); {_RESTART}")
    return data


def control_url(path: Path) -> str:
    """The running stack's control API, from its state file; a damaged file is one clear error."""
    urls = read_state(path).get("urls")
    control = urls.get("control") if isinstance(urls, dict) else None
    if not isinstance(control, str) or not control.startswith("http://"):
        raise EnvironmentProblem(f"{path} is damaged (no urls.control URL); {_RESTART}")
    return control


def data_paths(data_dir: Path) -> dict[str, Path]:
    """Where a stack keeps each thing in its data directory (``gpuscope status``, ``inject`` and ``clear`` read
    only this module: they start in a tenth of the time the bundle's generator takes to import)."""
    return {
        "bundle": data_dir / "bundle",
        "logs": data_dir / "logs",
        "state": data_dir / "stack.json",
        "lock": data_dir / "lock",
        "notifications": data_dir / "notifications.jsonl",
    }

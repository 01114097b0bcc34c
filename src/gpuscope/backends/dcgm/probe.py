"""``--backend auto``: does libdcgm load here, and does a host engine answer? (One short-lived connection.)"""

from __future__ import annotations

from gpuscope.backends.dcgm.connection import Calls, EngineGone, Target
from gpuscope.backends.dcgm.deadline import CallTimedOut, Deadline
from gpuscope.backends.dcgm.library import DcgmError, Library, LibraryMissing, load


def hostengine_answers(target: Target, timeout_s: float = 5.0) -> tuple[bool, str]:
    """(True, versions) when a host engine answers; (False, why not) otherwise. Never raises."""
    try:
        lib = Library(load())
    except LibraryMissing as exc:
        return False, str(exc)
    deadline = Deadline(timeout_s)
    calls = Calls(lib, deadline)
    try:
        calls.run("dcgmInit", lib.init)
        calls.connect(target)
        version = calls.run("dcgmVersionInfo", lib.client_version)
        calls.disconnect(target)
        if not deadline.blocked:
            deadline.call(lib.shutdown, "dcgmShutdown")
    except (EngineGone, CallTimedOut, DcgmError) as exc:
        return False, f"{target.describe} does not answer: {exc}"
    finally:
        deadline.close()
    return True, f"libdcgm {version}, {target.describe}"

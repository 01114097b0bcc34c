"""The HTTP server's counts, kept on the event loop and read by whoever exports them (the exporter's self-metrics)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field


def _no_idle() -> int:
    return 0


@dataclass(slots=True)
class ConnectionStats:
    """One listener's connection counts, kept by the HTTP guard on the event loop and read by scrapes."""

    limit: int
    open: int = 0
    handshaking: int = 0  # of ``open``: TLS handshakes not finished yet
    rejected: int = 0  # refused because ``limit`` connections were open, none of them idle
    evicted: int = 0  # idle connections closed to admit a new one at ``limit``
    # closed because a request did not arrive whole in time, or a response was not read in time (HTTP_TIMEOUTS)
    timed_out: dict[str, int] = field(default_factory=dict)
    idle: Callable[[], int] = _no_idle  # how many of ``open`` have no request in progress (the guard counts them)


@dataclass(slots=True)
class AuthStats:
    """Basic auth's counts (``auth.BasicAuth``, on the event loop), kept across reloads and read by scrapes."""

    configured: bool = False  # whether basic_auth_users is in force (the families are exported only then)
    outcomes: dict[str, int] = field(default_factory=dict)  # every check, by how it was answered (AUTH_OUTCOMES)
    verifications: dict[int, int] = field(default_factory=dict)  # bcrypt runs, by the cost of the hash checked

    def count(self, outcome: str) -> None:
        self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1


# Why the HTTP guard cut a connection (``httpd.guard``): its request head or body was too slow to arrive (slowloris),
# or its client stopped reading a response.
HTTP_TIMEOUTS = ("request", "write")


# How a basic-auth check was answered: no header or not basic auth; from the cache of verified or of refused
# credentials; by a bcrypt run from the queue; refused at once (queue full); dropped unrun (client gone).
AUTH_OUTCOMES = ("malformed", "cached_ok", "cached_denied", "bcrypt_ok", "bcrypt_denied", "busy", "dropped")

"""Listening addresses: binding one, with a taken or missing address as one clear error."""

from __future__ import annotations

import errno
from collections.abc import Awaitable
from typing import TypeVar

from gpuscope.errors import EnvironmentProblem

T = TypeVar("T")


async def bind(starting: Awaitable[T], host: str | None, port: int, flag: str) -> T:
    """Await a listener's start on ``host:port`` (None: every interface); a taken or missing address is one clear
    error naming ``flag``."""
    try:
        return await starting
    except OSError as exc:
        where = f"{host or '*'}:{port}"
        if exc.errno == errno.EADDRINUSE:
            raise EnvironmentProblem(
                f"address {where} is already in use ({flag}): stop the other process or pick another port"
            ) from None
        if exc.errno == errno.EADDRNOTAVAIL:
            raise EnvironmentProblem(f"cannot listen on {where} ({flag}): no such local address") from None
        raise EnvironmentProblem(f"cannot listen on {where} ({flag}): {exc.strerror or exc}") from None

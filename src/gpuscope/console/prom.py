"""The console's only way to Prometheus: a bounded number of queries in flight, each with its own deadline.

A browser opening a dashboard asks for dozens of panels at once; Prometheus (or the long-term store) sees at
most ``max_in_flight`` of them at a time, the rest wait their turn. A query that does not answer within
``timeout_s`` of being sent fails with a message that says so, and Prometheus is told the same deadline.
Every failure is a :class:`QueryError` whose text is what the panel shows.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Mapping
from typing import Any

import aiohttp

log = logging.getLogger(__name__)
LOG_EVERY_S = 60.0


class QueryError(Exception):
    """A query that produced no data, and why, in one line."""


class PromClient:
    def __init__(self, url: str, *, max_in_flight: int = 8, timeout_s: float = 10.0) -> None:
        self.url = url.rstrip("/")
        self.timeout_s = timeout_s
        self.max_in_flight = max_in_flight
        self._slots = asyncio.Semaphore(max_in_flight)
        self._session: aiohttp.ClientSession | None = None
        self.queries = 0  # requests sent, for the benchmark and the page's footer
        self.in_flight = 0
        self.peak_in_flight = 0
        self._logged: dict[str, float] = {}  # message -> when it was last logged

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    def _client(self) -> aiohttp.ClientSession:
        if self._session is None:
            self._session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=self.max_in_flight))
        return self._session

    async def get(self, path: str, params: Mapping[str, str | list[str]]) -> Any:
        """``data`` of a Prometheus API answer, or a QueryError."""
        flat: list[tuple[str, str]] = []
        for key, value in params.items():
            flat += [(key, v) for v in value] if isinstance(value, list) else [(key, value)]
        flat.append(("timeout", f"{self.timeout_s:g}s"))
        async with self._slots:
            self.queries += 1
            self.in_flight += 1
            self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
            try:
                async with asyncio.timeout(self.timeout_s):
                    return await self._fetch(path, flat)
            except TimeoutError:
                pass
            finally:
                self.in_flight -= 1
        message = f"query timed out after {self.timeout_s:g}s ({self.url}{path})"
        self._warn(message)
        raise QueryError(message)

    def _warn(self, message: str) -> None:
        """Log a failure once a minute at most: a dashboard of 30 panels against a dead Prometheus is one line."""
        now = time.monotonic()
        if len(self._logged) > 256:  # bounded, whatever the failures say
            self._logged.clear()
        if now - self._logged.get(message, -LOG_EVERY_S) >= LOG_EVERY_S:
            self._logged[message] = now
            log.warning("%s", message)

    async def _fetch(self, path: str, params: list[tuple[str, str]]) -> Any:
        try:
            # The label-values endpoint only answers GET; queries go as POST so long expressions fit.
            method = "GET" if path.startswith("/api/v1/label/") else "POST"
            kwargs: dict[str, Any] = {"params": params} if method == "GET" else {"data": params}
            async with self._client().request(method, f"{self.url}{path}", **kwargs) as response:
                try:
                    body = await response.json(content_type=None)
                except ValueError:
                    text = (await response.text())[:200]
                    raise QueryError(f"Prometheus at {self.url} answered {response.status}: {text}") from None
        except aiohttp.ClientError as exc:
            message = f"Prometheus at {self.url} is unreachable: {exc}"
            self._warn(message)
            raise QueryError(message) from None
        if not isinstance(body, dict) or body.get("status") != "success":
            error = body.get("error", body) if isinstance(body, dict) else body
            raise QueryError(f"Prometheus: {error}")
        return body.get("data")

    async def range_query(self, expr: str, start_s: float, end_s: float, step_s: float) -> list[dict[str, Any]]:
        data = await self.get(
            "/api/v1/query_range",
            {"query": expr, "start": f"{start_s:.3f}", "end": f"{end_s:.3f}", "step": f"{step_s:g}"},
        )
        return list(data.get("result", [])) if isinstance(data, dict) else []

    async def instant_query(self, expr: str, time_s: float) -> list[dict[str, Any]]:
        data = await self.get("/api/v1/query", {"query": expr, "time": f"{time_s:.3f}"})
        if not isinstance(data, dict):
            return []
        if data.get("resultType") == "scalar":
            ts, value = data["result"]
            return [{"metric": {}, "value": [ts, value]}]
        return list(data.get("result", []))

    async def label_values(self, label: str, selector: str | None, start_s: float, end_s: float) -> list[str]:
        params: dict[str, str | list[str]] = {"start": f"{start_s:.3f}", "end": f"{end_s:.3f}"}
        if selector:
            params["match[]"] = [selector]
        data = await self.get(f"/api/v1/label/{label}/values", params)
        return [str(v) for v in data] if isinstance(data, list) else []

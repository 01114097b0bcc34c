"""The report's one Prometheus client: instant and range queries over HTTP, counted (queries, bytes) for the bench.

Every failure is one line: unreachable, timed out (with the flag that raises the limit), or a query Prometheus
refused (with its own message).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import httpx

from gpuscope.errors import GpuscopeError, UsageError

Sample = tuple[dict[str, str], list[tuple[float, float]]]


class PrometheusFailed(GpuscopeError):
    """Prometheus could not answer (down, too slow, refused the query): exit 1, the range or URL may be at fault."""


@dataclass
class PromClient:
    url: str
    timeout: float = 60.0
    queries: int = 0
    bytes_fetched: int = 0
    _client: httpx.Client | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if not self.url.startswith(("http://", "https://")):
            raise UsageError(f"--prometheus {self.url!r}: give an http:// or https:// URL, e.g. http://localhost:9090")
        self.url = self.url.rstrip("/")

    def close(self) -> None:
        if self._client is not None:
            self._client.close()

    def instant(self, expr: str, time: float) -> list[Sample]:
        data = self._get("/api/v1/query", {"query": expr, "time": f"{time:.3f}"})
        return [(r["metric"], [(float(r["value"][0]), float(r["value"][1]))]) for r in data["result"]]

    def range(self, expr: str, start: float, end: float, step: int) -> list[Sample]:
        params = {"query": expr, "start": f"{start:.3f}", "end": f"{end:.3f}", "step": f"{step}s"}
        data = self._get("/api/v1/query_range", params)
        return [(r["metric"], [(float(t), float(v)) for t, v in r["values"]]) for r in data["result"]]

    def _get(self, path: str, params: dict[str, str]) -> dict[str, Any]:
        if self._client is None:
            self._client = httpx.Client(timeout=self.timeout)
        self.queries += 1
        params = {**params, "timeout": f"{self.timeout:g}s"}
        try:
            response = self._client.get(f"{self.url}{path}", params=params)
        except httpx.TimeoutException:
            raise PrometheusFailed(
                f"Prometheus at {self.url} did not answer within {self.timeout:g}s; "
                "shorten --from/--to or raise --timeout"
            ) from None
        except httpx.HTTPError as exc:
            raise PrometheusFailed(f"cannot reach Prometheus at {self.url} (--prometheus): {exc}") from None
        self.bytes_fetched += len(response.content)
        try:
            body = json.loads(response.content)
        except ValueError:
            raise PrometheusFailed(
                f"{self.url}{path} answered HTTP {response.status_code} with no Prometheus JSON; "
                "is --prometheus a Prometheus?"
            ) from None
        if body.get("status") != "success":
            error = str(body.get("error", "unknown error")).splitlines()[0]
            if body.get("errorType") == "timeout" or "timeout" in error:
                raise PrometheusFailed(
                    f"Prometheus at {self.url} timed out on a query ({error}); shorten --from/--to or raise --timeout"
                )
            raise PrometheusFailed(f"Prometheus at {self.url} refused a query: {error}")
        result: dict[str, Any] = body["data"]
        return result

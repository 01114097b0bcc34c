"""gpuscope's one client of the Prometheus HTTP API (and of the JSON APIs beside it: Alertmanager, the remediator).

``api`` says what each call asks and what its answer means, as pure functions over typed records (``model``);
``sync`` (blocking: the doctor, the report) and ``aio`` (asyncio: the console, the live view of ``gpuscope up``)
send the calls over httpx with the same deadline, body cap and errors, ``access`` holds credentials and TLS.

Every failure is an ``errors.ApiError``: ``EndpointDown`` (refused, no answer in time, 5xx), ``ApiUnusable``
(TLS, 401/403, not that API, an answer too big or of the wrong shape: the message names the flag to fix) or
``QueryFailed`` (the server refused one query). ``str()`` is one line beginning with the flag and URL.
"""

from __future__ import annotations

from gpuscope.errors import ApiError, ApiUnusable, EndpointDown, QueryFailed
from gpuscope.prom.access import Access
from gpuscope.prom.aio import AsyncClient, SlotTimeout
from gpuscope.prom.api import MAX_BODY_BYTES, Deadline, Endpoint, Limits
from gpuscope.prom.records import Matrix, Rule, RuntimeInfo, Sample, Series, Target, TsdbStatus, Vector
from gpuscope.prom.sync import Client, http_client

__all__ = [
    "MAX_BODY_BYTES",
    "Access",
    "ApiError",
    "ApiUnusable",
    "AsyncClient",
    "Client",
    "Deadline",
    "Endpoint",
    "EndpointDown",
    "Limits",
    "Matrix",
    "QueryFailed",
    "Rule",
    "RuntimeInfo",
    "Sample",
    "Series",
    "SlotTimeout",
    "Target",
    "TsdbStatus",
    "Vector",
    "http_client",
]

"""Alertmanager's webhook payload (``version: "4"``), read defensively: it arrives from the network.

Alertmanager POSTs one JSON object per notification: the group's ``status`` and ``receiver`` and its ``alerts``,
each with ``status`` (firing | resolved), ``labels``, ``annotations``, ``startsAt``, ``endsAt`` and
``fingerprint``. Anything else in the object is ignored, as Alertmanager adds fields over time. What is not that
shape (not JSON, not an object, labels that are not strings, too many alerts, over-long values) is a
``PayloadError`` whose message is the one line logged and answered with 400: nothing of a hostile payload reaches
the planner.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

MAX_BODY_BYTES = 1024 * 1024  # Alertmanager truncates at max_alerts; a group of 1,000 alerts is ~1 MiB
MAX_ALERTS = 1000
MAX_LABELS = 64
MAX_VALUE_CHARS = 4096  # a label value or annotation (an alert's description fits many times over)
_LABEL_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,127}$")


class PayloadError(Exception):
    """Not an Alertmanager webhook payload; the message says what is wrong, in one line."""


@dataclass(frozen=True, slots=True)
class AlertEvent:
    """One alert of a notification."""

    status: str  # firing | resolved
    labels: Mapping[str, str]
    annotations: Mapping[str, str]
    starts_at: str
    ends_at: str
    fingerprint: str

    @property
    def name(self) -> str:
        return self.labels.get("alertname", "")


@dataclass(frozen=True, slots=True)
class Delivery:
    """One webhook notification."""

    receiver: str
    status: str
    alerts: tuple[AlertEvent, ...]


def parse_delivery(body: bytes) -> Delivery:
    """The notification in ``body``; raises ``PayloadError``."""
    if len(body) > MAX_BODY_BYTES:
        raise PayloadError(f"body of {len(body)} bytes is over {MAX_BODY_BYTES}")
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise PayloadError("body is not JSON") from None
    if not isinstance(data, dict):
        raise PayloadError(f"body is a JSON {type(data).__name__}, not Alertmanager's webhook object")
    version = data.get("version")
    if version is not None and version != "4":
        raise PayloadError(f"webhook version {str(version)[:20]!r}: only Alertmanager's version 4 is understood")
    alerts = data.get("alerts")
    if not isinstance(alerts, list):
        raise PayloadError("no alerts list: not an Alertmanager webhook payload")
    if len(alerts) > MAX_ALERTS:
        raise PayloadError(f"{len(alerts)} alerts in one notification, over {MAX_ALERTS} (set max_alerts)")
    return Delivery(
        receiver=_text(data.get("receiver", ""), "receiver"),
        status=_text(data.get("status", ""), "status"),
        alerts=tuple(_alert(a, i) for i, a in enumerate(alerts)),
    )


def _alert(raw: Any, index: int) -> AlertEvent:
    where = f"alerts[{index}]"
    if not isinstance(raw, dict):
        raise PayloadError(f"{where} is not an object")
    status = raw.get("status")
    if status not in ("firing", "resolved"):
        raise PayloadError(f"{where}.status is {str(status)[:20]!r}, not firing or resolved")
    labels = _strings(raw.get("labels"), f"{where}.labels", names=True)
    if not labels.get("alertname"):
        raise PayloadError(f"{where} has no alertname label")
    return AlertEvent(
        status=status,
        labels=labels,
        annotations=_strings(raw.get("annotations") or {}, f"{where}.annotations", names=False),
        starts_at=_text(raw.get("startsAt", ""), f"{where}.startsAt"),
        ends_at=_text(raw.get("endsAt", ""), f"{where}.endsAt"),
        fingerprint=_text(raw.get("fingerprint", ""), f"{where}.fingerprint") or label_fingerprint(labels),
    )


def label_fingerprint(labels: Mapping[str, str]) -> str:
    """What stands for a missing ``fingerprint`` (a sender other than Alertmanager): like Alertmanager's, a hash of
    the label set, so an alert's firing and its resolution carry the same one and the node can return."""
    text = "\xff".join(f"{k}\xfe{v}" for k, v in sorted(labels.items()))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _strings(raw: Any, where: str, *, names: bool) -> Mapping[str, str]:
    if not isinstance(raw, dict):
        raise PayloadError(f"{where} is not an object")
    if len(raw) > MAX_LABELS:
        raise PayloadError(f"{where} has {len(raw)} entries, over {MAX_LABELS}")
    out: dict[str, str] = {}
    for key, value in raw.items():
        if names and not _LABEL_NAME.match(key):
            raise PayloadError(f"{where} has a key {key[:40]!r} that is not a label name")
        out[key] = _text(value, f"{where}.{key[:40]}")
    return MappingProxyType(out)


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise PayloadError(f"{where} is a {type(value).__name__}, not a string")
    if len(value) > MAX_VALUE_CHARS:
        raise PayloadError(f"{where} is {len(value)} characters long, over {MAX_VALUE_CHARS}")
    return value

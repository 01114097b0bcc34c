"""Expiry of job groups: the Pushgateway keeps every group until someone deletes it, so this is that someone.

A finished job leaves its group (end time and exit status) for dashboards and for whoever asks how it ended;
``gpuscope job gc`` — run from cron, a Kubernetes CronJob or a Slurm epilog — deletes the groups of jobs that
finished more than ``finished_for`` ago, and optionally those of jobs that stopped pushing without finishing
more than ``stale_for`` ago (after PushgatewayJobStale has had its say). Only groups holding ``gpuscope_job_*``
metrics are considered; other users of the same gateway are left alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from gpuscope.jobs.gateway import Gateway
from gpuscope.jobs.metrics import END, Labels


@dataclass(frozen=True, slots=True)
class JobGroup:
    grouping: Labels  # job first, then the other grouping labels by name
    push_time: float | None
    end_time: float | None

    def describe(self) -> str:
        return ",".join(f"{k}={v}" for k, v in self.grouping)


@dataclass(frozen=True, slots=True)
class Expired:
    group: JobGroup
    reason: str


def _value(family: object) -> float | None:
    try:
        return float(family["metrics"][0]["value"])  # type: ignore[index]
    except (KeyError, IndexError, TypeError, ValueError):
        return None


def job_groups(data: Iterable[Any]) -> list[JobGroup]:
    """Job groups from ``GET /api/v1/metrics``; groups without ``gpuscope_job_*`` metrics are skipped."""
    out = []
    for group in data:
        if not isinstance(group, Mapping):  # not a group: a hostile or broken listing is skipped, not a traceback
            continue
        labels = group.get("labels")
        if not isinstance(labels, dict) or "job" not in labels:
            continue
        if not any(isinstance(k, str) and k.startswith("gpuscope_job_") for k in group):
            continue
        grouping = (("job", str(labels["job"])), *sorted((str(k), str(v)) for k, v in labels.items() if k != "job"))
        out.append(JobGroup(grouping, _value(group.get("push_time_seconds")), _value(group.get(END))))
    return out


def select_expired(
    groups: Iterable[JobGroup], now: float, finished_for_s: float, stale_for_s: float | None
) -> list[Expired]:
    """Finished more than ``finished_for_s`` ago; or, with ``stale_for_s``, unfinished and silent that long."""
    out = []
    for group in groups:
        if group.end_time is not None:
            if now - group.end_time >= finished_for_s:
                out.append(Expired(group, f"finished {now - group.end_time:.0f}s ago"))
        elif stale_for_s is not None and group.push_time is not None and now - group.push_time >= stale_for_s:
            out.append(Expired(group, f"no push for {now - group.push_time:.0f}s and never finished"))
    return out


def expire(
    gateway: Gateway, now: float, finished_for_s: float, stale_for_s: float | None = None, dry_run: bool = False
) -> list[Expired]:
    """Delete (unless ``dry_run``) the expired job groups; returns them. Raises ``GatewayError``."""
    chosen = select_expired(job_groups(gateway.groups()), now, finished_for_s, stale_for_s)
    if not dry_run:
        for item in chosen:
            gateway.delete(item.group.grouping)
    return chosen

"""What the local stack looks like right now, asked of its own APIs: the live view and ``gpuscope status``.

Per cluster: exporter targets up in each replica, GPUs reporting, samples per second; firing alerts by owner from
Alertmanager; notifications received; and the Phase 1 floor (docs/architecture.md) as checks that turn green.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any

import httpx

from gpuscope.rules.promql import Promql
from gpuscope.runner.plan import LocalPlan


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    ok: bool
    detail: str


async def _query(client: httpx.AsyncClient, base: str, expr: str) -> list[dict[str, Any]] | None:
    try:
        response = await client.get(f"{base}/api/v1/query", params={"query": expr})
        response.raise_for_status()
        result: list[dict[str, Any]] = response.json()["data"]["result"]
        return result
    except (httpx.HTTPError, ValueError, KeyError):
        return None


async def _scalar(client: httpx.AsyncClient, base: str, expr: str) -> float | None:
    result = await _query(client, base, f"({expr}) or vector(0)")
    return None if result is None else float(result[0]["value"][1]) if result else 0.0


async def _api(client: httpx.AsyncClient, url: str) -> Any:
    try:
        response = await client.get(url)
        response.raise_for_status()
        return response.json()
    except (httpx.HTTPError, ValueError):
        return None


def expected_gpus(plan: LocalPlan, cluster: str) -> int:
    return sum(n.config.gpus for n in plan.nodes_of(cluster))


def _promql(plan: LocalPlan) -> Promql:
    """The spec's own selectors, label names and dialect, as the rules use them."""
    return Promql(plan.spec.rules_config())


async def _replica(client: httpx.AsyncClient, base: str, plan: LocalPlan) -> dict[str, Any]:
    q = _promql(plan)
    up, gpus, samples, rules, managers = await asyncio.gather(
        _scalar(client, base, f"count({q.up} == 1)"),
        _scalar(client, base, f"count(count by ({q.config.uuid_label}) ({q.dcgm('DCGM_FI_DEV_GPU_TEMP')}))"),
        _scalar(client, base, "sum(scrape_samples_scraped)"),
        _api(client, f"{base}/api/v1/rules"),
        _api(client, f"{base}/api/v1/alertmanagers"),
    )
    groups = rules["data"]["groups"] if rules else []
    return {
        "reachable": up is not None,
        "targets_up": int(up or 0),
        "gpus_reporting": int(gpus or 0),
        "samples_per_second": round((samples or 0) / plan.interval_s, 1),
        "rule_groups": len(groups),
        "rule_errors": sum(1 for g in groups for r in g["rules"] if r.get("health") == "err"),
        "alertmanagers": len(managers["data"]["activeAlertmanagers"]) if managers else 0,
    }


async def gather(plan: LocalPlan, client: httpx.AsyncClient, notifications: int) -> dict[str, Any]:
    urls = plan.urls()
    names = [c.name for c in plan.spec.clusters]
    replica_keys = [(c, r) for c in names for r in ("a", "b")]
    replicas = await asyncio.gather(*(_replica(client, urls[f"prometheus-{r}@{c}"], plan) for c, r in replica_keys))
    by_replica = dict(zip(replica_keys, replicas, strict=True))
    q = _promql(plan)
    temp, uuid = q.dcgm("DCGM_FI_DEV_GPU_TEMP"), q.config.uuid_label
    if plan.spec.retention.cold_tier == "rollups":
        # Only the cold-tier rollups reach the global store; their GPU temperature stands for "reporting" there.
        temp = "gpu:temperature_celsius:max_rollup5m"
    global_gpus = await _query(client, urls["global"], f"count by (cluster) (count by (cluster, {uuid}) ({temp}))")
    global_up = await _query(client, urls["global"], f"count by (cluster) (count by (cluster, instance) ({q.up} == 1))")
    alerts = await _api(client, f"{urls['alertmanager']}/api/v2/alerts?active=true&silenced=false&inhibited=false")
    decisions = await _api(client, f"{urls['remediate']}/api/v1/decisions") if "remediate" in urls else None
    clusters = []
    for name in names:
        a, b = by_replica[(name, "a")], by_replica[(name, "b")]
        best = a if a["reachable"] else b
        clusters.append(
            {
                "name": name,
                "targets_total": len(plan.nodes_of(name)),
                "targets_up": {"a": a["targets_up"], "b": b["targets_up"]},
                "gpus_expected": expected_gpus(plan, name),
                "gpus_reporting": best["gpus_reporting"],
                "samples_per_second": best["samples_per_second"],
                "replicas": {"a": a, "b": b},
            }
        )
    firing = sorted(
        (
            {
                "alertname": al["labels"].get("alertname", ""),
                "owner": al["labels"].get("owner", "none"),
                "severity": al["labels"].get("severity", ""),
                "labels": al["labels"],
            }
            for al in alerts or []
        ),
        key=lambda al: (al["owner"], al["alertname"]),
    )
    status = {
        "clusters": clusters,
        "alerts": {"firing_by_owner": dict(Counter(al["owner"] for al in firing)), "firing": firing},
        "alertmanager_reachable": alerts is not None,
        "notifications": notifications,
        "remediation": remediation_lines(decisions),
        "global": {
            "gpus_by_cluster": {s["metric"].get("cluster", ""): int(float(s["value"][1])) for s in global_gpus or []},
            "exporter_targets_by_cluster": {
                s["metric"].get("cluster", ""): int(float(s["value"][1])) for s in global_up or []
            },
        },
    }
    status["floor"] = [asdict(c) for c in floor_checks(status)]
    return status


# What the live view shows of the remediator: what it would do, and why it did not (redeliveries and alerts outside
# the policy are left out).
_SHOWN = ("would", "done", "over_budget", "persons", "failed", "resolved")


def remediation_lines(decisions: Any) -> list[str]:
    if not isinstance(decisions, list):
        return []
    return [str(d.get("line", "")) for d in decisions if isinstance(d, dict) and d.get("result") in _SHOWN][-6:]


def floor_checks(status: dict[str, Any]) -> list[Check]:
    """The Phase 1 floor (docs/architecture.md), as it applies to the local stack."""
    checks = []
    for c in status["clusters"]:
        name, total, gpus = c["name"], c["targets_total"], c["gpus_expected"]
        for r in ("a", "b"):
            rep = c["replicas"][r]
            checks.append(
                Check(
                    f"{name}: exporters up in replica {r}",
                    rep["targets_up"] == total,
                    f"{rep['targets_up']}/{total} targets",
                )
            )
            checks.append(
                Check(
                    f"{name}: DCGM_FI_DEV_GPU_TEMP in replica {r}",
                    rep["gpus_reporting"] == gpus,
                    f"{rep['gpus_reporting']}/{gpus} GPUs",
                )
            )
            checks.append(
                Check(
                    f"{name}: rules loaded in replica {r}",
                    rep["rule_groups"] > 0 and not rep["rule_errors"],
                    f"{rep['rule_groups']} groups, {rep['rule_errors']} failing",
                )
            )
            checks.append(
                Check(
                    f"{name}: Alertmanager connected to replica {r}",
                    rep["alertmanagers"] > 0,
                    f"{rep['alertmanagers']} discovered",
                )
            )
        in_global = status["global"]["gpus_by_cluster"].get(name, 0)
        checks.append(Check(f"{name}: GPUs in the global store", in_global == gpus, f"{in_global}/{gpus} GPUs"))
    return checks


def floor_green(status: dict[str, Any]) -> bool:
    return bool(status.get("floor")) and all(c["ok"] for c in status["floor"])

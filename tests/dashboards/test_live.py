"""Every panel query of every generated dashboard, with its template variables filled in with real values, runs
against a real Prometheus fed by simulated GPUs and the generated rules, without error and with data.

The queries run against the store the cluster Prometheus remote-writes to (it has the ``cluster`` label, as
Thanos or Mimir would), the L2 dashboard also against the cluster's own Prometheus (no ``cluster`` label: the
Phase 1 floor). Queries for failure signals run once the matching faults are injected; the others also on the
healthy fleet before. Legends may only name labels the results carry.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from gpuscope.backends.sim.faults import FaultKind
from gpuscope.dashboards import dashboards
from gpuscope.dashboards.defaults import finalize
from gpuscope.dashboards.lint import problems
from gpuscope.dashboards.model import Panel
from gpuscope.dashboards.sdk import ref_id
from gpuscope.prom.records import Sample
from gpuscope.rules import RulesConfig
from tests.support.dashboards import substitute
from tests.support.livefleet import CLUSTER, Fleet, label_values, query, running_fleet, served_fields, wait_ready
from tests.support.prom import Prometheus

# Legends may name these although a result lacks them: MIG labels are absent on whole GPUs, and the exporter's
# windowed event counts carry xid / clock_event only once such an event happened.
IDLE = "l2-cluster / Top allocated-but-idle GPUs / A"
_OPTIONAL_LEGEND_LABELS = {"GPU_I_PROFILE", "GPU_I_ID", "xid", "clock_event"}


@dataclass(frozen=True)
class Target:
    where: str
    expr: str
    legend: str
    fault: str
    table: str = ""  # the table panel it is a column of, whose columns must merge into one row per key
    zero: bool = False  # a failure signal that answers 0 while nothing is wrong (dashboards/zeros.py)


def targets_of(fleet: Fleet) -> list[Target]:
    """Every target of the bundle's dashboards, with the fault its query needs (from the dashboards as data)."""
    files = sorted((fleet.bundle / "grafana/dashboards").glob("*.json"))
    models = {f.stem: json.loads(f.read_text()) for f in files}
    uids = {m["uid"] for m in models.values()}
    assert all(problems(m, uids) == [] for m in models.values())
    faults = {
        (final.dashboard.key, item.id, ref_id(i)): (q.fault, bool(q.zero) and i == _first_gated(item.panel))
        for final in finalize(fleet.options.fleet, dashboards(fleet.options))
        for item in final.items
        if item.panel
        for i, q in enumerate(item.panel.queries)
    }
    out = []
    for key, model in models.items():
        for panel in model["panels"]:
            for t in panel.get("targets", []):
                fault, zero = faults[(key, panel["id"], t["refId"])]
                where = f"{key} / {panel['title']} / {t['refId']}"
                table = f"{key} / {panel['title']}" if panel["type"] == "table" else ""
                out.append(Target(where, t["expr"], t.get("legendFormat", ""), fault, table, zero))
    return out


def _first_gated(panel: Panel) -> int:
    return next((i for i, q in enumerate(panel.queries) if q.zero), -1)


def zeros(prom: Prometheus, targets: Iterable[Target], values: Mapping[str, str]) -> tuple[set[str], dict[str, object]]:
    """On a healthy fleet: the failure signals that answer exactly one 0 without labels ("none"), and those that
    answer nothing, or a number without labels that is not 0 (a healthy GPU may still report a reason, gpu_idle)."""
    none: set[str] = set()
    wrong: dict[str, object] = {}
    for t in targets:
        result, error = query(prom, substitute(t.expr, values))
        if [(dict(s.labels), s.value) for s in result] == [({}, 0.0)]:
            none.add(t.where)
        elif error or not result or not all(s.labels for s in result):
            wrong[t.where] = error or result
    return none, wrong


def fired(result: Iterable[Sample]) -> bool:
    """A failure signal's answer once its fault is in: a GPU (or target) named, not the healthy zero."""
    return any(s.labels for s in result)


def settle(prom: Prometheus, targets: Iterable[Target], values: Mapping[str, str], timeout: float) -> dict[str, str]:
    """Run each query until it returns data (data may still be on its way); what never does, and why."""
    pending = {t.where: t for t in targets}
    failed: dict[str, str] = {}
    deadline = time.monotonic() + timeout
    while pending:
        for where, t in list(pending.items()):
            result, error = query(prom, substitute(t.expr, values))
            if error:
                failed[where] = f"error {error}\n{substitute(t.expr, values)}"
                del pending[where]
            elif result and (not t.fault or fired(result)):
                missing = _legend_labels(t.legend) - {k for s in result for k in s.labels}
                if missing - _OPTIONAL_LEGEND_LABELS:
                    failed[where] = f"legend names {sorted(missing)} but no series has them"
                del pending[where]
        if not pending or time.monotonic() > deadline:
            break
        time.sleep(1)
    failed.update({w: f"no data\n{substitute(t.expr, values)}" for w, t in pending.items()})
    return failed


def unmerged_tables(prom: Prometheus, targets: Iterable[Target], values: Mapping[str, str]) -> dict[str, object]:
    """Tables whose columns are keyed by different labels: the console (and Grafana's merge) would show one row per
    column instead of one per key (a jobs table keyed by cluster and job in one column and by job in another)."""
    keys: dict[str, dict[str, frozenset[str]]] = {}
    for t in targets:
        if t.table:
            result, _ = query(prom, substitute(t.expr, values))
            if result:  # a column without rows yet (no job has ended) has nothing to merge
                labels = frozenset(k for s in result for k in s.labels if k != "__name__")
                keys.setdefault(t.table, {})[t.where] = labels
    return {table: cols for table, cols in keys.items() if len(set(cols.values())) > 1}


def _legend_labels(legend: str) -> set[str]:
    return set(re.findall(r"\{\{\s*([A-Za-z_]\w*)\s*\}\}", legend))


def report(failed: Mapping[str, str]) -> str:
    return "\n\n".join(f"{where}: {why}" for where, why in sorted(failed.items()))


@pytest.mark.e2e
def test_every_panel_query_returns_data_from_a_live_fleet(tmp_path: Path) -> None:
    with running_fleet(tmp_path, served_fields()) as fleet:
        targets = targets_of(fleet)
        values = {
            "cluster": CLUSTER,
            "node": fleet.host,
            "gpu": fleet.uuids[0],
            "mig": ".*",
            "namespace": "ml",
            "pod": "train-0",
            "job_id": "j-1|j-0",
        }
        wait_ready(fleet)
        # (the idle table lists GPUs under the idle ratio: this fleet has none, which the checks below show)
        healthy = [t for t in targets if not t.fault and t.where != IDLE]
        failed = settle(fleet.store, healthy, values, timeout=30)
        assert not failed, report(failed)
        assert unmerged_tables(fleet.store, [t for t in targets if not t.fault], values) == {}
        # allocated-but-idle: one row per GPU (or MIG instance) however many pods share it, and only idle ones
        # (this fleet has few GPUs under the ratio, if any: those only; under a ratio of 2, every allocated GPU once)
        idle = next(t for t in targets if t.where == IDLE)
        ratio = RulesConfig().thresholds.idle_activity_ratio
        assert all(s.value < ratio for s in query(fleet.store, substitute(idle.expr, values))[0])
        rows, _ = query(fleet.store, substitute(idle.expr.replace(f"< {ratio})", "< 2)"), values))
        units = [(s.labels["UUID"], s.labels.get("GPU_I_ID", "")) for s in rows]
        held, _ = query(fleet.store, 'count(count by (UUID, GPU_I_ID) (workload:gpu_activity:avg5m{cluster="gpu-a"}))')
        assert len(units) == len(set(units)) == min(10, held[0].value), rows
        # no fault yet: every failure signal says "none" (0), where an empty answer would read as "broken"
        # (but the spec's unserved target is down from the start: its table and the fleet's alerts are not zero)
        gated = [t for t in targets if t.zero and t.fault != "exporter-down" and not t.where.startswith("l1-fleet")]
        assert {t.where.split(" / ")[0] for t in gated} == {"l2-cluster", "l3-node", "l4-gpu", "pipeline", "fabric"}
        none, wrong = zeros(fleet.store, gated, values)
        assert not wrong, report({where: str(answer) for where, answer in wrong.items()})
        tables = (
            "Last XID per GPU",
            "ECC and row-remap events",
            "Lost GPUs",
            "Thermal events",
            "Profiling metrics stale",
        )
        assert {f"l2-cluster / {title} / A" for title in tables} <= none, none

        for fault, gpu in (
            (FaultKind.ECC_DBE, 0),  # also XID 48, hence GPUXidCritical and GPUDoubleBitEccErrors
            (FaultKind.THERMAL, 0),
            (FaultKind.NVLINK_CRC, 1),
            (FaultKind.PROFILING_LOCK, 2),
            (FaultKind.FELL_OFF_BUS, 3),
        ):
            fleet.inject(fault, gpu)
        # "exporter-down": the spec lists a target nobody serves.
        failed = settle(fleet.store, [t for t in targets if t.fault], values, timeout=40)
        assert not failed, report(failed)

        # The Phase 1 floor: L2 on the cluster's own Prometheus, where "All" clusters is the regex .*.
        # (less the idle table again: whether a GPU of this fleet is under the ratio is chance, checked above)
        l2 = [t for t in targets if t.where.startswith("l2-cluster") and t.where != IDLE]
        failed = settle(fleet.local, l2, {**values, "cluster": ".*"}, timeout=10)
        assert not failed, report(failed)

        # MIG: per-instance fields of a MIG GPU, one instance selected, come back for that instance only.
        mig_values = {**values, "node": fleet.mig_host, "gpu": fleet.mig_uuid, "mig": fleet.mig_instance}
        per_instance = [t for t in targets if t.where.startswith("l4-gpu") and 'GPU_I_ID=~"$mig"' in t.expr]
        assert per_instance
        for t in per_instance:
            result, error = query(fleet.store, substitute(t.expr, mig_values))
            assert not error and result, t.where
            assert {s.labels.get("GPU_I_ID") for s in result} == {fleet.mig_instance}, t.where

        # Variable queries (label_values) offer real choices down the chain, MIG instances included.
        for model in (json.loads(f.read_text()) for f in (fleet.bundle / "grafana/dashboards").glob("*.json")):
            for var in model["templating"]["list"]:
                if var["type"] != "query":
                    continue
                call = re.fullmatch(r"label_values\((.+), (\w+)\)", var["query"]["query"])
                assert call, (model["title"], var["name"], var["query"]["query"])
                selector, label = call.groups()
                assert label_values(fleet.store, substitute(selector, mig_values), label), (model["title"], var["name"])


def test_served_fields_cover_the_catalog_minus_what_an_h100_lacks() -> None:
    """The live test's collectors CSV: what the simulator serves, so every L4 panel can be proven with data."""
    served = set(served_fields())
    assert {"DCGM_FI_PROF_SM_ACTIVE", "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "DCGM_EXP_XID_ERRORS_TOTAL"} <= served
    assert "DCGM_FI_DEV_FAN_SPEED" not in served  # an SXM H100 has no fan
    assert RulesConfig().uuid_label == "UUID"

"""The report and the Efficiency dashboard agree with each other and with hand-computed truth on one fleet of every
shape (whole GPUs, a GPU time-sliced by two namespaces, a MIG GPU partly partitioned with an MPS-shared instance),
stored in the global store as each topology stores an HA pair.

The 5 m chargeback rollups are the real rules' expressions evaluated by a real Prometheus over the cluster's raw
series (one copy: a cluster Prometheus sees its own scrapes); the 1 h rollups are their hourly means, as the
``avg_over_time(...[1h])`` rule records them. The global store then holds everything once (Mimir, which drops
``__replica__`` at ingestion; Thanos behind a deduplicating querier) or twice, labelled ``replica`` (a federating
Prometheus; VictoriaMetrics and Thanos stores, which keep both replicas' series). The report's raw and rollup
tiers and the dashboard's held/active/power panels must give the same totals either way. The 1 h rollups are
written where a Prometheus writes them, at the hour plus the group's evaluation offset; each of the report's
hourly steps reads the one written in the hour before it, so the rollup tier's hours are shifted by that offset
(the fleet here is the same every hour, so the totals are the truth).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from gpuscope.dashboards.facts import Options
from gpuscope.dashboards.options import recorded_names
from gpuscope.dashboards.promql import Q
from gpuscope.dashboards.queries import efficiency
from gpuscope.rules import RulesConfig
from gpuscope.rules.accounting import GPU_SLICES
from gpuscope.rules.efficiency_chargeback import (
    ACTIVE_1H,
    ACTIVE_5M,
    GPUS_1H,
    GPUS_5M,
    HELD_1H,
    HELD_5M,
    POWER_1H,
    POWER_5M,
)
from gpuscope.rules.recording import HELD, HELD_ACTIVE, HELD_POWER
from tests.report.store import check, close, materialize, query_range, report, rows, stored
from tests.support.prom import Prometheus

pytestmark = pytest.mark.e2e

MODEL = "NVIDIA H100 80GB HBM3"
START = 1_795_305_600  # a fixed past instant: deterministic steps
HOURS = 3
END = START + HOURS * 3600
SCRAPE = 60
SLICES = {"3g.40gb": 3, "2g.20gb": 2, "1g.10gb": 1}
# Prometheus evaluates a group at a fixed offset into its interval (a hash of the group), so the 1 h rollups are
# written at 20 past every hour here (a multiple of the 5 m rollups' step, whose values they average).
HOUR_GROUP_OFFSET = 1200


@dataclass(frozen=True)
class Unit:
    host: str
    gpu: int
    watts: float  # the GPU's, repeated on each of its MIG instances
    activity: float
    gi: int | None = None
    profile: str | None = None
    holders: tuple[tuple[str, str, str], ...] = ()  # (namespace, team, pod)
    jobs: tuple[str, ...] = ()  # Slurm jobs (hpc_job): in no namespace or team, the groups' unlabelled row

    @property
    def share(self) -> float:
        return 1.0 if self.profile is None else SLICES[self.profile] / GPU_SLICES

    @property
    def uuid(self) -> str:
        return f"GPU-{self.host}-{self.gpu:04d}"


UNITS = (
    Unit("node-0", 0, 400.0, 0.6, holders=(("ml", "vision", "train-0"),)),
    Unit("node-0", 1, 300.0, 0.3, holders=(("ml", "vision", "train-1"), ("research", "search", "nb-0"))),
    Unit("node-0", 2, 100.0, 0.1),
    Unit("node-1", 0, 500.0, 0.8, 1, "3g.40gb", (("infer", "serving", "srv-0"),)),
    Unit("node-1", 0, 500.0, 0.0, 2, "2g.20gb", (("research", "search", "nb-1"),)),
    Unit("node-1", 0, 500.0, 0.5, 3, "1g.10gb"),
    Unit("node-1", 0, 500.0, 0.25, 4, "1g.10gb", (("infer", "serving", "srv-1"), ("infer", "serving", "srv-2"))),
    Unit("node-2", 0, 350.0, 0.7, jobs=("42",)),
    Unit("node-2", 1, 200.0, 0.4, holders=(("ml", "vision", "train-2"),), jobs=("43",)),
)
GPUS = len({u.uuid for u in UNITS})


def truth(after: int, until: int, label: str) -> dict[str, tuple[float, float, float]]:
    """group -> (GPU-hours held, active GPU-hours, kWh) over ``(after, until]``, in the accounting unit."""
    hours = (until - after) / 3600
    out: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for u in UNITS:
        groups = [{"namespace": ns, "team": team, "job": pod}[label] for ns, team, pod in u.holders]
        for group in groups + [""] * len(u.jobs):
            held = u.share / (len(u.holders) + len(u.jobs))
            row = out[group]
            row[0] += held * hours
            row[1] += held * u.activity * hours
            row[2] += held * u.watts * hours / 1000
    return {k: (v[0], v[1], v[2]) for k, v in out.items()}


def _labels(u: Unit, replica: str | None) -> str:
    labels = {
        "cluster": "c1",
        "job": "dcgm-exporter",
        "instance": f"{u.host}:9400",
        "gpu": str(u.gpu),
        "UUID": u.uuid,
        "modelName": MODEL,
        "Hostname": u.host,
    }
    if u.profile is not None:
        labels.update(GPU_I_PROFILE=u.profile, GPU_I_ID=str(u.gi))
    if replica:
        labels["replica"] = replica
    return ",".join(f'{k}="{v}"' for k, v in labels.items())


def raw_openmetrics(replicas: tuple[str | None, ...]) -> list[str]:
    times = range(START - 3600, END + 1, SCRAPE)  # an hour of lead-in: the windows at START are full
    lines: list[str] = []
    families: dict[str, list[str]] = defaultdict(list)
    for replica in replicas:
        for u in UNITS:
            base = _labels(u, replica)
            families["DCGM_FI_DEV_GPU_TEMP"] += [f"{{{base}}} 40 {t}" for t in times]
            families["DCGM_FI_PROF_SM_ACTIVE"] += [f"{{{base}}} {u.activity} {t}" for t in times]
            families["DCGM_FI_DEV_POWER_USAGE"] += [f"{{{base}}} {u.watts} {t}" for t in times]
            families["DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION"] += [
                f"{{{base}}} {1e9 + u.watts * 1000 * (t - times[0]):.0f} {t}" for t in times
            ]
            for ns, team, pod in u.holders:
                info = f'{base},namespace="{ns}",pod="{pod}",container="main",team="{team}"'
                families["gpuscope_gpu_workload_info"] += [f"{{{info}}} 1 {t}" for t in times]
            for job in u.jobs:
                families["gpuscope_gpu_job_info"] += [f'{{{base},hpc_job="{job}"}} 1 {t}' for t in times]
    for name, samples in families.items():
        lines.append(f"# TYPE {name} gauge")
        lines += [name + s for s in samples]
    return lines


def series_lines(name: str, result: list[dict[str, Any]], replica: str | None) -> list[str]:
    out = []
    for s in result:
        labels = {k: v for k, v in s["metric"].items() if k != "__name__"}
        if replica:
            labels["replica"] = replica
        text = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
        out += [f"{name}{{{text}}} {float(v)!r} {int(float(t))}" for t, v in s["values"]]
    return out


@pytest.fixture(scope="module")
def rollups(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, Any]]]:
    """The 5 m and 1 h chargeback rollups as a cluster Prometheus records them from one copy of the raw series:
    the real rules, evaluated by a real Prometheus group by group (the once-a-minute records first), the 1 h group
    at the hour plus its offset, as a Prometheus actually runs it."""
    wanted = (HELD_5M, ACTIVE_5M, POWER_5M, GPUS_5M, HELD_1H, ACTIVE_1H, POWER_1H, GPUS_1H)
    work = tmp_path_factory.mktemp("cluster")
    return materialize(work, raw_openmetrics((None,)), wanted, START - 3600 + 300, END, {3600: HOUR_GROUP_OFFSET})


@pytest.fixture(scope="module", params=["one copy (Mimir, deduplicating Thanos)", "both replicas (federation)"])
def store(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    rollups: dict[str, list[dict[str, Any]]],
) -> Iterator[Prometheus]:
    replicas: tuple[str | None, ...] = (None,) if request.param.startswith("one") else ("a", "b")
    lines = raw_openmetrics(replicas)
    for name, result in rollups.items():
        lines.append(f"# TYPE {name} gauge")
        for replica in replicas:
            lines += series_lines(name, result, replica)
    with stored(tmp_path_factory.mktemp("global"), lines) as prom:
        yield prom


@pytest.mark.parametrize("tier", ["raw", "rollup"])
@pytest.mark.parametrize("group_by", ["namespace", "team"])
def test_report_matches_the_truth_on_every_shape(store: Prometheus, tmp_path: Path, tier: str, group_by: str) -> None:
    body = report(store, tmp_path, "--from", str(START), "--to", str(END), "--tier", tier, "--group-by", group_by)
    check(rows(body), truth(START, END, group_by))
    assert body["capacity_by_model"] == {MODEL: GPUS}
    held = sum(r["gpu_hours_held"] for r in body["groups"])
    assert held <= GPUS * HOURS  # GPU-hours held never exceed the GPU-hours there are


def _group(shown: str) -> str:
    """The report's group name of a panel's series: the report's unlabelled row is "" (the panels name the Slurm
    jobs in it apart from other holders without the label)."""
    return "" if shown in (efficiency.unlabelled("namespace"), efficiency.SLURM_JOBS) else shown


def test_dashboard_panels_sum_to_the_report(store: Prometheus, tmp_path: Path) -> None:
    """The Efficiency dashboard's held/active/power panels, summed over the range at the rollups' 5 m steps, are
    the report's GPU-hours and kWh; its held-vs-capacity panel never shows more held than there is."""
    config = RulesConfig()
    q = Q(options=Options(fleet="shapes", rules=config, fields=frozenset(), recorded=recorded_names(config)))

    def panel_range(expr: str) -> list[dict[str, Any]]:
        return query_range(store, expr.replace("$cluster", ".+"), START + 300, END, 300)

    body = report(store, tmp_path, "--from", str(START), "--to", str(END), "--tier", "raw", "--group-by", "namespace")
    dashboard: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for col, panel in enumerate((efficiency.held, efficiency.active, efficiency.power)):
        for s in panel_range(panel(q, "namespace").expr):
            total = sum(float(v) for _, v in s["values"]) * 300 / 3600
            dashboard[_group(s["metric"]["namespace"])][col] += total / (1000 if col == 2 else 1)
    check({k: (v[0], v[1], v[2]) for k, v in dashboard.items()}, rows(body))
    capacity, held = efficiency.held_vs_capacity(q)
    cap, held_series = panel_range(capacity.expr), panel_range(held.expr)
    assert [float(v) for _, v in cap[0]["values"]] == [float(GPUS)] * (HOURS * 12)
    assert all(float(v) <= GPUS for _, v in held_series[0]["values"])


# What the Efficiency panels read until the first 5 m rollup: the once-a-minute records.
MINUTE_RECORDS = (HELD, HELD_ACTIVE, HELD_POWER, "cluster:gpus:count_by_model")


@pytest.fixture(scope="module", params=["one copy", "both replicas"])
def fresh_store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Prometheus]:
    """A global store a few minutes after the stack started: the raw series and the once-a-minute records (the real
    rules' expressions, evaluated every minute over one copy of the raw series), no rollup yet."""
    work = tmp_path_factory.mktemp("fresh-cluster")
    computed = materialize(work, raw_openmetrics((None,)), MINUTE_RECORDS, END - 600, END)
    replicas: tuple[str | None, ...] = (None,) if request.param == "one copy" else ("a", "b")
    lines = raw_openmetrics(replicas)
    for name, result in computed.items():
        lines.append(f"# TYPE {name} gauge")
        for replica in replicas:
            lines += series_lines(name, result, replica)
    with stored(tmp_path_factory.mktemp("fresh-global"), lines) as store:
        yield store


def instant(prom: Prometheus, expr: str, at: int) -> list[dict[str, Any]]:
    response = httpx.get(f"{prom.url}/api/v1/query", params={"query": expr, "time": str(at)}, timeout=30)
    response.raise_for_status()
    result: list[dict[str, Any]] = response.json()["data"]["result"]
    return result


def test_efficiency_panels_have_the_numbers_before_the_first_rollup(fresh_store: Prometheus) -> None:
    """Before any 5 m rollup exists the Efficiency panels read the once-a-minute records, counted alike: per
    namespace the GPUs held, active and watts are the truth, and the fleet panel shows the GPUs there are."""
    config = RulesConfig()
    q = Q(options=Options(fleet="shapes", rules=config, fields=frozenset(), recorded=recorded_names(config)))
    rates = {ns: (held, active, kwh * 1000) for ns, (held, active, kwh) in truth(0, 3600, "namespace").items()}
    shown: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for col, panel in enumerate((efficiency.held, efficiency.active, efficiency.power)):
        for s in instant(fresh_store, panel(q, "namespace").expr.replace("$cluster", ".+"), END):
            shown[_group(s["metric"]["namespace"])][col] = float(s["value"][1])
    check({k: (v[0], v[1], v[2]) for k, v in shown.items()}, rates)
    capacity, held = efficiency.held_vs_capacity(q)
    assert [float(s["value"][1]) for s in instant(fresh_store, capacity.expr.replace("$cluster", ".+"), END)] == [
        float(GPUS)
    ]
    total = instant(fresh_store, held.expr.replace("$cluster", ".+"), END)
    assert close(float(total[0]["value"][1]), sum(v[0] for v in rates.values()))

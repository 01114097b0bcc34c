"""Conservation over time: random fleets whose holders come and go, whose GPUs drop out for minutes, reload their
driver (the energy counter resets), are swapped (a new UUID in the slot), are re-partitioned (new MIG instances),
and whose exporter pod is replaced with a minute of overlap (two scrape instances of one GPU), evaluated by promtool
against truth computed here, minute by minute, in every attribution dialect.

The truth follows the rules' stated time model (docs/counting.md, "Over time"): a holder holds at the minutes at
which it is allocated and its unit reports; the watts of a minute are its GPU's energy counter's increase since the
previous minute's reading (nothing across a gap, the counter since the reload after a reset, the power gauge where
there is no counter); the 5 m rollup is the mean of its five minutes and the 1 h rollup the mean of its twelve 5 m
rollups, absent ones counted as 0. Checked: every 5 m and 1 h rollup per group equals that truth, held never exceeds
the GPUs reporting at any minute, and the hour's energy is the sum of its minutes' watts.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpuscope.hardware.models import MODELS
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
from tests.rules.fixtures import H100, JOB
from tests.support.promtool import Series, run_suite

pytestmark = pytest.mark.promtool

MINUTES = 66  # the hour (5 m, 65 m] and its lead-in
STEPS = MINUTES * 4 + 1  # 15 s samples, the last at MINUTES
EVAL = 65  # the 1 h rollup of (5 m, 65 m], the 5 m rollups at 10 m ... 65 m
PROFILES = {p.name: p.slices for p in MODELS["h100"].mig_profiles}
TEAMS = {"ml": "vision", "research": "search", "infer": "serving"}
ACTIVITIES = (0.0, 0.25, 0.5, 1.0)
WATTS = (100.0, 250.0, 400.0)
DIALECTS = {
    "info": RulesConfig(),
    "labels": RulesConfig(workload_labels="labels"),
    "exported": RulesConfig(workload_labels="labels", namespace_label="exported_namespace", pod_label="exported_pod"),
    # dcgm-exporter 4.8.3+ (hostname) with -k; and -o (uuid, pod_namespace/pod_name)
    "4.8.3": RulesConfig(workload_labels="labels", host_label="hostname"),
    "old": RulesConfig(
        workload_labels="labels", uuid_label="uuid", namespace_label="pod_namespace", pod_label="pod_name"
    ),
}


@dataclass(frozen=True)
class Holder:
    namespace: str
    pod: str
    start: int  # minutes, on the grid: allocated at [start, end)
    end: int


@dataclass(frozen=True)
class Unit:
    gi: int | None
    profile: str | None
    activity: float
    start: int  # the unit exists at [start, end) (a MIG re-partition replaces the instances)
    end: int
    holders: tuple[Holder, ...]

    @property
    def share(self) -> float:
        return 1.0 if self.profile is None else PROFILES[self.profile] / GPU_SLICES


@dataclass(frozen=True)
class Gpu:
    host: str
    slot: int
    uuid: str
    watts: float
    start: int  # the GPU is in the slot at [start, end) (a swap puts a new UUID in at end)
    end: int
    gap: tuple[int, int] | None  # minutes without a single sample
    reset: int | None  # the minute the driver reloads (the energy counter starts again)
    energy: bool  # whether the exporter serves the energy counter
    units: tuple[Unit, ...]


@dataclass(frozen=True)
class Node:
    host: str
    gpus: tuple[Gpu, ...]
    rollout: int | None  # the exporter pod is replaced at this minute, the old one scraped for one minute more


def _present(minute_start: int, minute_end: int, gap: tuple[int, int] | None, k: int) -> bool:
    """Whether step ``k`` (15 s) falls in [start, end) and outside the gap."""
    t = k / 4
    if not minute_start <= t < minute_end:
        return False
    return gap is None or not gap[0] <= t < gap[1]


@st.composite
def intervals(draw: st.DrawFn, lo: int, hi: int) -> tuple[int, int]:
    a = draw(st.integers(lo, hi - 1))
    return a, draw(st.integers(a + 1, hi))


@st.composite
def units(draw: st.DrawFn, host: str, slot: int, start: int, end: int) -> tuple[Unit, ...]:
    # a whole GPU, or MIG instances, possibly re-partitioned once
    layouts = ((None,), ("3g.40gb", "4g.40gb"), ("1g.10gb", "2g.20gb"))
    split = draw(st.one_of(st.none(), st.integers(start + 1, end - 1))) if end - start > 2 else None
    spans = [(start, end)] if split is None else [(start, split), (split, end)]
    out: list[Unit] = []
    for n, (a, b) in enumerate(spans):
        layout: tuple[str | None, ...] = draw(st.sampled_from(layouts if split is None else layouts[1:]))
        for i, profile in enumerate(layout):
            holders = []
            for h in range(draw(st.integers(0, 2))):
                ha, hb = draw(intervals(a, b))
                ns = draw(st.sampled_from(sorted(TEAMS)))
                holders.append(Holder(ns, f"p-{host}-{slot}-{n}-{i}-{h}", ha, hb))
            out.append(
                Unit(
                    gi=None if profile is None else n * 4 + i + 1,
                    profile=profile,
                    activity=draw(st.sampled_from(ACTIVITIES)),
                    start=a,
                    end=b,
                    holders=tuple(holders),
                )
            )
    return tuple(out)


@st.composite
def gpus(draw: st.DrawFn, host: str, slot: int) -> tuple[Gpu, ...]:
    swap = draw(st.one_of(st.none(), st.integers(10, MINUTES - 10)))
    spans = [(0, MINUTES + 1)] if swap is None else [(0, swap), (swap, MINUTES + 1)]
    out = []
    for n, (a, b) in enumerate(spans):
        gap = draw(st.one_of(st.none(), intervals(a + 1, b - 1))) if b - a > 4 else None
        out.append(
            Gpu(
                host=host,
                slot=slot,
                uuid=f"GPU-{host}-{slot}-{n}",
                watts=draw(st.sampled_from(WATTS)),
                start=a,
                end=b,
                gap=gap,
                reset=draw(st.one_of(st.none(), st.integers(a + 1, b - 1))),
                energy=draw(st.booleans()) or n > 0,
                units=draw(units(host, slot, a, b)),
            )
        )
    return tuple(out)


@st.composite
def fleets(draw: st.DrawFn) -> tuple[Node, ...]:
    nodes = []
    for n in range(draw(st.integers(1, 2))):
        host = f"node-{n}"
        slots = tuple(g for slot in range(draw(st.integers(1, 2))) for g in draw(gpus(host, slot)))
        nodes.append(Node(host, slots, draw(st.one_of(st.none(), st.integers(5, MINUTES - 5)))))
    return tuple(nodes)


# --- the series ---------------------------------------------------------------------------------------------


def _values(present: list[bool], value: Any) -> str:
    """Per-step values: the value where present, a staleness marker on the first step after each run, else none."""
    out = []
    for k, here in enumerate(present):
        if here:
            out.append(f"{value(k) if callable(value) else value:g}")
        elif k > 0 and present[k - 1]:
            out.append("stale")
        else:
            out.append("_")
    return " ".join(out)


def _instances(node: Node, k: int) -> tuple[str, ...]:
    """The scrape instances that scrape ``node`` at step ``k``: both for the minute of a rollout's overlap."""
    old, new = f"{node.host}:9400", f"{node.host}-new:9400"
    if node.rollout is None:
        return (old,)
    t = k / 4
    return tuple(i for i, on in ((old, t < node.rollout + 1), (new, t >= node.rollout)) if on)


def _counter(gpu: Gpu, k: int) -> float:
    """The energy counter in mJ at step ``k``: watts x 15 s per step, from 0 again after a driver reload."""
    first = gpu.start * 4 if gpu.reset is None or k < gpu.reset * 4 else gpu.reset * 4
    return gpu.watts * 15_000 * (k - first) + (1e9 if first == gpu.start * 4 else 0)


def fleet_series(nodes: tuple[Node, ...], config: RulesConfig) -> list[Series]:
    out: list[Series] = []
    ns_label, pod_label = config.namespace_label, config.pod_label
    for node in nodes:
        for instance in sorted({i for k in range(STEPS) for i in _instances(node, k)}):
            scraped = [instance in _instances(node, k) for k in range(STEPS)]
            out.append(Series("up", {"job": JOB, "instance": instance}, _values(scraped, 1)))
            for gpu in node.gpus:
                for unit in gpu.units:
                    base = {
                        "job": JOB,
                        "instance": instance,
                        "gpu": str(gpu.slot),
                        config.uuid_label: gpu.uuid,
                        "modelName": H100,
                        config.host_label: gpu.host,
                    }
                    if unit.profile is not None:
                        base.update(GPU_I_PROFILE=unit.profile, GPU_I_ID=str(unit.gi))
                    here = [
                        scraped[k]
                        and _present(unit.start, unit.end, gpu.gap, k)
                        and _present(gpu.start, gpu.end, None, k)
                        for k in range(STEPS)
                    ]
                    fields: dict[str, Any] = {
                        "DCGM_FI_DEV_GPU_TEMP": 40,
                        "DCGM_FI_PROF_SM_ACTIVE": unit.activity,
                        "DCGM_FI_DEV_POWER_USAGE": gpu.watts,
                    }
                    if gpu.energy:
                        fields["DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION"] = lambda k, g=gpu: _counter(g, k)
                    # who holds the unit at each step: one series per holder where the labels are on the device
                    # series (a shared unit's series repeated per pod, as --kubernetes-virtual-gpus writes them)
                    held_by = [
                        tuple(h for h in unit.holders if h.start <= k / 4 < h.end) if here[k] else ()
                        for k in range(STEPS)
                    ]
                    if config.workload_labels == "labels":
                        pods = {h for hs in held_by for h in hs}
                        variants: list[tuple[dict[str, str], list[bool]]] = [
                            ({}, [here[k] and not held_by[k] for k in range(STEPS)])
                        ]
                        variants += [
                            (
                                {
                                    ns_label: h.namespace,
                                    pod_label: h.pod,
                                    "container": "main",
                                    "team": TEAMS[h.namespace],
                                },
                                [h in held_by[k] for k in range(STEPS)],
                            )
                            for h in sorted(pods, key=lambda h: h.pod)
                        ]
                    else:
                        variants = [({}, here)]
                        for h in unit.holders:
                            info = {
                                **base,
                                ns_label: h.namespace,
                                pod_label: h.pod,
                                "container": "main",
                                "team": TEAMS[h.namespace],
                            }
                            allocated = [scraped[k] and h.start <= k / 4 < h.end for k in range(STEPS)]
                            out.append(Series("gpuscope_gpu_workload_info", info, _values(allocated, 1)))
                    for extra, present in variants:
                        for name, value in fields.items():
                            out.append(Series(name, {**base, **extra}, _values(present, value)))
    return out


# --- the truth ----------------------------------------------------------------------------------------------


def _reading(gpu: Gpu, m: int) -> float | None:
    """The energy counter's reading at minute ``m`` (mJ), if the GPU reports then."""
    k = 4 * m
    here = _present(gpu.start, gpu.end, gpu.gap, k) and any(_present(u.start, u.end, None, k) for u in gpu.units)
    return _counter(gpu, k) if here else None


Minutes = dict[tuple[str, int], float]  # (group, minute) -> value


def _billed_watts(gpu: Gpu, m: int) -> float:
    """The watts the GPU is billed for minute ``m``: the counter's increase since the last minute, else the gauge."""
    now, before = _reading(gpu, m), _reading(gpu, m - 1)
    if not gpu.energy or now is None or before is None or now < before:
        return gpu.watts
    return (now - before) / 1000 / 60


def per_minute(nodes: tuple[Node, ...]) -> tuple[Minutes, Minutes, Minutes, dict[int, float]]:
    """GPUs held, active and watts per group and minute, and the GPUs reporting per minute."""
    held: Minutes = defaultdict(float)
    active: Minutes = defaultdict(float)
    watts: Minutes = defaultdict(float)
    capacity: dict[int, float] = defaultdict(float)
    for gpu in (g for node in nodes for g in node.gpus):
        for m in range(1, MINUTES + 1):
            units_here = [u for u in gpu.units if _present(u.start, u.end, gpu.gap, 4 * m)]
            if not units_here or not _present(gpu.start, gpu.end, None, 4 * m):
                continue
            capacity[m] += 1
            w = _billed_watts(gpu, m)
            for unit in units_here:
                holders = [h for h in unit.holders if h.start <= m < h.end]
                for h in holders:
                    group, share = _group(h.namespace), unit.share / len(holders)
                    held[group, m] += share
                    active[group, m] += share * unit.activity
                    watts[group, m] += share * w
    return held, active, watts, capacity


def truth(nodes: tuple[Node, ...]) -> dict[str, dict[str, float]]:
    """record (``@minute`` for a 5 m rollup other than at EVAL) -> {label set: value}."""
    held, active, watts, capacity = per_minute(nodes)
    out: dict[str, dict[str, float]] = defaultdict(dict)
    grid = range(EVAL - 55, EVAL + 1, 5)  # the hour's twelve 5 m rollups
    for (record, long), series in (
        ((HELD_5M, HELD_1H), held),
        ((ACTIVE_5M, ACTIVE_1H), active),
        ((POWER_5M, POWER_1H), watts),
    ):
        # a rollup exists where its group had a sample in its period: 0-valued minutes count, absent ones do not
        for group in {g for g, _ in series}:
            for p in grid:
                minutes = range(p - 4, p + 1)
                if any((group, m) in series for m in minutes):
                    out[f"{record}@{p}"][group] = sum(series.get((group, m), 0.0) for m in minutes) / 5
            if any(group in out[f"{record}@{p}"] for p in grid):
                out[long][group] = sum(out[f"{record}@{p}"].get(group, 0.0) for p in grid) / 12
    model = _labels(modelName=H100)
    out[GPUS_1H][model] = sum(capacity[m] for m in range(EVAL - 59, EVAL + 1)) / 60
    out[f"{GPUS_5M}@{EVAL}"][model] = sum(capacity[m] for m in range(EVAL - 4, EVAL + 1)) / 5
    return out


def _labels(**labels: str) -> str:
    return "{" + ",".join(f'{k}="{v}"' for k, v in sorted(labels.items())) + "}"


def _group(namespace: str) -> str:
    return _labels(modelName=H100, namespace=namespace, team=TEAMS[namespace])


def checks(expected: dict[str, dict[str, float]], config: RulesConfig) -> list[dict[str, Any]]:
    tests: list[dict[str, Any]] = []
    ns = config.namespace_label

    def expect(expr: str, at: int, samples: list[tuple[str, float]]) -> None:
        tests.append(
            {"expr": expr, "eval_time": f"{at}m", "exp_samples": [{"labels": lb, "value": v} for lb, v in samples]}
        )

    for key, series in sorted(expected.items()):
        record, _, at = key.partition("@")
        when = int(at) if at else EVAL
        expect(f"count({record})", when, [("{}", len(series))] if series else [])
        for labels, value in sorted(series.items()):
            matchers = labels.replace("namespace=", f"{ns}=")
            expect(f"abs(sum({record}{matchers}) - {value!r}) < bool 1e-6", when, [("{}", 1)])
    # held never exceeds the GPUs reporting, at any minute of the hour, and the hour is the mean of its 5 m tier
    over = "sum(workload:gpu_held:ratio) > sum(cluster:gpus:count_by_model) + 1e-9"
    expect(f"count_over_time(({over})[{EVAL}m:1m])", EVAL, [])
    for short, long in ((HELD_5M, HELD_1H), (POWER_5M, POWER_1H)):
        tier = f"sum_over_time(sum({short})[3599999ms:5m]) / 12"
        expect(f"abs(sum({long}) - {tier}) > 1e-6", EVAL, [])
    return tests


@pytest.mark.parametrize("dialect", sorted(DIALECTS))
@settings(
    max_examples=2,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(fleet=fleets())
def test_rollups_over_time_are_the_truth_in_every_dialect(
    tmp_path: Path, dialect: str, fleet: tuple[Node, ...]
) -> None:
    config = DIALECTS[dialect]
    tests = [
        {
            "name": f"{dialect}: {fleet}",
            "interval": "15s",
            "input_series": [s.promtool() for s in fleet_series(fleet, config)],
            "promql_expr_test": checks(truth(fleet), config),
        }
    ]
    result = run_suite(tmp_path, tests, config, interval="15s")
    assert result.returncode == 0, result.stdout[-8000:] + result.stderr[-2000:]

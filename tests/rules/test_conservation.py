"""Conservation of every recorded number, on random fleets evaluated by promtool against hand-computed truth.

Hypothesis draws fleets of whole GPUs, MIG GPUs (layouts of the catalog's H100 profiles, partitioned fully or not)
and GPUs shared by several pods (time-slicing, MPS), with the series shaped exactly as dcgm-exporter serves them:
device fields (power, energy, temperature) repeated on every MIG instance with the same UUID, framebuffer and
profiling fields per instance, and some nodes' exporter pod replaced mid-window (old and new ``instance`` both in
the 5 m window). The truth is computed here from the fleet; promtool evaluates the real rules. For every grouping:
the sum of group powers is the sum over distinct GPUs, GPUs held never exceed the GPUs there are, activity is
weighted by unit size, and chargeback shares add up to the held GPUs.
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
from gpuscope.rules.efficiency_chargeback import ACTIVE_5M, GPUS_5M, HELD_5M, POWER_5M
from tests.rules.fixtures import H100, gpu_labels, self_labels
from tests.support.promtool import Series, run_suite

pytestmark = pytest.mark.promtool

CONFIG = RulesConfig()
IDLE = CONFIG.thresholds.idle_activity_ratio
TOTAL_STEPS = 80  # 20 minutes of 15 s samples
ROLLOUT = 40  # the step (10 m) at which a replaced exporter's new pod takes over
EVAL = "12m"  # both pods' samples in the 5 m windows; the 5 m chargeback group last ran at 10 m
PROFILES = {p.name: p.slices for p in MODELS["h100"].mig_profiles}
LAYOUTS = (
    ("1g.10gb",) * 7,
    ("3g.40gb", "4g.40gb"),
    ("3g.40gb", "2g.20gb", "1g.10gb", "1g.10gb"),
    ("7g.80gb",),
    ("2g.20gb", "2g.20gb", "2g.20gb", "1g.10gb"),
    ("3g.40gb",),  # partly partitioned: 4 slices unused
)
# Exactly representable values keep sums of a few terms exact enough for a 1e-6 tolerance.
ACTIVITIES = (0.0, 0.125, 0.25, 0.5, 0.75, 1.0)
NAMESPACES = (("ml", "vision"), ("research", "search"), ("infer", "vision"))


@dataclass(frozen=True)
class Unit:
    gi: int | None  # GPU instance id; None for a whole GPU
    profile: str | None
    activity: float
    used_mib: int
    free_mib: int
    holders: tuple[tuple[str, str, str], ...]  # (namespace, team, pod)

    @property
    def share(self) -> float:
        return 1.0 if self.profile is None else PROFILES[self.profile] / GPU_SLICES


@dataclass(frozen=True)
class Gpu:
    host: str
    index: int
    watts: float
    units: tuple[Unit, ...]


@dataclass(frozen=True)
class Node:
    host: str
    gpus: tuple[Gpu, ...]
    replaced: bool  # its exporter pod is replaced at ROLLOUT


@st.composite
def units(draw: st.DrawFn, host: str, index: int) -> tuple[Unit, ...]:
    layout: tuple[str | None, ...] = draw(st.sampled_from(((None,), *LAYOUTS)))
    out = []
    for n, profile in enumerate(layout):
        count = draw(st.integers(0, 3))
        holders = tuple((*draw(st.sampled_from(NAMESPACES)), f"p-{host}-{index}-{n}-{k}") for k in range(count))
        out.append(
            Unit(
                gi=None if profile is None else n + 1,
                profile=profile,
                activity=draw(st.sampled_from(ACTIVITIES)),
                used_mib=draw(st.sampled_from((0, 1024, 4096, 8192))),
                free_mib=draw(st.sampled_from((1024, 2048, 8192))),
                holders=holders,
            )
        )
    return tuple(out)


@st.composite
def fleets(draw: st.DrawFn) -> tuple[Node, ...]:
    nodes = []
    for n in range(draw(st.integers(1, 3))):
        host = f"node-{n}"
        gpus = tuple(
            Gpu(
                host=host,
                index=i,
                watts=draw(st.sampled_from((100.0, 250.0, 400.0, 700.0))),
                units=draw(units(host, i)),
            )
            for i in range(draw(st.integers(1, 3)))
        )
        nodes.append(Node(host=host, gpus=gpus, replaced=draw(st.booleans())))
    return tuple(nodes)


# --- the series, shaped like dcgm-exporter's -----------------------------------------------------------------


def _values(node: Node, value: str, counter_step: float | None = None) -> tuple[tuple[str, str], ...]:
    """(instance, values) pairs: one exporter pod for the whole window, or an old pod until ROLLOUT and a new one
    after it (a counter, the GPU's own energy counter, goes on where it was)."""
    old, new = f"{node.host}:9400", f"{node.host}-new:9400"
    if counter_step is not None:
        if not node.replaced:
            return ((old, f"0+{counter_step:g}x{TOTAL_STEPS}"),)
        return (
            (old, f"0+{counter_step:g}x{ROLLOUT - 1} stale"),
            (
                new,
                f"_x{ROLLOUT} {ROLLOUT * counter_step:g}+{counter_step:g}x{TOTAL_STEPS - ROLLOUT - 1}",
            ),
        )
    if not node.replaced:
        return ((old, f"{value}x{TOTAL_STEPS}"),)
    return ((old, f"{value}x{ROLLOUT - 1} stale"), (new, f"_x{ROLLOUT} {value}x{TOTAL_STEPS - ROLLOUT - 1}"))


def fleet_series(nodes: tuple[Node, ...]) -> list[Series]:
    out: list[Series] = []
    for node in nodes:
        for gpu in node.gpus:
            for unit in gpu.units:
                mig = (unit.profile, unit.gi) if unit.profile is not None and unit.gi is not None else None
                per_unit = {
                    "DCGM_FI_DEV_GPU_TEMP": ("40", None),
                    "DCGM_FI_DEV_POWER_USAGE": (f"{gpu.watts:g}", None),  # device-level: repeated per instance
                    "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION": ("", gpu.watts * 15 * 1000),  # mJ per 15 s
                    "DCGM_FI_PROF_SM_ACTIVE": (f"{unit.activity:g}", None),
                    "DCGM_FI_DEV_FB_USED": (str(unit.used_mib), None),
                    "DCGM_FI_DEV_FB_FREE": (str(unit.free_mib), None),
                }
                for name, (value, counter) in per_unit.items():
                    for instance, values in _values(node, value, counter):
                        out.append(Series(name, gpu_labels(gpu.index, node.host, instance=instance, mig=mig), values))
                for ns, team, pod in unit.holders:
                    for instance, values in _values(node, "1"):
                        labels = {**self_labels(gpu.index, node.host), "instance": instance}
                        if unit.gi is not None:
                            labels["GPU_I_ID"] = str(unit.gi)
                        labels.update(namespace=ns, pod=pod, container="main", team=team)
                        out.append(Series("gpuscope_gpu_workload_info", labels, values))
    return out


# --- the truth ------------------------------------------------------------------------------------------------


def _labels(**labels: str) -> str:
    return "{" + ",".join(f'{k}="{v}"' for k, v in sorted(labels.items())) + "}"


def truth(nodes: tuple[Node, ...]) -> dict[str, dict[str, float]]:
    """record -> {label set: value}, from the fleet."""
    out: dict[str, dict[str, float]] = defaultdict(dict)
    all_units = [(node, gpu, u) for node in nodes for gpu in node.gpus for u in gpu.units]
    for node in nodes:
        mine = [u for gpu in node.gpus for u in gpu.units]
        host = _labels(Hostname=node.host)
        out["node:gpu_power_watts:sum5m"][host] = sum(g.watts for g in node.gpus)
        out["node:gpus_reporting:count"][host] = len(node.gpus)
        out["node:gpu_activity:avg5m"][host] = sum(u.activity * u.share for u in mine) / sum(u.share for u in mine)
    shares = sum(u.share for _, _, u in all_units)
    out["cluster:gpu_power_watts:sum5m"]["{}"] = sum(g.watts for n in nodes for g in n.gpus)
    out["cluster:gpus_reporting:count"]["{}"] = sum(len(n.gpus) for n in nodes)
    out["cluster:gpu_activity:avg5m"]["{}"] = sum(u.activity * u.share for _, _, u in all_units) / shares
    out["cluster:gpu_sm_active:avg5m"]["{}"] = out["cluster:gpu_activity:avg5m"]["{}"]
    out["cluster:gpu_activity_units:count"]["{}"] = shares
    used = sum(u.used_mib for _, _, u in all_units)
    out["cluster:gpu_fb_used:ratio_avg5m"]["{}"] = used / (used + sum(u.free_mib for _, _, u in all_units))
    held_units = [u for _, _, u in all_units if u.holders]
    if held_units:
        allocated = sum(u.share for u in held_units)
        active = sum(u.share for u in held_units if u.activity >= IDLE)
        out["cluster:gpus_allocated:count"]["{}"] = allocated
        out["cluster:gpus_allocated_active:count"]["{}"] = active
        out["cluster:gpu_allocation_efficiency:ratio"]["{}"] = active / allocated
    groups: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    namespaces: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for _, gpu, u in all_units:
        for ns, team, _pod in u.holders:
            held = u.share / len(u.holders)
            row = groups[_labels(modelName=H100, namespace=ns, team=team)]
            row[0] += held
            row[1] += held * u.activity
            row[2] += held * gpu.watts
            namespaces[_labels(namespace=ns)][0] += held
            namespaces[_labels(namespace=ns)][1] += held * u.activity
    for key, (held, active, watts) in groups.items():
        out[HELD_5M][key], out[ACTIVE_5M][key], out[POWER_5M][key] = held, active, watts
    for key, (held, active) in namespaces.items():
        out["namespace:gpu_activity:avg5m"][key] = active / held
    out[GPUS_5M][_labels(modelName=H100)] = out["cluster:gpus_reporting:count"]["{}"]
    return out


def checks(expected: dict[str, dict[str, float]]) -> list[dict[str, Any]]:
    """For each record: exactly the expected series (a count), each within 1e-6 of its truth (1 if so, 0 if
    not, nothing if the series is missing), and the invariants that hold on any fleet. Energy across a rollout
    is exact too: the new pod reads the GPU's own counter, and each pod's rate covers its part of the window."""
    tests: list[dict[str, Any]] = []

    def expect(expr: str, samples: list[tuple[str, float]]) -> None:
        tests.append(
            {"expr": expr, "eval_time": EVAL, "exp_samples": [{"labels": lb, "value": v} for lb, v in samples]}
        )

    for record, series in sorted(expected.items()):
        expect(f"count({record})", [("{}", len(series))])
        for labels, value in sorted(series.items()):
            expect(f"abs({record}{labels} - {value!r}) < bool 1e-6", [(labels, 1)])
    # Held never exceeds capacity, for the cluster and for any grouping of the chargeback rollups.
    expect("cluster:gpus_allocated:count > cluster:gpus_reporting:count + 1e-9", [])
    expect(f"sum({HELD_5M}) > sum({GPUS_5M}) + 1e-9", [])
    expect(f"{ACTIVE_5M} > {HELD_5M} + 1e-9", [])
    return tests


@settings(
    max_examples=6,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.lists(fleets(), min_size=3, max_size=3))
def test_random_fleets_conserve_every_number(tmp_path: Path, fleets: list[tuple[Node, ...]]) -> None:
    tests = [
        {
            "name": f"fleet {i}: {fleet}",
            "interval": "15s",
            "input_series": [s.promtool() for s in fleet_series(fleet)],
            "promql_expr_test": checks(truth(fleet)),
        }
        for i, fleet in enumerate(fleets)
    ]
    result = run_suite(tmp_path, tests, CONFIG, interval="15s")
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]

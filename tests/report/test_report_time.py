"""The report bills the time actually seen, whatever ``--step``: one fleet of the cases that Prometheus' 5 m lookback
and whole steps got wrong, backfilled once into a real Prometheus, against truth counted from the samples.

The time model: each sample stands for one scrape interval (15 s here), at the scrape-interval sub-step it falls in
(sub-steps at multiples of 15 s since the epoch); a GPU, a holder, a watt reading exists at a sub-step when a sample
of it does. A sub-step's held share is the unit split evenly among the holders seen then, energy is the GPU's power
(energy counter, else the power gauge) times 15 s. The truth below counts exactly that from the sample schedule, in
plain Python: the report must equal it (relative 1e-6: float rounding) at ``--step`` 15, 60 and 300, on a real
Prometheus 2.x (backfilled blocks) and on a real VictoriaMetrics (the local stack's global store; MetricsQL's
windows leave the start out and its ``irate`` may reach back before the window, and the bill is the same).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from gpuscope.cli import main
from tests.report.store import check, report, rows, stored
from tests.support.prom import Prometheus
from tests.support.victoria import victoria_metrics

pytestmark = pytest.mark.e2e

MODEL = "NVIDIA H100 80GB HBM3"
START = 1_795_305_600  # hour- and day-aligned: every --step divides the range
END = START + 3600
SCRAPE = 15
LEAD = 600  # series start 10 minutes before the range and end 10 minutes after it
HOLE = (START + 2400, START + 3000)  # the store has no sample at all in these 10 minutes


@dataclass(frozen=True)
class Target:
    """One exporter pod scraping one GPU: its instance, its scrape offset and when it ran."""

    instance: str
    offset: int
    since: int
    until: int
    missed: tuple[int, ...] = ()  # scrapes that failed

    def times(self) -> list[int]:
        first = self.since - self.since % SCRAPE + self.offset
        return [
            t
            for t in range(first, self.until, SCRAPE)
            if self.since <= t and not HOLE[0] <= t < HOLE[1] and t not in self.missed
        ]


@dataclass(frozen=True)
class Hold:
    gpu: int
    namespace: str
    pod: str
    since: int
    until: int


@dataclass(frozen=True)
class Gpu:
    index: int
    watts: float
    activity: float
    energy_counter: bool = True
    targets: tuple[Target, ...] = (Target("node-0:9400", 7, START - LEAD, END + LEAD),)

    @property
    def uuid(self) -> str:
        return f"GPU-node-0-{self.index:04d}"


ROLLOUT = START + 960  # the new exporter pod starts; the old one stops a minute later
GPUS = (
    Gpu(0, 300.0, 0.5),  # a 2-minute CI pod
    Gpu(1, 200.0, 0.2),  # a pod that moves from GPU 1 to GPU 2
    Gpu(2, 400.0, 0.9),
    Gpu(3, 350.0, 0.6),  # handed from one pod to another mid-step
    Gpu(4, 250.0, 0.4, energy_counter=False),  # an exporter without the energy counter
    Gpu(
        5,
        500.0,
        0.7,
        targets=(  # an exporter rollout: two pods (instances) scrape the GPU for a minute
            Target("10.0.0.1:9400", 7, START - LEAD, ROLLOUT + 60),
            Target("10.0.0.2:9400", 3, ROLLOUT, END + LEAD),
        ),
    ),
    Gpu(6, 100.0, 0.1),  # nobody holds it: capacity only
    # nobody holds it either, and its last scrape in the range failed: still a GPU of the fleet
    Gpu(7, 100.0, 0.1, targets=(Target("node-0:9400", 7, START - LEAD, END + LEAD, missed=(END - 8,)),)),
)
HANDOVER = START + 1530  # not on a 60 s or 300 s step: the step is shared by both pods
HOLDS = (
    Hold(0, "ci", "ci-0", START + 1200, START + 1320),
    Hold(1, "ml", "mover", START - LEAD, START + 1800),
    Hold(2, "ml", "mover", START + 1800, END + LEAD),
    Hold(3, "a", "x", START - LEAD, HANDOVER),
    Hold(3, "b", "y", HANDOVER, END + LEAD),
    Hold(4, "c", "z", START - LEAD, END + LEAD),
    Hold(5, "d", "w", START - LEAD, END + LEAD),
)


def substep(t: int, interval: int) -> int:
    """The sub-step a sample at ``t`` is seen at: the first multiple of the interval at or after it."""
    return math.ceil(t / interval) * interval


def truth(interval: int = SCRAPE) -> tuple[dict[str, tuple[float, float, float]], float]:
    """namespace -> (GPU-hours held, active GPU-hours, kWh) over ``(START, END]``, and the GPU-hours seen, each
    sample standing for ``interval`` seconds."""
    seen: dict[int, set[int]] = defaultdict(set)  # GPU -> sub-steps with a sample
    holders: dict[tuple[int, int], list[str]] = defaultdict(list)  # (GPU, sub-step) -> namespaces holding it
    for gpu in GPUS:
        for target in gpu.targets:
            for t in target.times():
                seen[gpu.index].add(substep(t, interval))
                for hold in HOLDS:
                    if hold.gpu == gpu.index and hold.since <= t < hold.until:
                        step = substep(t, interval)
                        if hold.namespace not in holders[(gpu.index, step)]:
                            holders[(gpu.index, step)].append(hold.namespace)
    out: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for (index, step), namespaces in holders.items():
        if not START < step <= END:
            continue
        gpu = GPUS[index]
        for ns in namespaces:
            share = 1 / len(namespaces)
            out[ns][0] += share * interval / 3600
            out[ns][1] += share * gpu.activity * interval / 3600
            out[ns][2] += share * gpu.watts * interval / 3.6e6
    capacity = sum(1 for steps in seen.values() for s in steps if START < s <= END) * interval / 3600
    return {k: (v[0], v[1], v[2]) for k, v in out.items()}, capacity


def test_the_truth_is_what_the_cases_say() -> None:
    """The schedule means what the cases are named for (hand-counted): the CI pod is 8 scrapes, 2 minutes; the hole
    takes 40 of every GPU's 240 sub-steps; the pod that moves holds one GPU at a time for the hour seen."""
    held, capacity = truth()
    assert held["ci"][0] * 3600 == pytest.approx(8 * SCRAPE)
    assert held["ml"][0] * 3600 == pytest.approx((240 - 40) * SCRAPE)
    assert held["a"][0] * 3600 + held["b"][0] * 3600 == pytest.approx((240 - 40) * SCRAPE)
    assert held["a"][0] * 3600 == pytest.approx(102 * SCRAPE)  # samples at START+7 ... START+1522
    assert capacity * 3600 == pytest.approx((len(GPUS) * (240 - 40) - 1) * SCRAPE)


def _labels(gpu: Gpu, target: Target) -> str:
    labels = {
        "cluster": "c1",
        "job": "dcgm-exporter",
        "instance": target.instance,
        "gpu": str(gpu.index),
        "UUID": gpu.uuid,
        "modelName": MODEL,
        "Hostname": "node-0",
    }
    return ",".join(f'{k}="{v}"' for k, v in labels.items())


def openmetrics() -> list[str]:
    families: dict[str, list[str]] = defaultdict(list)
    for gpu in GPUS:
        for target in gpu.targets:
            base, times = _labels(gpu, target), target.times()
            families["DCGM_FI_DEV_GPU_TEMP"] += [f"{{{base}}} 40 {t}" for t in times]
            families["DCGM_FI_PROF_SM_ACTIVE"] += [f"{{{base}}} {gpu.activity} {t}" for t in times]
            families["DCGM_FI_DEV_POWER_USAGE"] += [f"{{{base}}} {gpu.watts} {t}" for t in times]
            if gpu.energy_counter:  # the device's counter (mJ): every exporter pod reads the same value
                families["DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION"] += [
                    f"{{{base}}} {1e9 + gpu.watts * 1000 * (t - START):.0f} {t}" for t in times
                ]
            for hold in HOLDS:
                if hold.gpu == gpu.index:
                    info = f'{base},namespace="{hold.namespace}",pod="{hold.pod}",container="main"'
                    families["gpuscope_gpu_workload_info"] += [
                        f"{{{info}}} 1 {t}" for t in times if hold.since <= t < hold.until
                    ]
    lines: list[str] = []
    for name, samples in families.items():
        lines.append(f"# TYPE {name} gauge")
        lines += [name + s for s in sorted(samples, key=lambda s: (s.rsplit(" ", 2)[0], int(s.rsplit(" ", 1)[1])))]
    return lines


def searchable(lines: list[str]) -> Callable[[Prometheus], bool]:
    count = f"count_over_time(DCGM_FI_DEV_GPU_TEMP[{2 * LEAD + 3600}s])"
    want = lines_of(lines, "_TEMP{")
    return lambda prom: sum(float(r["value"][1]) for r in prom.query(count, END + LEAD)) == want


def lines_of(lines: list[str], marker: str) -> int:
    return sum(1 for line in lines if marker in line and not line.startswith("#"))


@pytest.fixture(scope="module", params=["prometheus", "victoriametrics"])
def store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Prometheus]:
    lines = openmetrics()
    if request.param == "victoriametrics":
        with victoria_metrics(tmp_path_factory.mktemp("time-vm"), lines, searchable(lines)) as vm:
            yield vm
        return
    with stored(tmp_path_factory.mktemp("time"), lines) as prom:
        yield prom


def bill(store: Prometheus, tmp_path: Path, *args: str) -> dict[str, Any]:
    return report(store, tmp_path, "--from", str(START), "--to", str(END), "--tier", "raw", *args)


@pytest.mark.parametrize("step", [15, 60, 300])
def test_the_bill_is_the_time_seen_at_every_step(store: Prometheus, tmp_path: Path, step: int) -> None:
    """A 2-minute CI pod, a 10-minute hole in the store, a pod that moves GPUs, a hand-over mid-step, a GPU without
    an energy counter and an exporter rollout overlap: at --step 15, 60 and 300 the bill is the truth."""
    body = bill(store, tmp_path, "--step", str(step))
    held, capacity = truth()
    check(rows(body), held)
    assert body["range"]["scrape_interval_seconds"] == SCRAPE
    assert body["range"]["scrape_interval_source"] == "detected"
    assert math.isclose(body["gpu_hours_seen"], capacity, rel_tol=1e-9)
    assert body["capacity_by_model"] == {MODEL: len(GPUS)}  # a scrape missed in the last step is no GPU gone
    pods = {hold.namespace: hold.pod for hold in HOLDS}  # one pod per namespace: its top job is all of it
    assert {r["group"]: [[pods[r["group"]], r["gpu_hours_held"]]] for r in body["groups"]} == {
        r["group"]: [[name, pytest.approx(hours)] for name, hours in r["top_jobs"]] for r in body["groups"]
    }


def test_the_fleet_at_the_end_is_what_reported_in_the_5_minutes_before_it(store: Prometheus, tmp_path: Path) -> None:
    """A range ending 2 minutes after the last scrape (the store lagging, remote write late) still finds the fleet
    at its end, on both stores (``test_report_stale_end`` has the failed last scrape)."""
    last = END + LEAD
    body = report(store, tmp_path, "--from", str(last - 600), "--to", str(last + 120), "--tier", "raw")
    assert body["capacity_by_model"] == {MODEL: len(GPUS)}
    assert body["activity_source"]["profiling"] == len(GPUS)


def test_the_scrape_interval_flag_overrides_detection(store: Prometheus, tmp_path: Path) -> None:
    body = bill(store, tmp_path, "--step", "60", "--scrape-interval", "15s")
    assert body["range"]["scrape_interval_source"] == "given"
    check(rows(body), truth()[0])


@pytest.mark.parametrize(
    ("value", "message"),
    [("fast", "--scrape-interval 'fast'"), ("0", "--scrape-interval 0"), ("15h", "--scrape-interval '15h'")],
)
def test_a_bad_scrape_interval_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str, message: str
) -> None:
    code = main(["report", "--prometheus", "http://127.0.0.1:9", "--from", "now-1h", "--scrape-interval", value])
    err = capsys.readouterr().err.strip()
    assert code == 2 and message in err and len(err.splitlines()) == 1, err


def test_a_long_range_is_asked_in_pieces_that_add_up(store: Prometheus, tmp_path: Path) -> None:
    """Told the samples stand for 1 s, the hour is 3,600 sub-steps, more than one query evaluates (2,880): it is
    asked in two pieces, and they add up to the bill of 1 s samples (each GPU's power then from its gauge: no two
    samples of a counter are a second apart; the rollout's two exporter pods, 4 s apart, are two samples)."""
    body = bill(store, tmp_path, "--step", "300", "--scrape-interval", "1")
    assert {q["kind"] for q in body["queries"] if q["name"].startswith("GPU-hours held")} == {
        "range, step 300s, in 2 pieces"
    }
    held, capacity = truth(interval=1)
    check(rows(body), held)
    assert math.isclose(body["gpu_hours_seen"], capacity, rel_tol=1e-9)

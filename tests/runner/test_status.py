"""The live view's status: its floor queries asked as one (against a real Prometheus), the floor judged from the
doctor's checks, and the ``gpuscope status --json`` record as docs/local-stack.md documents it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from gpuscope.errors import QueryFailed
from gpuscope.prom import Client, Endpoint
from gpuscope.runner.status import (
    ClusterStatus,
    FloorCheck,
    ReplicaStatus,
    StackStatus,
    combined,
    floor_checks,
    split,
)
from tests.support.prom import Prometheus, run_prometheus

DOC = Path(__file__).resolve().parents[2] / "docs" / "local-stack.md"


@pytest.fixture(scope="module")
def prom(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Prometheus]:
    with run_prometheus({"global": {"scrape_interval": "15s"}}, tmp_path_factory.mktemp("status")) as p:
        yield p


@pytest.mark.e2e
def test_the_floor_queries_asked_as_one_answer_as_each_alone(prom: Prometheus) -> None:
    queries = {
        "scalar": "count(vector(1)) or vector(0)",
        "labelled": 'label_replace(vector(2), "x", "y", "", "") or label_replace(vector(3), "x", "z", "", "")',
        "empty": "vector(1) > 5",
        "named": 'label_replace(vector(4), "__name__", "m", "", "")',
    }
    with Client(Endpoint(prom.url)) as c:
        alone = {name: c.query(expr, at=1000) for name, expr in queries.items()}
        assert split(c.query(combined(queries), at=1000), queries) == alone
        assert alone["empty"] == () and len(alone["labelled"]) == 2
        with pytest.raises(QueryFailed) as caught:
            c.query(combined({**queries, "bad": "sum(up"}), at=1000)
    failed = split(caught.value, [*queries, "bad"])
    assert set(failed) == {*queries, "bad"} and all(v is caught.value for v in failed.values())


def _replica(ok: bool, reachable: bool = True) -> ReplicaStatus:
    check = FloorCheck(name="Exporter targets up", ok=ok, detail="4/4 exporter targets up" if ok else "1 of 4 down")
    return ReplicaStatus(reachable=reachable, targets_up=4, gpus_reporting=32, floor=(check,) if reachable else ())


def _status(a: ReplicaStatus, b: ReplicaStatus, in_global: int = 32) -> StackStatus:
    cluster = ClusterStatus(name="gpu-a", targets_total=4, gpus_expected=32, replicas={"a": a, "b": b})
    return StackStatus(
        clusters=(cluster,),
        firing=(),
        alertmanager_reachable=True,
        notifications=0,
        remediation=(),
        global_gpus_by_cluster={"gpu-a": in_global},
        global_exporter_targets_by_cluster={"gpu-a": 4},
    )


def test_the_floor_is_the_replicas_checks_and_the_global_store() -> None:
    green = _status(_replica(True), _replica(True))
    checks = floor_checks(green)
    assert [c.name for c in checks] == [
        "gpu-a: Exporter targets up in replica a",
        "gpu-a: Exporter targets up in replica b",
        "gpu-a: GPUs in the global store",
    ]
    assert all(c.ok for c in checks)
    b_down = floor_checks(_status(_replica(True), _replica(True, reachable=False)))
    assert [(c.name, c.ok) for c in b_down if not c.ok] == [("gpu-a: Prometheus replica b answers", False)]
    failing = floor_checks(_status(_replica(False), _replica(True), in_global=30))
    assert [c.detail for c in failing if not c.ok] == ["1 of 4 down", "30/32 GPUs"]


def test_status_json_has_exactly_the_documented_keys() -> None:
    doc = DOC.read_text()
    first_cells = [line.split("|")[1] for line in doc.splitlines() if line.startswith("| `")]
    documented = {key for cell in first_cells for key in re.findall(r"`([a-z_.]+)`", cell)}
    body = _status(_replica(True), _replica(False)).to_json()
    top = {k for k in body if k not in ("alerts", "global")}
    nested = {f"alerts.{k}" for k in body["alerts"]} | {f"global.{k}" for k in body["global"]}
    cluster = set(body["clusters"][0]) - {"replicas"}
    replicas = {f"replicas.{r}" for r in body["clusters"][0]["replicas"]}
    assert top | nested | cluster | replicas <= documented, (top | nested | cluster | replicas) - documented
    replica_keys = set(body["clusters"][0]["replicas"]["a"])
    row = next(line for line in doc.splitlines() if line.startswith("| `replicas.a`"))
    assert replica_keys == set(re.findall(r"(?:^ |, )`([a-z_]+)`", row.split("|")[2])), replica_keys

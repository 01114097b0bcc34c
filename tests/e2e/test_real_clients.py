"""Real clients' PromQL, copied verbatim from their sources (``fixtures/client_queries.yaml``), replayed against
``gpuscope exporter`` started as the GPU Operator starts dcgm-exporter and scraped by real Prometheus servers
configured as those clients' deployments scrape it. "Drop-in" means these keep working unchanged.

One exporter for the module: the GPU Operator's DaemonSet container (``tests/support/daemonset.py``: its env
through the image's entrypoint, the image's collectors file, no GPU so the simulator) on node gpu-node-7, whose
kubelet (the real PodResources gRPC API) lists a pod holding a whole GPU and two pods sharing another by
time-slicing. Two Prometheus servers scrape it, one per ``scrapes`` entry of the fixture: the target carries the
labels the Prometheus Operator gives a ServiceMonitor's target (namespace, service, pod, container, job, endpoint
of the exporter's own pod), once with honor_labels false (the GPU Operator's ServiceMonitor: a series' own
pod/namespace/container arrive as ``exported_*``) and once with honor_labels true.

What real Prometheus does with an idle GPU under honor_labels true: dcgm-exporter (>= 3.3.5) writes no
pod/namespace/container on a GPU no pod holds, and Prometheus fills a label the series lacks from the target's,
so the idle GPU's series carry the exporter's own pod (pod="nvidia-dcgm-exporter-x7k2p", namespace="gpu-operator",
container="nvidia-dcgm-exporter"). A client reading bare ``pod`` sees the exporter's pod "using" the idle GPUs;
the checks below allow that for idle GPUs only, and fail if a GPU a workload holds is attributed to it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import yaml

from gpuscope.prom import api
from gpuscope.simulator.kubelet import kubelet_server, pod
from tests.support.daemonset import deployments, pod_process
from tests.support.exporter_process import clean_env, exporter_process
from tests.support.net import free_port, wait_for
from tests.support.prom import Prometheus, run_prometheus

pytestmark = pytest.mark.e2e

FIXTURE: dict[str, Any] = yaml.safe_load(
    (Path(__file__).parent / "fixtures" / "client_queries.yaml").read_text(encoding="utf-8")
)
SCRAPES: dict[str, dict[str, Any]] = FIXTURE["scrapes"]
QUERIES: list[dict[str, Any]] = FIXTURE["queries"]
ADAPTER_RULES: list[dict[str, Any]] = FIXTURE["adapter_rules"]

# The labels the Prometheus Operator puts on a ServiceMonitor target (endpoints role) for the GPU Operator's
# Service nvidia-dcgm-exporter (port gpu-metrics, jobLabel app) in namespace gpu-operator: the exporter's own pod.
EXPORTER_POD = "nvidia-dcgm-exporter-x7k2p"
EXPORTER_NAMESPACE = "gpu-operator"
TARGET_LABELS = {
    "namespace": EXPORTER_NAMESPACE,
    "service": "nvidia-dcgm-exporter",
    "pod": EXPORTER_POD,
    "container": "nvidia-dcgm-exporter",
    "job": "nvidia-dcgm-exporter",
    "endpoint": "gpu-metrics",
}


@dataclass(frozen=True)
class Workload:
    namespace: str
    pod: str
    container: str
    gpu: str  # the device name of the GPU the pod holds
    device_id: str  # as the kubelet lists it


# A whole GPU, and a GPU two pods share by time-slicing. The device ids are device names, as GKE's device plugin
# hands them to the kubelet (``nvidia1/vgpu0`` a replica of GPU 1): known before the exporter starts, so its first
# collection already attributes them (a UUID is only known once the exporter has read the GPUs).
WORKLOADS = (
    Workload("ml", "trainer-0", "main", "nvidia0", "nvidia0"),
    Workload("web", "slice-a", "srv", "nvidia1", "nvidia1/vgpu0"),
    Workload("web", "slice-b", "srv", "nvidia1", "nvidia1/vgpu1"),
)
HELD = sorted({w.gpu for w in WORKLOADS})


@dataclass(frozen=True)
class Replay:
    proms: dict[str, Prometheus]  # by scrape name
    uuids: dict[str, str]  # device name -> GPU UUID, as the exporter reports them
    at: float  # one evaluation time for every query, so values can be compared across queries

    def query(self, scrape: str, expr: str) -> list[dict[str, Any]]:
        return self.proms[scrape].query(expr, at=self.at)

    def gpu_value(self, scrape: str, metric: str, gpu: str) -> float:
        (sample,) = self.query(scrape, f'{metric}{{UUID="{self.uuids[gpu]}"}}')
        return float(sample["value"][1])


def scrape_config(port: int, honor_labels: bool) -> dict[str, Any]:
    # A 1 s interval in place of the ServiceMonitor's 15 s: timing only, the labels are what is replayed.
    job = {
        "job_name": "serviceMonitor/gpu-operator/nvidia-dcgm-exporter/0",
        "honor_labels": honor_labels,
        "metrics_path": "/metrics",
        "static_configs": [{"targets": [f"127.0.0.1:{port}"], "labels": TARGET_LABELS}],
    }
    return {"global": {"scrape_interval": "1s", "scrape_timeout": "1s"}, "scrape_configs": [job]}


@pytest.fixture(scope="module")
def replay(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Replay]:
    tmp = tmp_path_factory.mktemp("clients")
    port = free_port()
    container = pod_process("gpu-operator", deployments()["gpu-operator"], tmp / "root", port)
    with ExitStack() as stack:
        kubelet = stack.enter_context(kubelet_server())
        kubelet.set_pods([pod(w.namespace, w.pod, (w.container, "nvidia.com/gpu", [w.device_id])) for w in WORKLOADS])
        # The pod-resources mount is where the exporter's default kubelet socket lives: point that default at it.
        env = clean_env({**container.env, "DCGM_POD_RESOURCES_KUBELET_SOCKET": kubelet.socket_path})
        stack.enter_context(exporter_process(container.command, f"http://127.0.0.1:{port}", tmp, env=env))
        proms = {
            name: stack.enter_context(run_prometheus(scrape_config(port, scrape["honor_labels"]), tmp / name))
            for name, scrape in SCRAPES.items()
        }
        for name, prom in proms.items():
            wait_for(partial(prom.query, "up == 1"), timeout=30, what=f"{name} scraped the exporter")
        first = next(iter(proms.values()))
        uuids = {s["metric"]["device"]: s["metric"]["UUID"] for s in first.query("DCGM_FI_DEV_GPU_UTIL")}
        assert set(HELD) <= set(uuids) and len(uuids) > len(HELD), f"the simulated node's GPUs: {uuids}"
        yield Replay(proms=proms, uuids=uuids, at=time.time())


def check_pods(replay: Replay, entry: dict[str, Any], result: list[dict[str, Any]]) -> None:
    """Each series names a workload on the GPU it holds (or, under honor_labels true, the exporter's own pod on an
    idle GPU), and every held GPU reaches the client under one of its pods."""
    labels: dict[str, str] = entry["labels"]
    honor = SCRAPES[entry["scrape"]]["honor_labels"]
    held_uuids = {replay.uuids[gpu] for gpu in HELD}
    assert result, f"{entry['name']}: no series, so the client sees no workload on any GPU"
    seen: set[str] = set()
    for series in result:
        metric = series["metric"]
        name = metric.get(labels["pod"], "")
        namespace = metric.get(labels["namespace"], "") if "namespace" in labels else None
        uuid = metric.get(labels["uuid"], "") if "uuid" in labels else None
        holder = next((w for w in WORKLOADS if w.pod == name and namespace in (None, w.namespace)), None)
        if holder is None:
            # Not a workload: only the exporter's own pod, filled in by honor_labels on an idle GPU's series.
            assert honor and name == EXPORTER_POD and namespace in (None, EXPORTER_NAMESPACE), (
                f"{entry['name']}: a series of no workload pod: {metric}"
            )
            assert uuid not in held_uuids, f"{entry['name']}: a GPU a workload holds is given to the exporter: {metric}"
            continue
        if "container" in labels:
            assert metric.get(labels["container"]) == holder.container, f"{entry['name']}: container of {metric}"
        if uuid is not None:
            assert uuid == replay.uuids[holder.gpu], f"{entry['name']}: {holder.pod} on the wrong GPU: {metric}"
        seen.add(holder.pod)
    for gpu in HELD:
        # One pod per shared GPU is enough: dcgm-exporter itself labels a shared GPU with one of its pods.
        assert seen & {w.pod for w in WORKLOADS if w.gpu == gpu}, f"{entry['name']}: no pod of {gpu} in {result}"


@pytest.mark.parametrize("entry", QUERIES, ids=[q["name"] for q in QUERIES])
def test_client_query_sees_the_workloads(replay: Replay, entry: dict[str, Any]) -> None:
    result = replay.query(entry["scrape"], entry["expr"])
    counts = {"gpus_in_use": len(HELD), "gpus": len(replay.uuids)}
    if entry["expect"] in counts:
        assert [float(s["value"][1]) for s in result] == [counts[entry["expect"]]], f"{entry['name']}: {result}"
    elif entry["expect"] == "per_gpu":
        assert sorted(s["metric"]["UUID"] for s in result) == sorted(replay.uuids.values()), entry["name"]
    else:
        check_pods(replay, entry, result)


def resource_label(rule: dict[str, Any], resource: str) -> str:
    """The label a rule maps to ``resource``: an override naming it, else the template filled in."""
    resources = rule["resources"]
    for label, target in resources.get("overrides", {}).items():
        if target["resource"] == resource:
            return str(label)
    assert "template" in resources, f"the rule maps no label to {resource}"
    return str(resources["template"]).replace("<<.Resource>>", resource).replace("<<.Group>>", "")


def discovered(replay: Replay, spec: dict[str, Any]) -> list[dict[str, str]]:
    """The series the adapter's discovery keeps for ``spec['series']``: seriesQuery through /api/v1/series, then
    seriesFilters and name.matches (Go regexps, unanchored: ``re.search``)."""
    rule = spec["rule"]
    with replay.proms[spec["scrape"]].client() as client:
        found = client.run(api.series([rule["seriesQuery"]], replay.at - 300, replay.at))

    def kept(name: str) -> bool:
        filters = rule.get("seriesFilters") or []
        return all(
            bool(re.search(f["is"], name)) if "is" in f else not re.search(f["isNot"], name) for f in filters
        ) and bool(re.search(rule["name"]["matches"], name))

    return [s for s in found if s["__name__"] == spec["series"] and kept(s["__name__"])]


def adapter_query(spec: dict[str, Any], name: str, namespace: str) -> str:
    """metricsQuery as the adapter fills it for one object (pkg/naming/metrics_query.go Build): the namespace
    matcher first (namespaced resources), then ``<resource label>="<name>"``; GroupBy is the resource label."""
    rule, resource = spec["rule"], spec["resource"]
    label = resource_label(rule, resource)
    matchers = [f'{resource_label(rule, "namespace")}="{namespace}"'] if resource != "namespace" else []
    matchers.append(f'{label}="{name}"')
    query = rule["metricsQuery"].replace("<<.Series>>", spec["series"]).replace("<<.GroupBy>>", label)
    return str(query.replace("<<.LabelMatchers>>", ",".join(matchers)))


@pytest.mark.parametrize("spec", ADAPTER_RULES, ids=[r["name"] for r in ADAPTER_RULES])
def test_adapter_rule_serves_each_workload(replay: Replay, spec: dict[str, Any]) -> None:
    rule, resource = spec["rule"], spec["resource"]
    label = resource_label(rule, resource)
    found = discovered(replay, spec)
    # Discovery: the series name is served for the workloads' objects (the label holds their names).
    objects = {s.get(label) for s in found}
    for gpu in HELD:
        holders = [w for w in WORKLOADS if w.gpu == gpu]
        names = {getattr(w, resource) for w in holders} & objects
        assert names, f"{spec['name']}: no {resource} of {gpu} discovered in {sorted(map(str, objects))}"
        # The query for one object answers for that object, with the value of the GPU its pod holds.
        for name in names:
            namespace = next(w.namespace for w in holders if getattr(w, resource) == name)
            result = replay.query(spec["scrape"], adapter_query(spec, name, namespace))
            assert [s["metric"].get(label) for s in result] == [name], f"{spec['name']}: {name}: {result}"
            assert float(result[0]["value"][1]) == replay.gpu_value(spec["scrape"], spec["series"], gpu)

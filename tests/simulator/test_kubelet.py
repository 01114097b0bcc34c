"""The simulated kubelet: the pods of a simulated node over the real PodResources gRPC API, read by the exporter's
own kubelet client and resolved by its attribution, consistent with the node's process metrics and its
kube-state-metrics, through churn and the teams mix's growing team."""

from __future__ import annotations

import re

from gpuscope.backends.sim.activity import WorkloadKind
from gpuscope.backends.sim.faults import FaultKind, FaultRequest
from gpuscope.backends.sim.node import SimNode, SimNodeConfig
from gpuscope.backends.sim.processes import CHURN_S
from gpuscope.backends.sim.teams import TEAMS_MIX, growth_delay
from gpuscope.exporter.attribution.kubelet import KubeletClient
from gpuscope.exporter.attribution.resolve import PodDevice, resolve
from gpuscope.exporter.settings import ExporterSettings, make_runtime
from gpuscope.fields.collectors import load_collectors
from gpuscope.hardware.models import MODELS, parse_mig_layout
from gpuscope.simulator.kube import KubeSim, SimKubeNode
from gpuscope.simulator.kubelet import kubelet_server, node_pods
from tests.support.clock import FakeClock

HOST = "gpu-a-h100-00"
T0 = 1_800_000_000.0  # a churn boundary: pods of one generation throughout [T0, T0 + CHURN_S)


def _sim(clock: FakeClock, mig: str = "") -> SimNode:
    model = MODELS["h100"]
    layout = parse_mig_layout(model, mig) if mig else ()
    return SimNode(SimNodeConfig(hostname=HOST, model=model, gpus=8, mig_layout=layout, workload=TEAMS_MIX), clock)


def _listed(sim: SimNode) -> list[tuple[str, str, str, str]]:
    """(namespace, pod, resource, device id) as the exporter's kubelet client reads them over gRPC."""
    with kubelet_server(lambda: node_pods(sim)) as kubelet:
        client = KubeletClient(kubelet.socket_path, timeout_s=5.0)
        try:
            return [(d.namespace, d.pod, d.resource, d.device_id) for d in client.list_devices()]
        finally:
            client.close()


def test_the_teams_node_lists_whole_shared_and_held_gpus_as_the_device_plugin_names_them() -> None:
    clock = FakeClock(T0)
    sim = _sim(clock)
    listed = _listed(sim)
    uuids = [g.uuid for g in sim.gpus]
    by_gpu: dict[str, list[tuple[str, str]]] = {}
    for namespace, _pod, resource, device in listed:
        assert resource == "nvidia.com/gpu"
        by_gpu.setdefault(device.split("::")[0], []).append((namespace, device))
    # time-sliced by three serving pods, MPS by two research clients: replicas ::0, ::1, ...
    assert by_gpu[uuids[0]] == [("serving", f"{uuids[0]}::{n}") for n in range(3)]
    assert by_gpu[uuids[1]] == [("research", f"{uuids[1]}::{n}") for n in range(2)]
    assert [by_gpu[u] for u in uuids[2:7]] == [[("ml", u)] for u in uuids[2:5]] + [
        [("vision", uuids[5])],
        [("notebooks", uuids[6])],
    ]
    assert uuids[7] not in by_gpu  # the growing team has not arrived yet
    # the same pods as the process metrics name (the MPS server is a host process, no pod)
    procs = {(p.pod.namespace, p.pod.name) for p in sim.population() if p.pod is not None}
    assert {(ns, pod) for ns, pod, _, _ in listed} == procs
    # and the exporter's attribution places every one of them on a GPU of the node
    reading = make_runtime(sim, ExporterSettings(collectors=load_collectors(None)), HOST).collector.collect()
    assert reading.reading is not None
    devices = [PodDevice(ns, pod, "c", res, dev) for ns, pod, res, dev in listed]
    attribution = resolve(reading.reading.gpus, devices)
    assert not attribution.unmatched
    assert sum(len(a.pods) for a in attribution.targets.values()) == len(listed)


def test_pods_churn_and_the_growing_team_arrives_with_time() -> None:
    clock = FakeClock(T0)
    sim = _sim(clock)
    first = {pod for _, pod, _, _ in _listed(sim)}
    clock.t = T0 + growth_delay(HOST)
    grown = _listed(sim)
    assert [(ns, dev) for ns, _, _, dev in grown if ns == "llm"] == [("llm", sim.gpus[7].uuid)]
    assert sim.gpus[7].workload is WorkloadKind.TRAINING  # it trains once it holds the GPU
    clock.t = T0 + CHURN_S
    churned = {pod for _, pod, _, _ in _listed(sim)}
    # serving and research pods are replaced; training, evaluation and notebook pods stay
    assert {p for p in first - churned if not re.match(r"(infer|mps-client)-", p)} == set()
    assert {p for p in first & churned if re.match(r"(infer|mps-client)-", p)} == set()


def test_a_zombie_is_not_listed_and_mig_instances_are_mig_resources() -> None:
    clock = FakeClock(T0)
    sim = _sim(clock, "1g.10gb:7")
    sim.apply(FaultRequest(FaultKind.ZOMBIE, gpu=3))
    listed = _listed(sim)
    assert all(pod != "leaked-trainer" for _, pod, _, _ in listed)
    instances = {i.identity.uuid for g in sim.gpus for i in g.instances}
    assert {res for _, _, res, _ in listed} == {"nvidia.com/mig-1g.10gb"}
    assert {dev for _, _, _, dev in listed} < instances
    assert len(listed) == 8 * 6  # every instance but each GPU's last: headroom


def test_kube_state_metrics_requests_are_the_devices_the_kubelet_lists() -> None:
    clock = FakeClock(T0)
    sim = _sim(clock)
    runtime = make_runtime(sim, ExporterSettings(collectors=load_collectors(None), interval_s=1.0), HOST)
    node = SimKubeNode(config=sim.config, cluster="c", runtime=runtime, namespace="gpu-monitoring", address="127.0.0.9")
    text = KubeSim(nodes=[node]).kube_state_metrics("c", now=T0)
    requested = set(re.findall(r'kube_pod_container_resource_requests\{namespace="([^"]+)",pod="([^"]+)"', text))
    assert requested == {(ns, pod) for ns, pod, _, _ in _listed(sim)}
    # 6 whole GPUs and 2 shared ones advertised as 4 replicas each
    assert 'kube_node_status_allocatable{node="gpu-a-h100-00",resource="nvidia_com_gpu",unit="integer"} 14' in text

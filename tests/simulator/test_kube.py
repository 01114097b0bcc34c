"""The simulated kube-state-metrics and cAdvisor: upstream names and label sets, valid exposition (promtool), the
exporter's restarts counted from its runtime, MIG resources as the device plugin names them."""

from __future__ import annotations

import re
import subprocess

from gpuscope.backends.sim.node import SimNode, SimNodeConfig
from gpuscope.exporter.settings import ExporterSettings, make_runtime
from gpuscope.fields.collectors import load_collectors
from gpuscope.fields.companion import BY_NAME
from gpuscope.hardware.models import MODELS, parse_mig_layout
from gpuscope.simulator.kube import KubeSim, SimKubeNode
from tests.support.prom import binary

_LINE = re.compile(r"^([a-z_]+)\{(.*)\} (\S+)$")


def _node(hostname: str, mig: str = "") -> SimKubeNode:
    model = MODELS["h100"]
    config = SimNodeConfig(
        hostname=hostname, model=model, gpus=2, mig_layout=parse_mig_layout(model, mig) if mig else ()
    )
    settings = ExporterSettings(collectors=load_collectors(None), interval_s=1.0)
    runtime = make_runtime(SimNode(config), settings, hostname, own_process_metrics=False)
    return SimKubeNode(config=config, cluster="c", runtime=runtime, namespace="gpu-monitoring", address="127.0.0.9")


def _series(text: str) -> list[tuple[str, dict[str, str], float]]:
    out = []
    for line in text.splitlines():
        m = _LINE.match(line)
        if m:
            labels = dict(re.findall(r'(\w+)="([^"]*)"', m.group(2)))
            out.append((m.group(1), labels, float(m.group(3))))
    return out


def _promtool_ok(text: str) -> None:
    done = subprocess.run([binary("promtool"), "check", "metrics"], input=text, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_kube_state_metrics_series_have_upstream_names_and_label_sets() -> None:
    plain, mig = _node("n-0"), _node("n-1", "1g.10gb:7")
    sim = KubeSim(nodes=[plain, mig])
    text = sim.kube_state_metrics("c")
    _promtool_ok(text)
    series = _series(text)
    for name, labels, _ in series:
        assert tuple(labels) == BY_NAME[name].labels, name
    gpu = {(s[1]["node"], s[1]["resource"]): s[2] for s in series if s[0] == "kube_node_status_allocatable"}
    # both GPUs of n-0 are shared: the device plugin advertises each as its replicas
    assert gpu[("n-0", "nvidia_com_gpu")] == 8 and gpu[("n-1", "nvidia_com_gpu")] == 0
    assert gpu[("n-1", "nvidia_com_mig_1g_10gb")] == 14  # 7 instances on each of 2 GPUs
    requests: dict[str, float] = {}
    for name, labels, value in series:
        if name == "kube_pod_container_resource_requests":
            requests[labels["resource"]] = requests.get(labels["resource"], 0) + value
    # the mixed population: GPU 0 time-sliced by three pods, GPU 1 two MPS clients; a pod per MIG instance
    assert requests == {"nvidia_com_gpu": 5, "nvidia_com_mig_1g_10gb": 14}


def test_an_exporter_restart_is_counted_on_its_container_only() -> None:
    node = _node("n-0")
    sim = KubeSim(nodes=[node])

    def restarts() -> dict[str, float]:
        series = _series(sim.kube_state_metrics("c", now=1000.0))
        return {s[1]["container"]: s[2] for s in series if s[0] == "kube_pod_container_status_restarts_total"}

    workers = {"server": 0, "client": 0}  # the node's serving and MPS client pods (one container name each)
    assert restarts() == {"exporter": 0, **workers}
    assert restarts() == {"exporter": 0, **workers}  # asked again, nothing restarted: nothing counted
    node.runtime.restart()
    assert restarts() == {"exporter": 1, **workers}
    node.runtime.restart()
    assert restarts() == {"exporter": 2, **workers}


def test_cadvisor_series_have_the_kubelet_label_set_and_grow_with_time() -> None:
    node = _node("n-0")
    sim = KubeSim(nodes=[node], started=1000.0)
    early, late = (_series(sim.cadvisor(node, now=t)) for t in (1010.0, 1070.0))
    _promtool_ok(sim.cadvisor(node, now=1070.0))
    for name, labels, _ in late:
        assert tuple(labels) == (
            ("container", "cpu", "id", "image", "name", "namespace", "pod")
            if name == "container_cpu_usage_seconds_total"
            else ("container", "id", "image", "name", "namespace", "pod")
        ), name
        assert set(labels) == set(BY_NAME[name].labels), name
    cpu = {s[1]["pod"]: s[2] for s in late if s[0] == "container_cpu_usage_seconds_total"}
    cpu_early = {s[1]["pod"]: s[2] for s in early if s[0] == "container_cpu_usage_seconds_total"}
    assert all(cpu[p] > cpu_early[p] for p in cpu)
    # the exporter's pod and the node's GPU pods (three time-slicing GPU 0, two MPS clients on GPU 1)
    assert sorted(re.sub(r"-[0-9a-z]+$", "", p) for p in cpu) == [
        "gpuscope-exporter",
        *["infer"] * 3,
        *["mps-client"] * 2,
    ]

"""The GPU Operator's and dcgm-exporter's Helm chart's DaemonSets, replayed: their exact args and env through the
image's entrypoint on simulated GPUs. Each must start, serve the families of its collectors file and pass its
probes. The manifests are facts in ``fixtures/deployments.yaml``.

How a pod becomes a process here: the image's ENTRYPOINT (the ``dcgm-exporter`` command) is run from this
environment; files the image ships (``/etc/dcgm-exporter/*.csv``) and files the pod mounts are copies under a
temporary root, and image paths in args and env are rewritten to them; the metrics port is a free loopback port
in place of 9400; the kubelet the pod-resources mount leads to is a real gRPC server; ``NODE_NAME`` is a node
name. No GPU: ``DCGM_EXPORTER_USE_FAKE_GPUS`` would differ from the manifests, so the simulator is chosen the way
a GPU-less node chooses it (no driver found).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gpuscope.fields.collectors import parse_collectors
from gpuscope.simulator.kubelet import kubelet_server, pod
from tests.support.daemonset import NODE_NAME, deployments, pod_process
from tests.support.exporter_process import clean_env, exporter_process
from tests.support.net import free_port

pytestmark = pytest.mark.e2e

DEPLOYMENTS = deployments()


@pytest.mark.parametrize("name", sorted(DEPLOYMENTS))
def test_deployment_runs_unchanged_and_passes_its_probes(name: str, tmp_path: Path) -> None:
    spec = DEPLOYMENTS[name]
    port = free_port()
    container = pod_process(name, spec, tmp_path / "root", port)
    env, args, command = container.env, container.args, container.command

    collectors_path = env.get("DCGM_EXPORTER_COLLECTORS") or args[args.index("-f") + 1]
    assert collectors_path.startswith(str(tmp_path)), f"{name}: the collectors file must be one the pod has"
    expected = parse_collectors(Path(collectors_path).read_text(encoding="utf-8"), collectors_path)

    with kubelet_server() as kubelet:
        kubelet.set_pods([pod("team-a", "trainer-0", ("main", "nvidia.com/gpu", ["nvidia0"]))])
        # The pod-resources mount is where the exporter's default kubelet socket lives: point that default at it.
        env["DCGM_POD_RESOURCES_KUBELET_SOCKET"] = kubelet.socket_path
        url = f"http://127.0.0.1:{port}"
        with exporter_process(command, url, tmp_path, env=clean_env(env)) as exporter:
            for probe in spec["probes"].values():
                assert exporter.get(probe["path"]).status_code == 200
            metrics = exporter.get("/metrics").text
            log = exporter.log()
    assert "Traceback" not in log
    assert "has no effect" not in log or name == "helm-chart-debug-dump"
    served = set(re.findall(r"^# TYPE (\S+) ", metrics, re.M))
    # A field the simulated GPU does not have (vGPU licence on bare metal) is absent and says so, as on hardware.
    unsupported = set(re.findall(r'^gpuscope_exporter_field_unsupported\{.*field="(\w+)"', metrics, re.M))
    missing = {m.name for m in expected.metrics} - served - unsupported
    assert len(unsupported) <= 1, unsupported
    assert not missing, f"{name}: families of {Path(collectors_path).name} not served: {sorted(missing)}"
    assert re.search(rf'^DCGM_FI_DEV_GPU_TEMP\{{gpu="0",.*Hostname="{NODE_NAME}"', metrics, re.M)
    # -k took effect, as dcgm-exporter's: the DCGM series of the allocated GPU carry its pod (what OpenCost, KEDA and
    # prometheus-adapter query), the unallocated GPU's none, and no info series stands in for them.
    held = re.findall(r'^DCGM_FI_DEV_GPU_TEMP\{gpu="0",.*\}', metrics, re.M)
    assert len(held) == 1, metrics[-3000:]
    assert 'container="main"' in held[0] and 'namespace="team-a"' in held[0] and 'pod="trainer-0"' in held[0]
    assert re.search(r'^DCGM_FI_DEV_GPU_TEMP\{gpu="1",', metrics, re.M)
    assert not re.search(r'^DCGM_FI_DEV_GPU_TEMP\{gpu="1",.*pod=', metrics, re.M)
    assert "gpuscope_gpu_workload_info{" not in metrics
    assert "attribution: labels (pod labels on the DCGM series, as dcgm-exporter: started with -k" in log
    if "DCGM_REMOTE_HOSTENGINE_INFO" in env:
        assert "-r/--remote-hostengine-info nvidia-dcgm:5555 recorded" in log
    if name == "helm-chart-debug-dump":
        assert "--dump-enabled is accepted and has no effect" in log

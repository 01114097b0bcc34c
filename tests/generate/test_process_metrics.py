"""``exporter.process_metrics``: hostPID and the pod log directory in the DaemonSet only when it is on, and the
worst-case series it adds to the budget from ``pods_per_gpu``."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
import yaml

from gpuscope.errors import SpecError
from gpuscope.generate.budget import HEAD_WINDOW_HOURS, compute_budget
from gpuscope.generate.compose import generate_bundle
from gpuscope.spec.load import parse_fleet
from tests.support.specs import fleet

K8S = """
  - name: gpu-k
    kind: kubernetes
    pod_restarts_per_hour: 10
    node_groups:
      - {name: h100, gpu_model: h100, nodes: 4, pods_per_gpu: 3}
"""


def daemonset(extra: str, tmp_path: Path) -> dict[str, Any]:
    loaded = parse_fleet(fleet(K8S, extra), "fleet.yaml", tmp_path)
    files = generate_bundle(loaded.spec, loaded.collectors, loaded.collectors_csv).files
    doc: dict[str, Any] = yaml.safe_load(files["kubernetes/gpu-k/daemonset.yaml"])
    return doc


def test_host_pid_only_with_process_metrics(tmp_path: Path) -> None:
    off = daemonset("", tmp_path)["spec"]["template"]["spec"]
    assert "hostPID" not in off
    assert "GPUSCOPE_PROCESS_METRICS" not in {e["name"] for e in off["containers"][0]["env"]}
    on = daemonset("exporter: {process_metrics: true}", tmp_path)["spec"]["template"]["spec"]
    assert on["hostPID"] is True
    env = {e["name"]: e.get("value") for e in on["containers"][0]["env"]}
    assert env["GPUSCOPE_PROCESS_METRICS"] == "true" and env["GPUSCOPE_POD_LOG_DIR"] == "/var/log/pods"
    mounts = {m["mountPath"]: m for m in on["containers"][0]["volumeMounts"]}
    assert mounts["/var/log/pods"]["readOnly"] is True
    assert {"name": "pod-logs", "hostPath": {"path": "/var/log/pods", "type": "Directory"}} in on["volumes"]


def test_budget_counts_the_worst_case_of_pods_per_gpu(tmp_path: Path) -> None:
    def workload(extra: str) -> int:
        loaded = parse_fleet(fleet(K8S, extra), "fleet.yaml", tmp_path)
        return compute_budget(loaded.spec, loaded.collectors).clusters[0].workload_series

    base_info, base_labels = (
        workload("exporter: {workload_labels: info}"),
        workload("exporter: {workload_labels: labels}"),
    )
    info = workload("exporter: {workload_labels: info, process_metrics: true}")
    labels = workload("exporter: {workload_labels: labels, process_metrics: true}")
    gpus, nodes, owners = 32, 4, 3
    fixed = gpus * 2 + nodes * 7  # unattributed memory + count per GPU; 6 reasons + read failures per node
    assert info - base_info == math.ceil(fixed + gpus * owners * 5 + 10 * HEAD_WINDOW_HOURS * 5)
    assert labels - base_labels == fixed + gpus * (owners - 1) * 2  # GPU_UTIL and FB_USED once per pod


@pytest.mark.parametrize(
    "bad",
    [
        "exporter: {process_metrics: yes please}",
        "exporter: {process_metrics: 1}",
        "node_groups_typo: 1",
    ],
)
def test_bad_switch_is_one_located_error(bad: str, tmp_path: Path) -> None:
    with pytest.raises(SpecError) as err:
        parse_fleet(fleet(K8S, bad), "fleet.yaml", tmp_path)
    assert "fleet.yaml:" in str(err.value)


def test_process_metrics_on_the_dcgm_backend_generate_a_host_pid_daemonset(tmp_path: Path) -> None:
    """The dcgm backend reads process lists through NVML beside DCGM (as dcgm-exporter does): no longer refused."""
    spec = daemonset("exporter: {process_metrics: true, backend: dcgm}", tmp_path)["spec"]["template"]["spec"]
    assert spec["hostPID"] is True
    env = {e["name"]: e.get("value") for e in spec["containers"][0]["env"]}
    assert env["GPUSCOPE_PROCESS_METRICS"] == "true"
    assert env["GPUSCOPE_BACKEND"] == "dcgm"

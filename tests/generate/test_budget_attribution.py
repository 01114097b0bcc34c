"""What the attribution options cost in the cardinality budget: shared GPUs multiply attributions (one info series
per replica in info mode, plus the per-pod split's GPU_UTIL and FB_USED; a copy of every GPU series per further
holder in labels mode); labels cost nothing new."""

from __future__ import annotations

from pathlib import Path

from gpuscope.generate.budget import compute_budget
from gpuscope.spec.load import parse_fleet
from tests.support.specs import ONE, fleet

K8S = (
    ONE
    + """
  - name: gpu-k
    kind: kubernetes
    pod_restarts_per_hour: 0
    node_groups:
      - {name: h100, gpu_model: h100, nodes: 4}
"""
)


def workload_series(exporter: str, tmp_path: Path) -> int:
    loaded = parse_fleet(fleet(K8S, f"exporter: {exporter}"), "fleet.yaml", tmp_path)
    (cluster,) = (c for c in compute_budget(loaded.spec, loaded.collectors).clusters if c.cluster == "gpu-k")
    return cluster.workload_series


def test_shared_gpus_and_pod_labels_in_each_mode(tmp_path: Path) -> None:
    gpus = 4 * 8
    assert workload_series("{workload_labels: info}", tmp_path) == gpus
    assert workload_series("{workload_labels: info, pod_labels: true, pod_uid: true, dra: true}", tmp_path) == gpus
    shared = "virtual_gpus: true, virtual_gpu_replicas: 3"
    # Shared: an info series and the split's GPU_UTIL and FB_USED series per (GPU, pod, replica).
    assert workload_series(f"{{workload_labels: info, {shared}}}", tmp_path) == 3 * gpus * 3
    assert workload_series(f"{{workload_labels: 'off', {shared}}}", tmp_path) == 0
    assert workload_series("{workload_labels: labels}", tmp_path) == 0
    copies = workload_series(f"{{workload_labels: labels, {shared}}}", tmp_path)
    assert copies > 2 * gpus * 20  # two further copies of each GPU's (tens of) series
    assert copies % (2 * gpus) == 0
    one_replica = workload_series("{workload_labels: labels, virtual_gpus: true, virtual_gpu_replicas: 1}", tmp_path)
    assert one_replica == 2 * gpus  # no further copy; the split's device GPU_UTIL and FB_USED beside the pod's

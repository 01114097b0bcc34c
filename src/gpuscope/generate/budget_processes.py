"""The series ``exporter.process_metrics`` adds to a node group, at its worst case (pure).

Per GPU or MIG instance, ``pods_per_gpu`` owners (the most pods sharing one: time-slicing replicas, MPS clients),
each with one memory series and one utilization series per engine in ``info`` mode; per GPU the two unattributed
series; per node the reason counters. A restarted pod leaves its owner series in the head for the block window, as
an info series does. In ``labels`` mode the per-pod split turns a shared target's GPU_UTIL and FB_USED into one
series per pod (the churn of labels mode is already counted with every other pod-labelled series).
"""

from __future__ import annotations

import math

from gpuscope.exporter.processes.attribute import ENGINES
from gpuscope.exporter.processes.procfs import Unattributed
from gpuscope.spec.fleet import Cluster, FleetSpec, NodeGroup

PER_OWNER = 1 + len(ENGINES)  # memory + one utilization series per engine
PER_GPU = 2  # unattributed memory and process count
PER_NODE = len(Unattributed) + 1  # the reason counters and the read-failure counter
SPLIT_FIELDS = 2  # DCGM_FI_DEV_GPU_UTIL and DCGM_FI_DEV_FB_USED


def process_series(group: NodeGroup, cluster: Cluster, spec: FleetSpec, head_window_hours: float) -> int:
    if not spec.exporter.process_metrics:
        return 0
    gpus = group.nodes * group.gpus_per_node
    entities = gpus
    if group.mig:
        entities += group.mig.nodes * group.gpus_per_node * (len(group.mig.layout.split(",")) - 1)
    fixed = gpus * PER_GPU + group.nodes * PER_NODE
    if spec.exporter.workload_labels == "labels":
        return fixed + entities * (group.pods_per_gpu - 1) * SPLIT_FIELDS
    share = group.nodes / max(cluster.nodes, 1)
    churned = cluster.pod_restarts_per_hour * share * head_window_hours
    return math.ceil(fixed + entities * group.pods_per_gpu * PER_OWNER + churned * PER_OWNER)

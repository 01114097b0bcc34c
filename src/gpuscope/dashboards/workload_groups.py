"""L5 Workload, the Kubernetes attribution row: activity and GPUs held per pod-label group (e.g. ``team``, from
the exporter's allowlist), pods sharing each GPU (virtual GPUs) and activity per DRA claim.

Every panel reads a recording rule of ``rules/workload_attribution.py``, which exists only when its option is
configured; so does the row (absent in a default bundle).
"""

from __future__ import annotations

from gpuscope.dashboards.model import Panel, Query, Row
from gpuscope.dashboards.model import one_query_timeseries as _ts
from gpuscope.dashboards.promql import Q
from gpuscope.dashboards.queries import workload as wq
from gpuscope.ruleconfig.groups import group_record
from gpuscope.rules.workload_attribution import DRA_CLAIM


def attribution_row(q: Q) -> Row | None:
    c = q.c
    if c.workload_labels == "off":
        return None
    panels: list[Panel] = []
    for label in c.pod_group_labels:
        legend = f"{{{{{label}}}}}"
        panels += [
            _ts(
                f"Activity by {label}",
                Query(q.rec(group_record(label, "gpu_activity:avg5m"), q.in_cluster), legend),
                "percentunit",
                f"Mean activity of the GPUs held by pods, per pod label {label}.",
                bounded=True,
            ),
            _ts(
                f"GPUs held by {label}",
                Query(q.rec(group_record(label, "gpus_allocated:count"), q.in_cluster), legend),
                "short",
                f"GPUs held per pod label {label}, in GPU-equivalents: a MIG instance counts its share of the GPU, "
                "pods sharing a GPU split it (docs/counting.md).",
            ),
        ]
    if c.virtual_gpus:
        panels.append(
            _ts(
                "Pods per shared GPU",
                wq.pods_per_shared_gpu(q),
                "short",
                "GPUs (or MIG instances) that several pods share through time-slicing or MPS replicas.",
            )
        )
    if c.dra:
        namespace, name = DRA_CLAIM
        panels.append(
            _ts(
                "Activity by DRA claim",
                Query(q.rec("dra_claim:gpu_activity:avg5m", q.in_cluster), f"{{{{{namespace}}}}}/{{{{{name}}}}}"),
                "percentunit",
                "Mean activity of the GPUs each ResourceClaim was allocated.",
                bounded=True,
            )
        )
    return Row("Teams, shared GPUs and claims", tuple(panels)) if panels else None

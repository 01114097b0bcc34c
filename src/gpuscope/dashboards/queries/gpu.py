"""L4 GPU: one GPU (by UUID) and, on a MIG GPU, its instances — identity, who held it, alerts, XID history.

The per-field panels come from ``dashboards.fields``; these are the queries that are not one field each.
"""

from __future__ import annotations

import re

from gpuscope.dashboards.model import Query
from gpuscope.dashboards.promql import PRESENCE, Q
from gpuscope.dashboards.queries.node import clock_reasons
from gpuscope.fields.catalog import ALL_FIELDS

# Label fields (DCGM_FI_DRIVER_VERSION, ...) as an Identity column header: "driver version", not the field id.
LABEL_WORDS = {
    f.name: re.sub(r"^DCGM_FI_(?:DEV_)?(.+?)(?:_VER)?$", r"\1", f.name).replace("_", " ").lower()
    + (" version" if f.name.endswith("_VER") else "")
    for f in ALL_FIELDS
    if f.is_label
}


def identity(q: Q) -> Query:
    """The GPU's labels (model, PCI bus id, driver and other label fields), one row per MIG instance."""
    return Query(q.dcgm(PRESENCE, q.on_gpu), instant=True)


def pods(q: Q) -> Query | None:
    """The pods that held the GPU (or one of its MIG instances) over time, per the workload-label mode."""
    c = q.c
    ns, pod = c.namespace_label, c.pod_label
    legend = f"pod {{{{{ns}}}}}/{{{{{pod}}}}} {{{{GPU_I_ID}}}}"
    if c.workload_labels == "info":
        info = q.exporter("gpuscope_gpu_workload_info", q.on_gpu)
        return Query(f"max by ({ns}, {pod}, container, GPU_I_ID) ({info})", legend)
    if c.workload_labels == "labels":
        held = q.dcgm(PRESENCE, q.on_gpu, pod + '!=""')
        return Query(f"max by ({ns}, {pod}, GPU_I_ID) ({held})", legend)
    return None


def pushed_jobs(q: Q) -> Query:
    """Batch jobs that reported this GPU through the Pushgateway (``gpuscope_job_info``)."""
    return Query(f"max by (job_id, user) ({q.jobs('gpuscope_job_info', q.on_gpu)})", "job {{job_id}} ({{user}})")


def slurm_jobs(q: Q) -> Query:
    """Slurm jobs mapped to the GPU by the exporter's ``--hpc-job-mapping-dir``."""
    return Query(
        f"max by (hpc_job, GPU_I_ID) ({q.exporter('gpuscope_gpu_job_info', q.on_gpu)})",
        "slurm job {{hpc_job}} {{GPU_I_ID}}",
    )


def alerts(q: Q) -> Query:
    return Query(
        f'max by (alertname, severity) (ALERTS{{alertstate="firing",{q.on_gpu}}})',
        "{{alertname}} ({{severity}})",
        fault="ecc-dbe",
        zero=q.evaluating(q.on_gpu),
    )


def xid_events(q: Q) -> Query | None:
    field = "DCGM_EXP_XID_ERRORS_TOTAL"
    expr = f"max by (xid) (increase({q.dcgm(field, q.on_gpu)}[$__rate_interval]))"
    return q.needs((field,), expr, "XID {{xid}}", fault="xid", zero=q.reporting(q.on_gpu))


def clock_reasons_of_gpu(q: Q) -> Query | None:
    return clock_reasons(q, q.on_gpu)

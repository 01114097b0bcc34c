"""L4 GPU: every field the collectors CSV exports for one GPU (MIG instances apart where a field has a value per
instance), ECC / retired pages / row remapping, XID history, the alerts on it and the workloads that held it."""

from __future__ import annotations

from gpuscope.dashboards import fields, styles, variables
from gpuscope.dashboards.model import Dashboard, Panel, Row, Transform, present
from gpuscope.dashboards.promql import Q
from gpuscope.dashboards.queries import fabric
from gpuscope.dashboards.queries import gpu as g
from gpuscope.dashboards.shared_gpus import l4_panel

KEY = "l4-gpu"


def _who(q: Q) -> Row:
    return Row(
        "GPU",
        (
            Panel(
                "Identity",
                "table",
                (g.identity(q),),
                description="The GPU's labels; one row per MIG instance on a MIG GPU.",
                # the labels, named in words; the query's value (a temperature reading) is no identity
                transforms=(
                    Transform(
                        "organize",
                        {
                            "excludeByName": {"Value": True},
                            "renameByName": g.LABEL_WORDS,
                            "indexByName": {name: i for i, name in enumerate((q.host, "gpu", q.uuid, "modelName"))},
                        },
                    ),
                ),
                width=24,
                height=5,
            ),
            Panel(
                "Held by",
                "statushistory",
                present(g.pods(q), g.pushed_jobs(q), g.slurm_jobs(q)),
                description="Pods (by the exporter's workload attribution), pushed batch jobs and Slurm jobs that held "
                "this GPU or one of its MIG instances.",
                width=12,
            ),
            Panel(
                "Alerts firing on this GPU",
                "statushistory",
                (g.alerts(q),),
                width=12,
                description="None while none fires.",
            ),
            *((owners,) if (owners := l4_panel(q)) else ()),
        ),
    )


def _extras(q: Q, row: str) -> tuple[Panel, ...]:
    """Panels that are not one family of fields."""
    if row == fields.THERMAL:
        return (
            Panel(
                "Clock-event reasons",
                "timeseries",
                present(g.clock_reasons_of_gpu(q)),
                unit="short",
                description="The clock-event bitmask decoded: one series per active reason.",
            ),
        )
    if row == fields.XID:
        return (Panel("XID events", "timeseries", present(g.xid_events(q)), unit="short"),)
    if row == fields.INTERCONNECT and (links := present(fabric.gpu_links(q))):
        return (
            Panel(
                "NVLink link state",
                "statushistory",
                links,
                mappings=styles.LINK_STATE,
                description="Each link of the GPU: up or down; a gap where its series stopped (dcgm-exporter serves "
                "only links that are up).",
                width=24,
            ),
        )
    return ()


def gpu_dashboard(q: Q) -> Dashboard:
    grouped = fields.collected_by_family(q)
    rows = [_who(q)]
    for title in fields.ROWS:
        panels = [
            p for family, members in grouped if family.row == title for p in fields.family_panels(q, family, members)
        ]
        rows.append(Row(title, (*panels, *_extras(q, title))))
    return Dashboard(
        key=KEY,
        title="GPU L4 GPU",
        description="One GPU: every field the exporter collects, its memory errors, XIDs, alerts and the workloads "
        "that held it.",
        variables=(variables.cluster(q), variables.node(q), variables.gpu(q), variables.mig(q)),
        rows=tuple(rows),
    )

"""L3 Node: its GPUs' temperature, power, clocks, framebuffer, SM/tensor/DRAM activity, PCIe and NVLink
throughput and errors, clock-event reasons and XIDs. Every GPU series drills down to L4."""

from __future__ import annotations

from gpuscope.dashboards import styles, variables
from gpuscope.dashboards.cluster import to_gpu
from gpuscope.dashboards.fabric import link_panels
from gpuscope.dashboards.host import host_row
from gpuscope.dashboards.model import Dashboard, Panel, Query, Row, Steps, Transform, present
from gpuscope.dashboards.promql import PRESENCE, Q
from gpuscope.dashboards.queries import node as n

KEY = "l3-node"


def _series(
    q: Q,
    title: str,
    queries: tuple[Query | None, ...],
    unit: str,
    *,
    width: int,
    height: int = 8,
    steps: Steps | None = None,
    min: float | None = None,
    max: float | None = None,
    description: str = "",
) -> Panel:
    """A per-GPU time series panel; clicking a series opens that GPU's L4 dashboard."""
    return Panel(
        title,
        "timeseries",
        present(*queries),
        unit=unit,
        description=description,
        steps=steps,
        width=width,
        height=height,
        min=min,
        max=max,
        links=(to_gpu(q, "__field.labels"),),
    )


def _gpus(q: Q) -> Row:
    table = Panel(
        "GPUs on this node",
        "table",
        present(*n.gpus_table(q, styles.temperature(q.options))),
        description="Click a GPU for its L4 dashboard.",
        links=(to_gpu(q, "__data.fields"),),
        sort_by="gpu",
        # the index is a label, text to Grafana: as a number it sorts 0, 1, ..., 10, not 0, 1, 10, 2
        transforms=(
            Transform("convertFieldType", {"conversions": [{"targetField": "gpu", "destinationType": "number"}]}),
        ),
        width=24,
        height=7,
    )
    return Row("GPUs", (table,))


def _thermal_power(q: Q) -> Row:
    return Row(
        "Thermal and power",
        (
            _series(
                q,
                "Temperature",
                (n.per_gpu(q, PRESENCE), n.per_gpu(q, "DCGM_FI_DEV_MEMORY_TEMP", " memory")),
                "celsius",
                steps=styles.temperature(q.options),
                width=8,
            ),
            _series(
                q,
                "Power",
                (
                    n.avg1m_per_gpu(q, "DCGM_FI_DEV_POWER_USAGE"),
                    n.per_gpu(q, "DCGM_FI_DEV_ENFORCED_POWER_LIMIT", " limit"),
                ),
                "watt",
                width=8,
            ),
            _series(
                q,
                "Throttled time",
                (
                    n.throttled(q, "DCGM_FI_DEV_THERMAL_VIOLATION", "thermal"),
                    n.throttled(q, "DCGM_FI_DEV_POWER_VIOLATION", "power"),
                ),
                "percentunit",
                steps=styles.throttled_share(q.options),
                width=8,
            ),
        ),
    )


def _clocks(q: Q) -> Row:
    return Row(
        "Clocks",
        (
            _series(
                q,
                "SM and memory clocks",
                (n.per_gpu(q, "DCGM_FI_DEV_SM_CLOCK", " SM"), n.per_gpu(q, "DCGM_FI_DEV_MEM_CLOCK", " memory")),
                "hertz",
                width=12,
            ),
            _series(
                q,
                "Clock-event reasons",
                (n.clock_reasons(q), n.clock_event_counts(q)),
                "short",
                description="Why clocks are below maximum: one series per active reason (the bitmask decoded), and "
                "the exporter's event counts in its window.",
                width=12,
            ),
        ),
    )


def _memory_activity(q: Q) -> Row:
    return Row(
        "Memory and activity",
        (
            _series(q, "Framebuffer used", (n.per_instance(q, "DCGM_FI_DEV_FB_USED"),), "bytes", width=8),
            _series(q, "Framebuffer used (share)", (n.fb_used_ratio(q),), "percentunit", min=0, max=1, width=8),
            _series(
                q,
                "SM / graphics-engine active",
                (
                    n.avg1m_per_instance(q, "DCGM_FI_PROF_SM_ACTIVE", " SM"),
                    n.avg1m_per_instance(q, "DCGM_FI_PROF_GR_ENGINE_ACTIVE", " GR"),
                ),
                "percentunit",
                min=0,
                max=1,
                width=8,
            ),
            _series(
                q,
                "Tensor active",
                (n.avg1m_per_instance(q, "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE"),),
                "percentunit",
                min=0,
                max=1,
                width=8,
            ),
            _series(
                q,
                "DRAM active",
                (n.avg1m_per_instance(q, "DCGM_FI_PROF_DRAM_ACTIVE"),),
                "percentunit",
                min=0,
                max=1,
                width=8,
            ),
            _series(
                q,
                "Utilization (NVML)",
                (n.avg1m_per_instance(q, "DCGM_FI_DEV_GPU_UTIL"),),
                "percentunit",
                min=0,
                max=1,
                description="Share of time any kernel ran: not how busy the SMs were (see SM active). Empty on a "
                "node in MIG mode: NVML reports no utilization for MIG GPUs (dcgm-exporter neither).",
                width=8,
            ),
        ),
    )


def _interconnect(q: Q) -> Row:
    return Row(
        "PCIe and NVLink",
        (
            _series(
                q,
                "PCIe throughput",
                (
                    n.per_instance(q, "DCGM_FI_PROF_PCIE_TX_BYTES", " tx"),
                    n.per_instance(q, "DCGM_FI_PROF_PCIE_RX_BYTES", " rx"),
                ),
                "Bps",
                width=6,
            ),
            _series(q, "PCIe replays", (n.increase_per_gpu(q, "DCGM_FI_DEV_PCIE_REPLAY_COUNTER"),), "short", width=6),
            _series(
                q,
                "NVLink throughput",
                (
                    n.per_instance(q, "DCGM_FI_PROF_NVLINK_TX_BYTES", " tx"),
                    n.per_instance(q, "DCGM_FI_PROF_NVLINK_RX_BYTES", " rx"),
                    n.per_gpu(q, "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", " total"),
                ),
                "Bps",
                width=6,
            ),
            _series(
                q,
                "NVLink errors (per 5 min)",
                (n.nvlink_errors(q),),
                "short",
                steps=styles.errors_per_window(q.options),
                description="Largest increase of any NVLink CRC/replay/recovery counter, over GPUNVLinkErrors' window.",
                width=6,
            ),
        ),
    )


def _fabric(q: Q) -> Row | None:
    """The node's NVLink links and NVSwitch ports, where the collectors CSV has them (dashboards/fabric.py)."""
    links = link_panels(q, q.on_node)
    return Row("NVLink fabric", links) if links else None


def _xid(q: Q) -> Row:
    return Row("XID", (_series(q, "Last XID per GPU", (n.last_xid(q),), "none", width=24, height=6),))


def node_dashboard(q: Q) -> Dashboard:
    return Dashboard(
        key=KEY,
        title="GPU L3 Node",
        description="The GPUs of one node; click a series for the GPU's L4 dashboard.",
        variables=(variables.cluster(q), variables.node(q)),
        rows=(
            _gpus(q),
            *filter(None, (host_row(q),)),  # node-exporter, when scraped (dashboards/host.py)
            _thermal_power(q),
            _clocks(q),
            _memory_activity(q),
            _interconnect(q),
            *filter(None, (_fabric(q),)),
            _xid(q),
        ),
        drills_to=("l4-gpu", "fabric"),
    )

"""Hardware alert scenarios: each fires within its bound from the failure at 30m, each has near misses."""

from __future__ import annotations

from typing import Any

from gpuscope.rules import RulesConfig
from tests.rules.fixtures import (
    A100,
    MISSED,
    change,
    change_missed,
    flat,
    flat_missed,
    from_,
    gpu_labels,
    grow,
    identity,
    missed_up,
    self_labels,
    until,
    up,
    uuid,
)
from tests.support.promtool import Case, ExprCase, Series, steps

TEMP = "DCGM_FI_DEV_GPU_TEMP"
XID = "DCGM_FI_DEV_XID_ERRORS"


def temps(*gpus: int, host: str = "node-a", values: str = flat(60), **kw: Any) -> tuple[Series, ...]:
    return tuple(Series(TEMP, gpu_labels(g, host, **kw), values) for g in gpus)


_CRIT_79 = {"err_code": "79", "err_msg": "GPU has fallen off the bus"}
_CRIT_95 = {"err_code": "95", "err_msg": "Uncontained ECC error"}

FELL_OFF_BUS = (
    Case(
        "gpuscope: gpu_lost goes to 1 and the GPU's series stop",
        "GPUFellOffBus",
        (
            up(),
            Series("gpuscope_exporter_gpu_lost", self_labels(0), change(0, 1)),
            Series("gpuscope_exporter_gpu_lost", self_labels(1), flat(0)),
            Series(TEMP, gpu_labels(0), until(60)),
            *temps(1),
        ),
        fires_by="32m",
        expected=(identity(0),),
        quiet_at=("29m45s",),
    ),
    Case(
        "dcgm-exporter: a GPU's series vanish while its exporter stays up",
        "GPUFellOffBus",
        (up(), Series(TEMP, gpu_labels(0), until(60)), *temps(1)),
        fires_by="32m",
        expected=(identity(0),),
        quiet_at=("29m45s",),
    ),
    Case(
        "dcgm-exporter: XID 79 on the last-XID gauge and the GPU's readings stop: pages at once",
        "GPUFellOffBus",
        (
            up(),
            Series(TEMP, gpu_labels(0), until(60)),
            *temps(1),
            Series(XID, gpu_labels(0, extra={"err_code": "0", "err_msg": "No Error"}), until(0)),
            Series(XID, gpu_labels(0, extra={"err_code": "79", "err_msg": "GPU has fallen off the bus"}), from_("79")),
        ),
        fires_by="30m15s",
        expected=(identity(0),),
        quiet_at=("29m45s",),
    ),
    Case(
        "near miss: the sticky last-XID gauge still says 79 after the GPU was reset and reports again",
        "GPUFellOffBus",
        (up(), *temps(0, 1), Series(XID, gpu_labels(0, extra=_CRIT_79), flat(79))),
        quiet_at=("31m", "45m"),
    ),
    Case(
        "near miss: one missed scrape of a GPU's readings is not a lost GPU",
        "GPUFellOffBus",
        (up(), Series(TEMP, gpu_labels(0), "60x120 stale 60x60"), *temps(1)),
        quiet_at=("30m15s", "30m30s", "31m"),
    ),
    Case(
        "near miss: the exporter is down, so every GPU series stops (GPUExporterDown's job)",
        "GPUFellOffBus",
        (up(values=change(1, 0)), Series(TEMP, gpu_labels(0), until(60)), Series(TEMP, gpu_labels(1), until(60))),
        quiet_at=("32m", "45m"),
    ),
    Case(
        "near miss: the exporter pod was replaced (new instance, same GPUs)",
        "GPUFellOffBus",
        (
            Series("up", {"job": "dcgm-exporter", "instance": "10.0.0.1:9400"}, until(1)),
            Series("up", {"job": "dcgm-exporter", "instance": "10.0.0.2:9400"}, from_("1")),
            Series(TEMP, gpu_labels(0, instance="10.0.0.1:9400"), until(60)),
            Series(TEMP, gpu_labels(0, instance="10.0.0.2:9400"), from_("61")),
        ),
        quiet_at=("32m", "45m"),
    ),
)


# A node down for maintenance from 20m to 30m: the exporter's target fails (up 0) and every GPU series stops; it comes
# back at 30m. A GPU that answers again keeps its series, with the gap.
_DOWN, _BACK = "20m", "30m"
MAINTENANCE_UP = f"1x{steps(_DOWN) - 1} 0x{steps(_BACK) - steps(_DOWN) - 1} 1x{steps('1h') - steps(_BACK) - 1}"
BACK_AGAIN = f"60x{steps(_DOWN) - 1} stale _x{steps(_BACK) - steps(_DOWN) - 1} 60x{steps('1h') - steps(_BACK) - 1}"
GONE = until(60, start=_DOWN)  # the GPU's series stop when the node goes down and never come back
NEW_UUID = "GPU-5ee0f00d-0000-4000-8000-000000000000"


def slot_labels(gpu: int, *, holder: int | None = None, new: bool = False, pci: bool = True) -> dict[str, str]:
    """GPU ``gpu``'s slot on node-a, answered by the GPU that sat at index ``holder`` before (re-indexed), or by a
    GPU new to the node; ``pci=False``: an exporter without ``pci_bus_id`` (dcgm-exporter before 3.3.7)."""
    labels = gpu_labels(gpu)
    if new:
        labels["UUID"] = NEW_UUID
    elif holder is not None:  # the GPU keeps its UUID and its PCI bus id, and takes the index
        labels["UUID"], labels["pci_bus_id"] = uuid("node-a", holder), gpu_labels(holder)["pci_bus_id"]
    if not pci:
        del labels["pci_bus_id"]
    return labels


SWAPPED = (
    Case(
        "near miss: the node is back from maintenance with a new GPU (new UUID) in the same slot: swapped, not lost",
        "GPUFellOffBus",
        (
            up(values=MAINTENANCE_UP),
            Series(TEMP, slot_labels(0), GONE),
            Series(TEMP, slot_labels(0, new=True), from_("61", start=_BACK)),
            Series(TEMP, slot_labels(1), BACK_AGAIN),
        ),
        quiet_at=("30m", "30m15s", "31m", "35m", "45m"),
    ),
    Case(
        "near miss: the same swap on an exporter without pci_bus_id (the slot is the host and the GPU index)",
        "GPUFellOffBus",
        (
            up(values=MAINTENANCE_UP),
            Series(TEMP, slot_labels(0, pci=False), GONE),
            Series(TEMP, slot_labels(0, new=True, pci=False), from_("61", start=_BACK)),
            Series(TEMP, slot_labels(1, pci=False), BACK_AGAIN),
        ),
        quiet_at=("30m", "31m", "45m"),
    ),
    Case(
        "the node is back from maintenance without one of its GPUs and nothing in its slot: lost, pages",
        "GPUFellOffBus",
        (up(values=MAINTENANCE_UP), Series(TEMP, slot_labels(0), GONE), Series(TEMP, slot_labels(1), BACK_AGAIN)),
        start=_BACK,
        fires_by="32m",
        expected=(identity(0),),
        still_firing_at=("45m",),
        quiet_at=("29m45s",),
    ),
    Case(
        "one GPU of the node swapped while another vanished: only the vanished one pages",
        "GPUFellOffBus",
        (
            up(values=MAINTENANCE_UP),
            Series(TEMP, slot_labels(0), GONE),
            Series(TEMP, slot_labels(0, new=True), from_("61", start=_BACK)),
            Series(TEMP, slot_labels(1), BACK_AGAIN),
            Series(TEMP, slot_labels(2), GONE),
        ),
        start=_BACK,
        fires_by="32m",
        expected=(identity(2),),
        still_firing_at=("45m",),
        quiet_at=("29m45s",),
    ),
    *(
        Case(
            f"a GPU vanished and the node's next GPU took its index ({what}): a GPU that moved is no successor",
            "GPUFellOffBus",
            (
                up(values=MAINTENANCE_UP),
                Series(TEMP, slot_labels(0, pci=pci), BACK_AGAIN),
                Series(TEMP, slot_labels(1, pci=pci), GONE),
                Series(TEMP, slot_labels(2, pci=pci), GONE),
                Series(TEMP, slot_labels(1, holder=2, pci=pci), from_("61", start=_BACK)),
            ),
            start=_BACK,
            fires_by="32m",
            expected=(identity(1),),
            still_firing_at=("45m",),
            quiet_at=("29m45s",),
        )
        for pci, what in ((True, "its PCI bus id differs"), (False, "no pci_bus_id: the index alone"))
    ),
)

SWAP_COUNTS = tuple(
    ExprCase(
        f"a swapped GPU is not counted lost, and the node's GPUs are counted once: {expr}",
        (
            up(values=MAINTENANCE_UP),
            Series(TEMP, slot_labels(0), GONE),
            Series(TEMP, slot_labels(0, new=True), from_("61", start=_BACK)),
            Series(TEMP, slot_labels(1), BACK_AGAIN),
        ),
        "31m",
        expr,
        samples,
    )
    for expr, samples in (
        ("cluster:gpus_lost:count", (("cluster:gpus_lost:count", 0),)),
        ("cluster:gpus:count_by_model", (('cluster:gpus:count_by_model{modelName="NVIDIA H100 80GB HBM3"}', 2),)),
    )
)


XID_CRITICAL = (
    Case(
        "a critical XID appears on the last-XID gauge (same shape from both exporters)",
        "GPUXidCritical",
        (
            up(),
            *temps(0),
            Series(XID, gpu_labels(0, extra={"err_code": "0", "err_msg": "No Error"}), until(0)),
            Series(XID, gpu_labels(0, extra={"err_code": "48", "err_msg": "Double Bit ECC Error"}), from_("48")),
        ),
        fires_by="31m",
        expected=(identity(0, xid="48"),),
        quiet_at=("29m45s", "41m"),
    ),
    Case(
        "gpuscope: a repeated XID is visible through DCGM_EXP_XID_ERRORS_TOTAL",
        "GPUXidCritical",
        (
            up(),
            *temps(0),
            Series(XID, gpu_labels(0, extra=_CRIT_95), flat(95)),
            Series("DCGM_EXP_XID_ERRORS_TOTAL", gpu_labels(0, extra={"xid": "95"}), change(1, 2)),
        ),
        fires_by="31m",
        expected=(identity(0, xid="95"),),
        quiet_at=("29m45s",),
    ),
    Case(
        "near miss: XID 79 pages as GPUFellOffBus, not twice",
        "GPUXidCritical",
        (
            up(),
            Series(TEMP, gpu_labels(0), until(60)),
            Series(XID, gpu_labels(0, extra={"err_code": "0", "err_msg": "No Error"}), until(0)),
            Series(XID, gpu_labels(0, extra=_CRIT_79), from_("79")),
            Series("DCGM_EXP_XID_ERRORS_TOTAL", gpu_labels(0, extra={"xid": "79"}), change(0, 1)),
        ),
        quiet_at=("31m", "35m"),
    ),
    Case(
        "dcgm-exporter with DCGM_EXP_XID_ERRORS_COUNT enabled",
        "GPUXidCritical",
        (
            up(),
            *temps(0),
            Series("DCGM_EXP_XID_ERRORS_COUNT", gpu_labels(0, extra={"window_size_in_ms": "300000"}), until(0)),
            Series(
                "DCGM_EXP_XID_ERRORS_COUNT",
                gpu_labels(0, extra={"window_size_in_ms": "300000", "xid": "95"}),
                from_("1", total="35m"),
            ),
        ),
        fires_by="31m",
        expected=(identity(0, xid="95"),),
        quiet_at=("29m45s",),
    ),
    Case(
        "near miss: a non-critical XID (13, graphics exception)",
        "GPUXidCritical",
        (
            up(),
            *temps(0),
            Series(XID, gpu_labels(0, extra={"err_code": "13", "err_msg": "Graphics Engine Exception"}), from_("13")),
        ),
        quiet_at=("31m", "35m"),
    ),
    Case(
        "near miss: an old sticky XID that was already there 10 minutes ago",
        "GPUXidCritical",
        (
            up(),
            *temps(0),
            Series(XID, gpu_labels(0, extra={"err_code": "48", "err_msg": "Double Bit ECC Error"}), flat(48)),
        ),
        quiet_at=("31m", "50m"),
    ),
    Case(
        "near miss: exporter down right after an XID counter moved",
        "GPUXidCritical",
        (
            up(values=change(1, 0, start="31m")),
            Series("DCGM_EXP_XID_ERRORS_TOTAL", gpu_labels(0, extra={"xid": "95"}), "1x119 2x3 stale"),
        ),
        quiet_at=("32m", "35m"),
    ),
)

DBE = (
    Case(
        "gpuscope/dcgm-exporter with ECC fields: volatile double-bit errors increase",
        "GPUDoubleBitEccErrors",
        (
            up(),
            *temps(0, 1),
            Series("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", gpu_labels(1), change(0, 1)),
            Series("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", gpu_labels(0), flat(0)),
        ),
        fires_by="31m",
        expected=(identity(1),),
        quiet_at=("29m45s",),
    ),
    Case(
        "dcgm-exporter default fields: rows remapped for uncorrectable errors",
        "GPUDoubleBitEccErrors",
        (up(), *temps(0), Series("DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS", gpu_labels(0), change(0, 2))),
        fires_by="31m",
        expected=(identity(0),),
        quiet_at=("29m45s",),
    ),
    Case(
        "one failed scrape (up 0, every series stale) neither resolves nor re-pages a firing DBE alert",
        "GPUDoubleBitEccErrors",
        (
            missed_up(at="32m"),
            Series(TEMP, gpu_labels(0), flat_missed(60, at="32m")),
            Series("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", gpu_labels(0), change_missed(0, 1, at="32m")),
        ),
        fires_by="31m",
        expected=(identity(0),),
        # the increase is in the 5-minute window until 35m: the missed scrape at 32m must not end the page
        still_firing_at=("32m", "32m15s", "34m45s"),
        quiet_at=("29m45s",),
    ),
    Case(
        "near miss: only single-bit errors grow, and a restart resets the volatile DBE counter",
        "GPUDoubleBitEccErrors",
        (
            up(),
            *temps(0),
            Series("DCGM_FI_DEV_ECC_SBE_VOL_TOTAL", gpu_labels(0), grow(3, 1)),
            Series("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", gpu_labels(0), change(3, 0)),
        ),
        quiet_at=("31m", "33m"),
    ),
)

ROW_REMAP = (
    Case(
        "row remapping failed",
        "GPURowRemapFailure",
        (up(), *temps(0), Series("DCGM_FI_DEV_ROW_REMAP_FAILURE", gpu_labels(0), change(0, 1))),
        fires_by="31m",
        expected=(identity(0),),
        quiet_at=("29m45s",),
    ),
    Case(
        "a remap is pending a GPU reset",
        "GPURowRemapFailure",
        (up(), *temps(0), Series("DCGM_FI_DEV_ROW_REMAP_PENDING", gpu_labels(0), change(0, 1))),
        fires_by="31m",
        expected=(identity(0),),
    ),
    Case(
        "one failed scrape (up 0, every series stale) neither resolves nor re-pages a pending remap",
        "GPURowRemapFailure",
        (
            missed_up(),
            Series(TEMP, gpu_labels(0), flat_missed(60)),
            Series("DCGM_FI_DEV_ROW_REMAP_PENDING", gpu_labels(0), change_missed(0, 1)),
        ),
        fires_by="31m",
        expected=(identity(0),),
        still_firing_at=(MISSED, "35m15s", "35m30s"),
    ),
    Case(
        "near miss: correctable remaps only",
        "GPURowRemapFailure",
        (
            up(),
            *temps(0),
            Series("DCGM_FI_DEV_ROW_REMAP_FAILURE", gpu_labels(0), flat(0)),
            Series("DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS", gpu_labels(0), grow(1, 1)),
        ),
        quiet_at=("31m", "40m"),
    ),
)

THERMAL = (
    Case(
        "dcgm-exporter default fields: the GPU sits at its slowdown temperature",
        "GPUThermalThrottling",
        (up(), Series(TEMP, gpu_labels(0), change(70, 88)), *temps(1)),
        fires_by="35m",
        expected=(identity(0),),
        quiet_at=("32m",),
    ),
    Case(
        "gpuscope: thermal violation time grows at full rate",
        "GPUThermalThrottling",
        (up(), *temps(0, values=flat(70)), Series("DCGM_FI_DEV_THERMAL_VIOLATION", gpu_labels(0), grow(0, 15e9))),
        fires_by="35m",
        expected=(identity(0),),
        quiet_at=("29m45s",),
    ),
    Case(
        "gpuscope: thermal clock events counted in the window",
        "GPUThermalThrottling",
        (
            up(),
            *temps(0, values=flat(70)),
            Series(
                "DCGM_EXP_CLOCK_EVENTS_COUNT",
                gpu_labels(0, extra={"clock_event": "sw_thermal", "window_size_in_ms": "300000"}),
                from_("4"),
            ),
        ),
        fires_by="35m",
        expected=(identity(0),),
        quiet_at=("29m45s",),
    ),
    Case(
        "near miss: a warm GPU, and a one-minute spike",
        "GPUThermalThrottling",
        (
            up(),
            Series(TEMP, gpu_labels(0), flat(84)),
            Series(TEMP, gpu_labels(1), "70x119 90x3 70x116"),
            Series("DCGM_FI_DEV_THERMAL_VIOLATION", gpu_labels(0), grow(0, 1e9)),
        ),
        quiet_at=("33m", "36m", "45m"),
    ),
)

NVLINK = (
    Case(
        "NVLink CRC flit errors keep increasing",
        "GPUNVLinkErrors",
        (up(), *temps(0), Series("DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL", gpu_labels(0), grow(12, 5))),
        fires_by="35m",
        expected=(identity(0),),
        quiet_at=("29m45s",),
    ),
    Case(
        "Hopper data-link replay counter increases",
        "GPUNVLinkErrors",
        (up(), *temps(0), Series("DCGM_FI_DEV_NVLINK_REPLAY_TOTAL", gpu_labels(0), grow(0, 1))),
        fires_by="35m",
        expected=(identity(0),),
    ),
    Case(
        "near miss: old errors, counters flat",
        "GPUNVLinkErrors",
        (
            up(),
            *temps(0),
            Series("DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL", gpu_labels(0), flat(12)),
            Series("DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL", gpu_labels(0), flat(2)),
        ),
        quiet_at=("35m", "50m"),
    ),
    Case(
        "NVLink5: packets received with errors keep increasing",
        "GPUNVLinkErrors",
        (up(), *temps(0), Series("DCGM_FI_DEV_NVLINK_COUNT_RX_ERRORS", gpu_labels(0), grow(0, 40))),
        fires_by="35m",
        expected=(identity(0),),
    ),
    Case(
        "near miss: NVLink5 symbol errors before FEC and successful recoveries grow",
        "GPUNVLinkErrors",
        (
            up(),
            *temps(0),
            Series("DCGM_FI_DEV_NVLINK_COUNT_RX_SYMBOL_ERRORS", gpu_labels(0), grow(0, 900)),
            Series("DCGM_FI_DEV_NVLINK_COUNT_LINK_RECOVERY_SUCCESSFUL_EVENTS", gpu_labels(0), grow(0, 1)),
            Series("DCGM_FI_DEV_NVLINK_COUNT_EFFECTIVE_ERRORS", gpu_labels(0), flat(3)),
        ),
        quiet_at=("35m", "50m"),
    ),
)

FABRIC = (
    Case(
        "fabric health goes to limited capacity",
        "GPUFabricDegraded",
        (up(), *temps(0, 1), Series("DCGM_FI_DEV_FABRIC_HEALTH_SUMMARY", gpu_labels(1), change(1, 3))),
        fires_by="33m",
        expected=(identity(1),),
        quiet_at=("29m45s",),
    ),
    Case(
        "fabric manager failed to start",
        "GPUFabricDegraded",
        (up(), *temps(0), Series("DCGM_FI_DEV_FABRIC_MANAGER_STATUS", gpu_labels(0), change(2, 4))),
        fires_by="33m",
        expected=(identity(0),),
    ),
    Case(
        "near miss: healthy fabric, manager still starting, then up",
        "GPUFabricDegraded",
        (
            up(),
            *temps(0),
            Series("DCGM_FI_DEV_FABRIC_HEALTH_SUMMARY", gpu_labels(0), flat(1)),
            Series("DCGM_FI_DEV_FABRIC_MANAGER_STATUS", gpu_labels(0), change(2, 3)),
        ),
        quiet_at=("35m", "50m"),
    ),
)

LOWERCASE = RulesConfig(host_label="hostname")

HOSTNAME_VARIANT = (
    Case(
        "dcgm-exporter >= 4.8.3 (hostname label): a GPU's series vanish",
        "GPUFellOffBus",
        (
            up(),
            Series(TEMP, gpu_labels(0, host_label="hostname"), until(60)),
            Series(TEMP, gpu_labels(1, host_label="hostname"), flat(60)),
        ),
        fires_by="32m",
        expected=(identity(0, host_label="hostname"),),
        config=LOWERCASE,
    ),
    Case(
        "A100 without profiling metrics, hostname label: thermal",
        "GPUThermalThrottling",
        (up(), Series(TEMP, gpu_labels(0, model=A100, host_label="hostname"), change(70, 89))),
        fires_by="35m",
        expected=(identity(0, host_label="hostname"),),
        config=LOWERCASE,
    ),
)

CASES = (
    FELL_OFF_BUS + SWAPPED + SWAP_COUNTS + XID_CRITICAL + DBE + ROW_REMAP + THERMAL + NVLINK + FABRIC + HOSTNAME_VARIANT
)

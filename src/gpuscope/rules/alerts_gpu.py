"""Hardware-health alerts (owner: infra). Each works on dcgm-exporter's series; gpuscope's own series, where they
exist, are one more source of the same signal. Every source is reduced to one series per GPU
(``max by (instance, UUID, gpu, Hostname)``) so that ``or`` merges them and Alertmanager sees one alert per GPU.
"""

from __future__ import annotations

from gpuscope.rules.model import Alert, Group, Runbook
from gpuscope.rules.promql import Promql, alternatives, regex_of

FELL_OFF_BUS_XID = 79
# Every NVLink error counter either exporter may serve (per-GPU totals; which ones exist depends on the GPU).
NVLINK_ERROR_FIELDS = (
    "DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL",
    "DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL",
    "DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL",
    "DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL",
    "DCGM_FI_DEV_NVLINK_CRC_ERROR_TOTAL",
    "DCGM_FI_DEV_NVLINK_RECOVERY_TOTAL",
    "DCGM_FI_DEV_NVLINK_REPLAY_TOTAL",
)
THERMAL_EVENTS = 'clock_event=~"sw_thermal|hw_thermal"'
_GPU_DESC = "GPU {{ $labels.gpu }} ({{ $labels.UUID }}) on {{ $labels.Hostname }} ({{ $labels.instance }})"


def _desc(q: Promql, text: str) -> str:
    c = q.config
    who = _GPU_DESC.replace("$labels.UUID", f"$labels.{c.uuid_label}").replace(
        "$labels.Hostname", f"$labels.{c.host_label}"
    )
    return f"{who} {text}"


def fell_off_bus(q: Promql) -> Alert:
    c, g = q.config, q.gpu_id
    temp = q.dcgm("DCGM_FI_DEV_GPU_TEMP")
    # Three sources, any one enough. gpuscope's lost gauge and dcgm-exporter's last-XID gauge at 79 page at once;
    # the last-XID gauge is sticky after recovery, so it counts only while the GPU is not reporting. A GPU that
    # merely vanishes counts after a whole minute without a sample, so one slow scrape is not a lost GPU.
    vanished = (
        f"(max by ({g}) (max_over_time(gpu:present:max1m[1h])) unless on ({c.uuid_label}) "
        f"present_over_time({temp}[1m]))\n"
        f"and on (instance) {q.up} == 1"
    )
    expr = alternatives(
        f"max by ({g}) ({q.exporter('gpuscope_exporter_gpu_lost')} == 1)",
        f"max by ({g}) ({q.dcgm('DCGM_FI_DEV_XID_ERRORS')} == {FELL_OFF_BUS_XID} unless on ({c.uuid_label}) {temp})",
        vanished,
    )
    return Alert(
        name="GPUFellOffBus",
        expr=expr,
        severity="page",
        owner="infra",
        summary="A GPU has fallen off the bus (XID 79) and stopped reporting.",
        description=_desc(q, "is lost: the exporter is up but the GPU no longer answers (XID 79 / NVML GPU_IS_LOST)."),
        runbook=Runbook(
            meaning="The driver lost contact with the GPU over PCIe. Every job on it has failed or hangs; the GPU will "
            "not come back without a reset or a reboot.",
            confirm=(
                f"gpuscope_exporter_gpu_lost{{{c.exporter_selector}}} == 1",
                f"max_over_time(gpu:present:max1m[1h]) unless on ({c.uuid_label}) {temp}",
                "$ dmesg | grep -i 'xid.*79'   # on the node",
            ),
            actions=(
                "Cordon/drain the node so the scheduler stops placing work on it.",
                "Collect `nvidia-bug-report.sh` before resetting (evidence for an RMA).",
                "Try `nvidia-smi -r -i <gpu>`; if it fails, reboot. Repeated XID 79 on one GPU: open an RMA.",
                "Check PCIe riser/power/thermals if several GPUs of one node fall off together.",
            ),
        ),
        bound="2m",
    )


def xid_critical(q: Promql) -> Alert:
    c, g = q.config, q.gpu_id
    # XID 79 has its own page (GPUFellOffBus): paging it here too would page twice, and again after the reset.
    crit = regex_of(tuple(x for x in c.critical_xids if x != FELL_OFF_BUS_XID))
    last = q.dcgm("DCGM_FI_DEV_XID_ERRORS", f'err_code=~"{crit}"')
    xids = f'xid=~"{crit}"'
    expr = alternatives(
        f"max by ({g}, xid) (increase({q.dcgm('DCGM_EXP_XID_ERRORS_TOTAL', xids)}[10m]) > 0)",
        f"max by ({g}, xid) ({q.dcgm('DCGM_EXP_XID_ERRORS_COUNT', xids)} > 0)",
        # dcgm-exporter's last-XID gauge carries the code as err_code, so a new XID is a new series: fire while
        # a critical-XID series exists that did not exist 10 minutes ago.
        f"max by ({g}, xid) (label_replace(\n"
        f"  {last} unless on (instance, {c.uuid_label}, gpu, err_code) {last} offset 10m,\n"
        f'  "xid", "$1", "err_code", "(.+)"))',
    )
    return Alert(
        name="GPUXidCritical",
        expr=q.unless_exporter_down(expr),
        severity="page",
        owner="infra",
        summary="A GPU reported a critical XID error.",
        description=_desc(q, "reported XID {{ $labels.xid }} in the last 10 minutes."),
        runbook=Runbook(
            meaning="The driver reported an XID that means a hardware or firmware fault (ECC, NVLink, fallen off the "
            "bus, GSP hang). The job on the GPU has likely failed; the GPU may need a reset.",
            confirm=(
                f"DCGM_FI_DEV_XID_ERRORS{{{c.exporter_selector}}} != 0",
                f"increase(DCGM_EXP_XID_ERRORS_TOTAL{{{c.exporter_selector}}}[1h]) > 0",
                "$ dmesg | grep -i xid   # on the node: the XID line names the failing engine",
            ),
            actions=(
                "Look the XID up in NVIDIA's XID catalogue (the err_msg label has its title).",
                "48/63/64/94/95/140: memory errors — check GPUDoubleBitEccErrors / GPURowRemapFailure; drain and "
                "reset.",
                "74: NVLink — check GPUNVLinkErrors and the peer GPU.",
                "79 is never paged here: it pages as GPUFellOffBus.",
                "119/120: GSP hang — reset the GPU; upgrade the driver if it repeats.",
            ),
        ),
        bound="1m",
    )


def dbe(q: Promql) -> Alert:
    g = q.gpu_id
    expr = alternatives(
        f"max by ({g}) (increase({q.dcgm('DCGM_FI_DEV_ECC_DBE_VOL_TOTAL')}[5m]) > 0)",
        f"max by ({g}) (increase({q.dcgm('DCGM_FI_DEV_ECC_DBE_AGG_TOTAL')}[5m]) > 0)",
        f"max by ({g}) (increase({q.dcgm('DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS')}[5m]) > 0)",
    )
    return Alert(
        name="GPUDoubleBitEccErrors",
        expr=q.unless_exporter_down(expr),
        severity="page",
        owner="infra",
        summary="A GPU has new uncorrectable (double-bit) ECC errors.",
        description=_desc(q, "has new double-bit ECC errors or rows remapped for uncorrectable errors."),
        runbook=Runbook(
            meaning="Uncorrectable memory errors: the data a job read may be corrupt and the job usually dies with XID "
            "48/94/95. The driver retires the page or remaps the row; a reset applies the remap.",
            confirm=(
                "increase(DCGM_FI_DEV_ECC_DBE_VOL_TOTAL[1h]) > 0",
                "increase(DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS[1h]) > 0",
            ),
            actions=(
                "Drain the node; tell the job owner their results since the error may be corrupt.",
                "Reset the GPU to apply pending row remaps; check GPURowRemapFailure afterwards.",
                "Repeated DBEs on one GPU: RMA.",
            ),
        ),
        bound="1m",
    )


def row_remap_failure(q: Promql) -> Alert:
    g = q.gpu_id
    expr = alternatives(
        f"max by ({g}) ({q.dcgm('DCGM_FI_DEV_ROW_REMAP_FAILURE')} == 1)",
        f"max by ({g}) ({q.dcgm('DCGM_FI_DEV_ROW_REMAP_PENDING')} == 1)",
        f"max by ({g}) ({q.dcgm('DCGM_FI_DEV_RETIRED_PENDING')} > 0)",
    )
    return Alert(
        name="GPURowRemapFailure",
        expr=q.unless_exporter_down(expr),
        severity="page",
        owner="infra",
        summary="A GPU failed to remap memory rows, or has remaps/retirements waiting for a reset.",
        description=_desc(q, "reports a row-remap failure or remaps/page retirements pending a reset."),
        runbook=Runbook(
            meaning="Row remapping (Ampere and newer) or page retirement (older GPUs) could not isolate bad memory, or "
            "is waiting for a GPU reset to take effect. Until then the bad memory can still be used.",
            confirm=("DCGM_FI_DEV_ROW_REMAP_FAILURE == 1", "DCGM_FI_DEV_ROW_REMAP_PENDING == 1"),
            actions=(
                "Drain the node and reset the GPU (`nvidia-smi -r`) to apply pending remaps.",
                "A remap *failure* means the bank has no spare rows left: the GPU needs an RMA.",
            ),
        ),
        bound="1m",
    )


def thermal(q: Promql) -> Alert:
    c, g, t = q.config, q.gpu_id, q.config.thresholds
    expr = alternatives(
        f"max by ({g}) (rate({q.dcgm('DCGM_FI_DEV_THERMAL_VIOLATION')}[2m]) > {t.thermal_violation_ratio:g} * 1e9)",
        f"max by ({g}) ({q.dcgm('DCGM_EXP_CLOCK_EVENTS_COUNT', THERMAL_EVENTS)} > 0)",
        f"max by ({g}) (rate({q.dcgm('DCGM_EXP_CLOCK_EVENTS_TOTAL', THERMAL_EVENTS)}[2m]) > 0)",
        f"max by ({g}) ({q.dcgm('DCGM_FI_DEV_GPU_TEMP')} >= {t.thermal_temperature_celsius})",
    )
    return Alert(
        name="GPUThermalThrottling",
        expr=q.unless_exporter_down(expr),
        severity="ticket",
        owner="infra",
        summary="A GPU is thermally throttling.",
        description=_desc(q, "has been thermally throttled (clocks lowered to cool down) for several minutes."),
        runbook=Runbook(
            meaning="The GPU lowers its clocks to stay under its temperature limit: jobs run slower, and one slow GPU "
            "slows every GPU of a synchronous training job.",
            confirm=(
                "rate(DCGM_FI_DEV_THERMAL_VIOLATION[5m]) / 1e9   # share of time throttled",
                f"DCGM_FI_DEV_GPU_TEMP >= {t.thermal_temperature_celsius}",
                f"DCGM_EXP_CLOCK_EVENTS_COUNT{{{c.exporter_selector},{THERMAL_EVENTS}}}",
            ),
            actions=(
                "Compare with the node's other GPUs: one hot GPU points at its heatsink/fan/airflow, a whole hot node "
                "at the rack (inlet temperature, blocked airflow, failed fans).",
                "Check data-centre cooling alarms for the row.",
                "If it persists, drain the node and open a hardware ticket.",
            ),
        ),
        bound="5m",
        for_="3m",
    )


def nvlink(q: Promql) -> Alert:
    g, n = q.gpu_id, q.config.thresholds.nvlink_errors_per_5m
    expr = alternatives(*(f"max by ({g}) (increase({q.dcgm(f)}[5m]) > {n})" for f in NVLINK_ERROR_FIELDS))
    return Alert(
        name="GPUNVLinkErrors",
        expr=q.unless_exporter_down(expr),
        severity="ticket",
        owner="infra",
        summary="NVLink errors are increasing on a GPU.",
        description=_desc(q, "has NVLink CRC, replay or recovery errors increasing."),
        runbook=Runbook(
            meaning="NVLink is retrying or recovering links: collective operations (NCCL all-reduce) slow down and, if "
            "a link goes down, jobs fail with XID 74.",
            confirm=(
                "increase(DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL[15m]) > 0",
                "$ nvidia-smi nvlink -e   # on the node",
            ),
            actions=(
                "See which links: `nvidia-smi nvlink -s` and the per-link DCGM_FI_DEV_NVLINK_*_PER_LINK_TOTAL series.",
                "Errors on the same link of two GPUs point at the NVSwitch/baseboard; on one GPU, at that GPU.",
                "Drain and reseat/replace per the vendor procedure if errors keep growing.",
            ),
        ),
        bound="5m",
        for_="2m",
    )


def infra_group(q: Promql) -> Group:
    return Group(
        name="gpuscope-gpu-health.alerts",
        rules=(fell_off_bus(q), xid_critical(q), dbe(q), row_remap_failure(q), thermal(q), nvlink(q)),
        file="alerts",
    )

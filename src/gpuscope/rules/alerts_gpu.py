"""Hardware-health alerts (owner: infra). Each works on dcgm-exporter's series; gpuscope's own series, where they
exist, are one more source of the same signal. Every source is reduced to one series per GPU
(``max by (instance, UUID, gpu, Hostname)``) so that ``or`` merges them and Alertmanager sees one alert per GPU.
"""

from __future__ import annotations

from gpuscope.fields.clock_events import THERMAL_EVENTS
from gpuscope.fields.nvlink_errors import NVLINK_ERROR_FIELDS
from gpuscope.fields.xid import GPU_FELL_OFF_BUS, xid_action, xid_info
from gpuscope.rules.promql import Promql, alternatives, regex_of
from gpuscope.rules.recording import MOVED_1H, PCI_BUS_ID, PRESENT_1H
from gpuscope.rules.records import MINUTE_INTERVAL, Alert, Group, Runbook

# DCGM_FI_DEV_FABRIC_HEALTH_SUMMARY: 2 unhealthy, 3 limited capacity; DCGM_FI_DEV_FABRIC_MANAGER_STATUS 4: failure.
FABRIC_UNHEALTHY = (2, 3)
FABRIC_MANAGER_FAILURE = 4
_GPU_DESC = "GPU {{ $labels.gpu }} ({{ $labels.UUID }}) on {{ $labels.Hostname }} ({{ $labels.instance }})"


def _desc(q: Promql, text: str) -> str:
    c = q.config
    who = _GPU_DESC.replace("$labels.UUID", f"$labels.{c.uuid_label}").replace(
        "$labels.Hostname", f"$labels.{c.host_label}"
    )
    return f"{who} {text}"


def _appeared(q: Promql, selector: str, key: str, window: str) -> str:
    """Series of ``selector`` that exist now and did not in the hour before the last ``window``.

    An XID reaches Prometheus as a new series (a last-XID gauge labelled with its code, or a counter born at the
    first XID), so "new" fires at the first evaluation that sees it, for ``window``, and never again for the same
    GPU and code within the hour: not on a sticky gauge, not when an exporter restart or a replaced pod (another
    ``instance``) brings the same series back. Matching on the UUID, not the instance, is what makes a new pod
    the same GPU.
    """
    u = q.config.uuid_label
    return f"{selector} unless on ({u}, {key}) max_over_time({selector}[1h] offset {window})"


def _xid_label(expr: str) -> str:
    return f'label_replace({expr}, "xid", "$1", "err_code", "(.+)")'


def _template_string(text: str) -> str:
    """``text`` as a Go template string constant."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _action_by_xid(codes: tuple[int, ...]) -> str:
    """The ``action`` annotation of an alert labelled ``xid``: the catalogue's action for that code."""
    branches = "".join(
        f"{{{{ {'if' if i == 0 else 'else if'} eq $labels.xid {_template_string(str(code))} }}}}{xid_action(code)}"
        for i, code in enumerate(codes)
    )
    return f"{branches}{{{{ else }}}}Look it up: gpuscope xid {{{{ $labels.xid }}}}{{{{ end }}}}"


def _xid_lines(codes: tuple[int, ...]) -> tuple[str, ...]:
    lines = []
    for code in codes:
        info = xid_info(code)
        source = f"catalogue bucket {info.bucket}" if info.from_catalog else f"{info.bucket}, gpuscope's call"
        lines.append(f"XID {code} ({info.message}; {source}): {info.action}")
    return tuple(lines)


def _unlabelled_xid(q: Promql, codes: tuple[int, ...]) -> tuple[str, ...]:
    """dcgm-exporter before 3.3.6: the last-XID gauge has no ``err_code`` label, its value is the code, and the
    ``DCGM_EXP_XID_ERRORS_*`` series are not in its default counters. A critical code is then the gauge's own
    value, new when the gauge changed within the window; one alternative per code, so each page is labelled with
    its ``xid``. On newer exporters every gauge carries ``err_code`` (``"0"`` when healthy), the selector matches
    nothing and the alternatives cost an index lookup. Limits of such an exporter: a second XID of the same code in
    a row does not change the gauge and cannot be seen."""
    gauge = q.dcgm("DCGM_FI_DEV_XID_ERRORS", 'err_code=""')
    g = q.gpu_id
    return tuple(
        f'label_replace(max by ({g}) ({gauge} == {code} and changes({gauge}[10m]) > 0), "xid", "{code}", "", "")'
        for code in codes
    )


def fell_off_bus(q: Promql) -> Alert:
    c, g = q.config, q.gpu_id
    u = c.uuid_label
    temp = q.dcgm("DCGM_FI_DEV_GPU_TEMP")
    # The last-XID gauge labels its value as err_code where the exporter has that label, so only a GPU whose last
    # XID is 79 (or an old exporter's unlabelled gauge) is read: the hour-long look-back below otherwise scans every
    # GPU's gauge, which sits at 0 on a healthy GPU, on every evaluation.
    last = q.dcgm("DCGM_FI_DEV_XID_ERRORS", f'err_code=~"{GPU_FELL_OFF_BUS}|"')
    xid79 = f'xid="{GPU_FELL_OFF_BUS}"'
    total = q.dcgm("DCGM_EXP_XID_ERRORS_TOTAL", xid79)
    # Every way XID 79 or a lost GPU reaches Prometheus, each enough on its own and none waiting for another
    # series to go away: DCGM keeps serving a lost GPU's last readings for a while, so the XID pages from its
    # first sample. XID 79 "appears" for 15 minutes, which covers that while; after it, a GPU that still shows
    # 79 and no longer reports keeps the page up, and a sticky 79 on a GPU that reports again lets it resolve.
    # A GPU that merely vanishes counts after a whole minute without a sample, so one slow scrape is not a lost GPU.
    # It must be that GPU alone: an exporter that serves no GPU at all (just restarted, before its first
    # collection) is the exporter's state, not a lost GPU. And it must have no successor: a slot (host, index and
    # PCI bus id) that answers with a GPU new to it was swapped, not lost (a node back from maintenance with a new
    # GPU); a GPU that merely moved into the slot (re-indexed after the slot's own GPU vanished) is no successor.
    slot = f"{c.host_label}, gpu, {PCI_BUS_ID}"
    vanished = (
        f"max by ({g}) (\n"
        f"(max by ({g}, {PCI_BUS_ID}) ({PRESENT_1H}) unless on ({u}) present_over_time({temp}[1m]))\n"
        f"unless on ({slot}) ({temp} unless on ({u}) {MOVED_1H})\n"
        f")\n"
        f"and on (instance) {q.up} == 1\n"
        f"and on (instance) count by (instance) ({temp}) > 0"
    )
    expr = alternatives(
        f"max by ({g}) ({q.exporter('gpuscope_exporter_gpu_lost')} == 1)",
        f"max by ({g}) ({last} == {GPU_FELL_OFF_BUS} unless on ({u}) "
        f"(max_over_time({last}[1h] offset 15m) == {GPU_FELL_OFF_BUS}))",
        f"max by ({g}) ({last} == {GPU_FELL_OFF_BUS} unless on ({u}) {temp})",
        f"max by ({g}) ({q.dcgm('DCGM_EXP_XID_ERRORS_COUNT', xid79)} > 0)",
        f"max by ({g}) (increase({total}[10m]) > 0)",
        f"max by ({g}) ({_appeared(q, total, 'xid', '10m')})",
        vanished,
    )
    return Alert(
        name="GPUFellOffBus",
        expr=expr,
        severity="page",
        owner="infra",
        summary="A GPU has fallen off the bus (XID 79) and stopped reporting.",
        description=_desc(
            q, "is lost: XID 79 / NVML GPU_IS_LOST, or the exporter is up but the GPU no longer answers."
        ),
        runbook=Runbook(
            meaning="The driver lost contact with the GPU over PCIe. Every job on it has failed or hangs; the GPU will "
            "not come back without a reset or a reboot. Every XID 79 pages here, whichever way it reaches Prometheus "
            "(the last-XID gauge, DCGM_EXP_XID_ERRORS_COUNT or DCGM_EXP_XID_ERRORS_TOTAL), and never as "
            "GPUXidCritical; while this fires, Alertmanager holds back the GPU's other alerts. A GPU that stopped "
            "reporting pages unless its slot (host, GPU index and PCI bus id) answers with a GPU new to it: a GPU "
            "swapped during maintenance is not a lost GPU, and does not page.",
            confirm=(
                f"gpuscope_exporter_gpu_lost{{{c.exporter_selector}}} == 1",
                f"DCGM_FI_DEV_XID_ERRORS{{{c.exporter_selector}}} == {GPU_FELL_OFF_BUS}",
                f"max_over_time(gpu:present:max1m[1h]) unless on ({u}) {temp}",
                "$ dmesg | grep -i 'xid.*79'   # on the node",
            ),
            actions=(
                "Cordon/drain the node so the scheduler stops placing work on it.",
                *_xid_lines((GPU_FELL_OFF_BUS,)),
                "Try `nvidia-smi -r -i <gpu>` only if the GPU still enumerates (`lspci`); otherwise reboot.",
                "Check PCIe riser/power/thermals if several GPUs of one node fall off together.",
            ),
        ),
        bound="2m",
        # An exporter restart or a missed scrape must not resolve and re-page a lost GPU.
        keep_firing_for="2m",
        action=xid_action(GPU_FELL_OFF_BUS),
    )


def xid_critical(q: Promql) -> Alert:
    c, g = q.config, q.gpu_id
    # XID 79 has its own page (GPUFellOffBus): the two rules are disjoint, so one event is one page.
    codes = tuple(x for x in c.critical_xids if x != GPU_FELL_OFF_BUS)
    crit = regex_of(codes)
    last = q.dcgm("DCGM_FI_DEV_XID_ERRORS", f'err_code=~"{crit}"')
    total = q.dcgm("DCGM_EXP_XID_ERRORS_TOTAL", f'xid=~"{crit}"')
    window = q.dcgm("DCGM_EXP_XID_ERRORS_COUNT", f'xid=~"{crit}"')
    expr = alternatives(
        f"max by ({g}, xid) (increase({total}[10m]) > 0)",
        # gpuscope creates a code's counter at its first XID, at 1: increase() cannot see that step.
        f"max by ({g}, xid) ({_appeared(q, total, 'xid', '10m')})",
        f"max by ({g}, xid) ({window} > 0)",
        # The last-XID gauge carries the code as err_code, so a new XID is a new series.
        f"max by ({g}, xid) ({_xid_label(_appeared(q, last, 'err_code', '10m'))})",
        *_unlabelled_xid(q, codes),
    )
    return Alert(
        name="GPUXidCritical",
        expr=q.unless_exporter_down(expr),
        severity="page",
        owner="infra",
        summary="A GPU reported a critical XID error.",
        description=_desc(q, "reported XID {{ $labels.xid }} in the last 10 minutes."),
        runbook=Runbook(
            meaning="The driver reported an XID that means a hardware or firmware fault (ECC, NVLink, GSP hang). The "
            "job on the GPU has likely failed; the GPU may need a reset. XID 79 pages as GPUFellOffBus instead.",
            confirm=(
                f"DCGM_FI_DEV_XID_ERRORS{{{c.exporter_selector}}} != 0",
                f"increase(DCGM_EXP_XID_ERRORS_TOTAL{{{c.exporter_selector}}}[1h]) > 0",
                "$ dmesg | grep -i xid   # on the node: the XID line names the failing engine",
                "$ gpuscope xid <code>   # the catalogue's recommended action",
            ),
            actions=(
                "Do what the alert's `action` annotation says (the catalogue's action for its XID):",
                *_xid_lines(codes),
                "Memory XIDs: check GPUDoubleBitEccErrors / GPURowRemapFailure; NVLink XIDs: GPUNVLinkErrors.",
            ),
        ),
        bound="1m",
        # An exporter restart while the XID is fresh must not resolve and re-page it.
        keep_firing_for="1m",
        action=_action_by_xid(codes),
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


def fabric(q: Promql) -> Alert:
    g = q.gpu_id
    expr = alternatives(
        f"max by ({g}) ({q.dcgm('DCGM_FI_DEV_FABRIC_HEALTH_SUMMARY')} == {FABRIC_UNHEALTHY[0]} "
        f"or {q.dcgm('DCGM_FI_DEV_FABRIC_HEALTH_SUMMARY')} == {FABRIC_UNHEALTHY[1]})",
        f"max by ({g}) ({q.dcgm('DCGM_FI_DEV_FABRIC_MANAGER_STATUS')} == {FABRIC_MANAGER_FAILURE})",
    )
    return Alert(
        name="GPUFabricDegraded",
        expr=q.unless_exporter_down(expr),
        severity="ticket",
        owner="infra",
        summary="A GPU's NVLink fabric is unhealthy or running at limited capacity.",
        description=_desc(q, "reports its NVLink fabric unhealthy or degraded (fabric health summary / manager)."),
        runbook=Runbook(
            meaning="The GPU's NVLink fabric (NVSwitch trays, NVLink5 on B200/GB200) lost bandwidth or routes, or the "
            "fabric manager failed: multi-GPU and multi-node collectives slow down or fail to start.",
            confirm=(
                "DCGM_FI_DEV_FABRIC_HEALTH_SUMMARY >= 2",
                "DCGM_FI_DEV_FABRIC_MANAGER_STATUS == 4",
                "$ nvidia-smi -q | grep -A8 -i fabric   # on the node: state, status, clique, health",
            ),
            actions=(
                "Several GPUs of one NVLink domain at once point at an NVSwitch tray or the fabric manager "
                "(`systemctl status nvidia-fabricmanager`, NMX on GB200 racks); one GPU, at its links.",
                "Check DCGM_FI_DEV_NVLINK_COUNT_* error counters of the affected GPUs (GPUNVLinkErrors).",
                "Drain the node or rack from multi-node jobs and follow the vendor's fabric recovery procedure.",
            ),
        ),
        bound="5m",
        for_="2m",
    )


def infra_group(q: Promql) -> Group:
    """The hardware pages, every evaluation (15 s): a lost GPU, critical XIDs, ECC and row-remap failures."""
    return Group(
        name="gpuscope-gpu-health.alerts",
        rules=(fell_off_bus(q), xid_critical(q), dbe(q), row_remap_failure(q)),
        file="alerts",
    )


def infra_minute_group(q: Promql) -> Group:
    """The hardware tickets, once a minute: each wants its condition to hold for minutes (``for``) within a bound
    that leaves a minute to spare, so a minute between evaluations costs at most 45 s of detection and reads
    every GPU's series four times less often. GPUNVLinkErrors reads every NVLink error counter of every GPU over 5
    minutes (11 counters, up to 20 samples each), the most expensive hardware alert; thermal throttling and fabric
    health read a violation counter over 2 minutes and the temperature and fabric gauges of every GPU."""
    return Group(
        name="gpuscope-gpu-health-1m.alerts",
        rules=(nvlink(q), thermal(q), fabric(q)),
        interval=MINUTE_INTERVAL,
        file="alerts",
    )

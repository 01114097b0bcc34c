"""NVLink fabric alerts (owner: infra): links down, NVSwitch SXids, per-link error rates, one page per partition.

On a rack-scale fabric one failing NVSwitch (tray) takes a link of every GPU of the NVLink domain with it: an
alert per GPU or per link would page 72 times for one fault. Every alert here is therefore shaped per
**partition**, the GPUs the fabric manager lets talk over NVLink, which share a cluster UUID and a clique id
(``DCGM_FI_DEV_FABRIC_CLUSTER_UUID``, a label field, and ``DCGM_FI_DEV_FABRIC_CLIQUE_ID``, NVML's
``nvmlGpuFabricInfo_v3``). A node whose GPUs report no fabric info (no clique field collected, a PCIe or
pre-Hopper GPU) is its own partition, ``node <host>``. The links or switches at fault are named in the
description (a ``query`` of the per-link and per-switch records, bounded) and in the runbook's confirm queries.

Series and labels are dcgm-exporter's (docs/rules.md "Fabric"): GPU links carry ``nvlink``, ``gpu``, ``gpu_uuid``
and the host label; NVSwitch series ``nvswitch="nvswitch<N>"`` and the host label; switch ports ``nvlink`` and
``nvswitch``. dcgm-exporter serves only links in state Up, so a link whose series stopped while its GPU's or
switch's other links still report counts as down, besides a state that says so.

The per-GPU counters stay GPUNVLinkErrors' and the per-GPU fabric health GPUFabricDegraded's (alerts_gpu.py);
the per-link alert here reads only the per-link counters and names the links.
"""

from __future__ import annotations

from gpuscope.rules.promql import Promql, alternatives
from gpuscope.rules.records import MINUTE_INTERVAL, Alert, Group, Recording, Runbook

# GPU-link state, DCGM_FI_DEV_NVLINK_GET_STATE (1508, NVML_FI_DEV_NVLINK_GET_STATE): 1 active, 0 inactive.
LINK_STATE = "DCGM_FI_DEV_NVLINK_GET_STATE"
LINK_ACTIVE, LINK_INACTIVE = 1, 0
# Switch-port status, DCGM_FI_DEV_NVSWITCH_LINK_STATUS (870): UNKNOWN -1, OFF 0, SAFE 1, ACTIVE 2, ERROR 3.
PORT_STATUS = "DCGM_FI_DEV_NVSWITCH_LINK_STATUS"
PORT_OFF, PORT_ACTIVE, PORT_ERROR = 0, 2, 3
# The last SXid of a switch (the value is the SXid number), fatal and non-fatal (856, 857).
SXID_FATAL = "DCGM_FI_DEV_SXID_FATAL_ERROR"
SXID_NON_FATAL = "DCGM_FI_DEV_SXID_NON_FATAL_ERROR"
CLIQUE = "DCGM_FI_DEV_FABRIC_CLIQUE_ID"
CLUSTER_UUID = "DCGM_FI_DEV_FABRIC_CLUSTER_UUID"  # a label field: a label of that name on the GPU's series
# Per-link error totals (DCGM_FE_LINK, 1525-1528): the ones that mean the link is retrying or failing.
PER_LINK_ERRORS = (
    "DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_PER_LINK_TOTAL",
    "DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_PER_LINK_TOTAL",
    "DCGM_FI_DEV_NVLINK_REPLAY_ERROR_PER_LINK_TOTAL",
    "DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_PER_LINK_TOTAL",
)

# The records: one series per GPU (its partition), per link or port down, per switch with an SXid.
GPU_PARTITION = "gpu:fabric_partition:info"
NODE_PARTITION = "node:fabric_partition:info"
LINK_DOWN = "nvlink:link_down:max"
PORT_DOWN = "nvswitch:port_down:max"
SWITCH_FATAL = "nvswitch:sxid_fatal:max"
SWITCH_NON_FATAL = "nvswitch:sxid_non_fatal:max"
LINK_ERRORS = "nvlink:link_errors:increase5m"
# The partition labels every record and alert here carries.
PARTITION_LABELS = ("partition", "cluster_uuid", "clique_id")
SWITCH_FATAL_ALERT = "GPUNVSwitchFatalError"
LINK_DOWN_ALERT = "GPUNVLinkDown"
# At most this many links or switches are listed in one alert's description (a whole rack can fail at once).
_LISTED = 8


def _partition_of(q: Promql, expr: str, on: str, partition: str) -> str:
    """``expr`` with the partition labels of ``partition`` (a record keyed by ``on``), or ``partition="node
    <host>"`` where there is none."""
    h = q.config.host_label
    keys = ", ".join(PARTITION_LABELS)
    return (
        f"({expr}) * on ({on}) group_left ({keys}) {partition}\n"
        f'or label_replace(({expr}) unless on ({on}) {partition}, "partition", "node $1", "{h}", "(.*)")'
    )


def partition_records(q: Promql) -> Group:
    """Each GPU's partition, each node's (one of its GPUs'), and what is down or failing, with its partition."""
    c = q.config
    h, u, cl = c.host_label, c.uuid_label, c.cluster_label
    gpu_on, node_on = f"{cl}, {h}, gpu", f"{cl}, {h}"
    # The clique is the gauge's value: count_values turns it into a label; the cluster UUID is a label already.
    gpu_partition = (
        f"group without ({CLUSTER_UUID}) (label_join(\n"
        f'  label_replace(count_values by ({cl}, {h}, gpu, {u}, {CLUSTER_UUID}) ("clique_id", '
        f"{q.dcgm(CLIQUE)}),\n"
        f'    "cluster_uuid", "$1", "{CLUSTER_UUID}", "(.*)"),\n'
        f'  "partition", "/", "cluster_uuid", "clique_id"))'
    )
    keys = ", ".join(PARTITION_LABELS)
    link = f"{cl}, instance, {h}, gpu, gpu_uuid, nvlink"
    state = q.dcgm(LINK_STATE)
    link_down = alternatives(
        f"group by ({link}) ({state} == {LINK_INACTIVE})",
        # A link whose series stopped for a minute while the same GPU's other links still report Up.
        f"group by ({link}) (max_over_time({state}[1h]) == {LINK_ACTIVE})\n"
        f"unless on ({gpu_on}, nvlink) last_over_time({state}[1m])\n"
        f"and on ({gpu_on}) count by ({gpu_on}) ({state} == {LINK_ACTIVE})",
    )
    port = f"{cl}, instance, {h}, nvswitch, nvlink"
    status = q.dcgm(PORT_STATUS)
    switch_on = f"{cl}, {h}, nvswitch"
    # An unused port is OFF for good: a port is down when it reports ERROR, or it was ACTIVE within the hour and
    # is no longer (OFF, SAFE, unknown, or its series stopped while the switch's other ports still report).
    port_down = alternatives(
        f"group by ({port}) ({status} == {PORT_ERROR})",
        f"group by ({port}) ({status} != {PORT_ACTIVE} and on ({port}) max_over_time({status}[1h]) == {PORT_ACTIVE})",
        f"group by ({port}) (max_over_time({status}[1h]) == {PORT_ACTIVE})\n"
        f"unless on ({switch_on}, nvlink) last_over_time({status}[1m])\n"
        f"and on ({switch_on}) count by ({switch_on}) ({status} == {PORT_ACTIVE})",
    )
    switch = f"{cl}, instance, {h}, nvswitch"
    # Only links whose errors grow are recorded: a series per link of every GPU, mostly 0, would cost 18 (up to 36)
    # series per GPU for nothing (the alert's threshold, nvlink_errors_per_5m, is 0 or more).
    errors = alternatives(*(f"sum by ({link}) (increase({q.dcgm(f)}[5m])) > 0" for f in PER_LINK_ERRORS))
    return Group(
        name="gpuscope-fabric.rules",
        rules=(
            Recording(record=GPU_PARTITION, expr=gpu_partition),
            Recording(
                record=NODE_PARTITION,
                # A node whose GPUs sit in several partitions (an HGX baseboard split by the fabric manager) is
                # named by one of them: its switches serve them all.
                expr=f"topk by ({node_on}) (1, group by ({node_on}, {keys}) ({GPU_PARTITION}))",
            ),
            Recording(record=LINK_DOWN, expr=_partition_of(q, link_down, gpu_on, GPU_PARTITION)),
            Recording(record=PORT_DOWN, expr=_partition_of(q, port_down, node_on, NODE_PARTITION)),
            Recording(
                record=SWITCH_FATAL,
                expr=_partition_of(q, f"max by ({switch}) ({q.dcgm(SXID_FATAL)} > 0)", node_on, NODE_PARTITION),
            ),
            Recording(
                record=SWITCH_NON_FATAL,
                # The value is the last SXid, held until another: a new one is a change within the window.
                expr=_partition_of(
                    q,
                    f"max by ({switch}) ({q.dcgm(SXID_NON_FATAL)} > 0 "
                    f"and on ({switch}) changes({q.dcgm(SXID_NON_FATAL)}[15m]) > 0)",
                    node_on,
                    NODE_PARTITION,
                ),
            ),
            Recording(record=LINK_ERRORS, expr=_partition_of(q, errors, gpu_on, GPU_PARTITION)),
        ),
    )


def _by_partition(q: Promql, expr: str) -> str:
    """One alert per partition, valued by how many of ``expr``'s series it has; where they all sit on one node,
    the alert names that node (the host label), so the remediator can drain it: one GPU's link, an HGX
    baseboard's switch. A fault across nodes (an NVL72 switch tray) names no node: draining compute trays does
    not mend a switch, and the remediator leaves it to a person."""
    h = q.config.host_label
    keys = f"{q.cluster}, {', '.join(PARTITION_LABELS)}"
    nodes = f"count by ({keys}) (group by ({keys}, {h}) ({expr}))"
    return (
        f"(\n(count by ({keys}, {h}) ({expr}) and on ({keys}) ({nodes} == 1))\n"
        f"or on ({keys})\n"
        f"count by ({keys}) ({expr})\n)"
    )


def _firing(alert: str) -> str:
    return f'ALERTS{{alertname="{alert}",alertstate="firing"}}'


def _listing(q: Promql, record: str, what: str, condition: str = "") -> str:
    """A Prometheus template listing up to ``_LISTED`` series of ``record`` (``condition`` appended, e.g. ``> 0``)
    in the alert's partition."""
    h = q.config.host_label
    return (
        f'{{{{ range printf "topk({_LISTED}, {record}{{partition=%q}}{condition})" $labels.partition | query }}}}'
        f"{{{{ .Labels.{h} }}}} {what}; {{{{ end }}}}"
    )


def _partition(q: Promql) -> str:
    # The cluster is an external label: Prometheus adds it to the alert when it sends it, after the templates.
    return "partition {{ $labels.partition }}"


_CONFIRM_PARTITION = 'partition="<partition>"'


def switch_fatal(q: Promql) -> Alert:
    return Alert(
        name=SWITCH_FATAL_ALERT,
        expr=_by_partition(q, SWITCH_FATAL),
        severity="page",
        owner="infra",
        summary="An NVSwitch reported a fatal SXid: its NVLink partition cannot run multi-GPU jobs.",
        description=f"{{{{ $value }}}} NVSwitch(es) with a fatal SXid in {_partition(q)}: "
        + _listing(q, SWITCH_FATAL, "{{ .Labels.nvswitch }} SXid {{ .Value }}"),
        runbook=Runbook(
            meaning="An NVSwitch's driver reported a fatal SXid (DCGM_FI_DEV_SXID_FATAL_ERROR, the SXid number): "
            "the switch stopped forwarding on some or all of its ports, and every job whose GPUs talk through it "
            "(every rank of the partition, healthy trays included) fails or hangs in NCCL. One page per partition "
            "(cluster UUID + clique, or the node where the GPUs report no fabric info); the description lists the "
            "switches. While it fires, GPUNVLinkDown stays quiet for the same partition: the links it took down "
            "are this fault.",
            confirm=(
                f"{SWITCH_FATAL}{{{_CONFIRM_PARTITION}}}   # the switches, their node and SXid",
                f"{SXID_FATAL}{{{q.config.exporter_selector}}} > 0",
                f"{LINK_DOWN}{{{_CONFIRM_PARTITION}}}   # the links it took down",
                "$ dmesg | grep -i sxid   # on an HGX node: nvidia-nvswitch<N>: SXid (PCI:<bdf>): <code>, Fatal",
                "$ dcgmi health -c -g <group>   # DCGM's NVSwitch watch: DCGM_FR_NVSWITCH_FATAL_ERROR",
            ),
            actions=(
                "Drain the node (HGX: the switch is on its baseboard) or, on an NVL72 rack, stop scheduling "
                "multi-node jobs on the partition; the remediator cordons and drains the node within its budget.",
                "DCGM's next step for a fatal SXid (dcgm_errors.h) is to run the field diagnostic on the system.",
                "NVIDIA's general guidance, not verified here: a fatal SXid needs the switch (on HGX the whole "
                "baseboard, with its GPUs) reset and the fabric manager restarted (`systemctl restart "
                "nvidia-fabricmanager`); on an NVL72 rack the switch tray is managed by NVOS/NMX: raise it with the "
                "rack's operator and the vendor with the SXid and the switch's serial.",
                "The same switch failing again after a reset: RMA the baseboard or switch tray.",
            ),
        ),
        bound="1m",
    )


def link_down(q: Promql) -> Alert:
    down = f"{LINK_DOWN} or {PORT_DOWN}"
    return Alert(
        name=LINK_DOWN_ALERT,
        expr=f"{_by_partition(q, down)}\nunless on ({q.cluster}, partition) {_firing(SWITCH_FATAL_ALERT)}",
        severity="page",
        owner="infra",
        summary="NVLink links or NVSwitch ports are down in an NVLink partition.",
        description=f"{{{{ $value }}}} NVLink link(s)/switch port(s) down in {_partition(q)}: "
        + _listing(q, LINK_DOWN, "GPU {{ .Labels.gpu }} link {{ .Labels.nvlink }}")
        + _listing(q, PORT_DOWN, "{{ .Labels.nvswitch }} port {{ .Labels.nvlink }}"),
        runbook=Runbook(
            meaning="An NVLink link of a GPU (DCGM_FI_DEV_NVLINK_GET_STATE 0, or a link whose series stopped while "
            "the GPU's other links report: dcgm-exporter serves only links that are Up) or an NVSwitch port "
            "(DCGM_FI_DEV_NVSWITCH_LINK_STATUS ERROR, or no longer ACTIVE) is down. Collectives route around it at "
            "lower bandwidth or fail (XID 74/144-150); every multi-node job of the partition is at risk. One page "
            "per partition, however many links (a switch tray takes a link of every GPU of the rack): the "
            "description lists up to 8 of each kind.",
            confirm=(
                f"{LINK_DOWN}{{{_CONFIRM_PARTITION}}}   # host, GPU and link",
                f"{PORT_DOWN}{{{_CONFIRM_PARTITION}}}   # host, switch and port",
                "$ nvidia-smi nvlink -s   # on the node: per-link state and speed",
                "$ gpuscope doctor --prometheus <url> --fleet fleet.yaml   # nvlink-inventory names missing links",
            ),
            actions=(
                "Links of many GPUs down at once point at a switch (tray) or the fabric manager "
                "(`systemctl status nvidia-fabricmanager`; NMX on NVL72): see GPUNVSwitchFatalError.",
                "One GPU's links: drain the node (the remediator does, within its budget) and reset the GPU "
                "(`nvidia-smi -r`) or reboot; the link retrains at boot.",
                "A link that stays down after a reset: reseat/replace per the vendor's procedure (NVIDIA's general "
                "guidance; not verified here).",
            ),
        ),
        bound="3m",
        for_="1m",
    )


def switch_non_fatal(q: Promql) -> Alert:
    return Alert(
        name="GPUNVSwitchNonFatalError",
        expr=_by_partition(q, SWITCH_NON_FATAL),
        severity="ticket",
        owner="infra",
        summary="An NVSwitch reported a new non-fatal SXid.",
        description=f"{{{{ $value }}}} NVSwitch(es) with a new non-fatal SXid in {_partition(q)}: "
        + _listing(q, SWITCH_NON_FATAL, "{{ .Labels.nvswitch }} SXid {{ .Value }}"),
        runbook=Runbook(
            meaning="An NVSwitch's driver reported a non-fatal SXid (DCGM_FI_DEV_SXID_NON_FATAL_ERROR) within the "
            "last 15 minutes: the switch corrected an error and still forwards. DCGM's guidance (dcgm_errors.h) is "
            "to monitor the switch: it can still perform workload.",
            confirm=(
                f"{SWITCH_NON_FATAL}{{{_CONFIRM_PARTITION}}}",
                f"changes({SXID_NON_FATAL}{{{q.config.exporter_selector}}}[1h]) > 0",
                "$ dmesg | grep -i sxid   # on an HGX node",
            ),
            actions=(
                "Watch the switch: repeated SXids, or error counters growing on its ports, precede a fatal one.",
                "Plan a maintenance window for the node (HGX) or switch tray (NVL72) if it repeats.",
            ),
        ),
        bound="5m",
    )


def link_errors(q: Promql) -> Alert:
    n = q.config.thresholds.nvlink_errors_per_5m
    return Alert(
        name="GPUNVLinkErrorsPerLink",
        expr=f"{_by_partition(q, f'{LINK_ERRORS} > {n}')}\n"
        f"unless on ({q.cluster}, partition) {_firing(LINK_DOWN_ALERT)}",
        severity="ticket",
        owner="infra",
        summary="NVLink links keep retrying or recovering in an NVLink partition.",
        description=f"{{{{ $value }}}} NVLink link(s) with errors increasing in {_partition(q)}: "
        + _listing(q, LINK_ERRORS, "GPU {{ .Labels.gpu }} link {{ .Labels.nvlink }}", f" > {n}"),
        runbook=Runbook(
            meaning="The per-link CRC, replay or recovery counters (DCGM_FI_DEV_NVLINK_*_ERROR_PER_LINK_TOTAL) grow "
            "on these links: the link retrains, collectives slow down, and a link that keeps failing goes down. "
            "GPUNVLinkErrors is the same signal on the per-GPU totals; this alert names the links, once per "
            "partition, and stays quiet while GPUNVLinkDown fires for it.",
            confirm=(
                f"{LINK_ERRORS}{{{_CONFIRM_PARTITION}}} > {n}",
                "$ nvidia-smi nvlink -e   # on the node",
            ),
            actions=(
                "The same link number on several GPUs of a node points at the switch or baseboard; one link of one "
                "GPU, at that GPU.",
                "Drain the node and reseat/replace per the vendor procedure if the errors keep growing.",
            ),
        ),
        bound="5m",
        for_="2m",
    )


def fabric_group(q: Promql) -> Group:
    """The fabric pages, every evaluation; the switch's fatal page first, so the link page can defer to it."""
    return Group(name="gpuscope-fabric.alerts", rules=(switch_fatal(q), link_down(q)), file="alerts")


def fabric_minute_group(q: Promql) -> Group:
    """The fabric tickets, once a minute (each holds for minutes within a bound that leaves a minute to spare)."""
    return Group(
        name="gpuscope-fabric-1m.alerts",
        rules=(switch_non_fatal(q), link_errors(q)),
        interval=MINUTE_INTERVAL,
        file="alerts",
    )

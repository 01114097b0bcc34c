"""The NVLink fabric inventory: every GPU has the links its model has, and every node the NVSwitches its baseboard
carries, as the fleet spec's hardware models promise (doctor/expect.py ``FabricExpectation``).

A link is counted up from ``DCGM_FI_DEV_NVLINK_GET_STATE`` (1 active): dcgm-exporter serves only links in state Up,
so a link down is either a 0 or a missing series, and both are missing from the count. Switches are counted from
the switch-level series (``nvswitch`` without ``nvlink``). DCGM 4.6.0 has no per-link speed field (NVML's
``NVML_FI_DEV_NVLINK_GET_SPEED`` has no DCGM counterpart in dcgm_fields.h), so the speed the model promises is
stated in the evidence, not measured.
"""

from __future__ import annotations

from collections import Counter

from gpuscope.doctor.detect import TEMP
from gpuscope.doctor.expect import FabricExpectation
from gpuscope.doctor.observations import Observations, listed
from gpuscope.doctor.results import Evidence, Finding, Status
from gpuscope.rules.alerts_fabric import LINK_ACTIVE, LINK_STATE
from gpuscope.rules.promql import Promql

_FIX_FIELD = (
    "List DCGM_FI_DEV_NVLINK_GET_STATE (gauge) in the collectors CSV (docs/examples/nvl72-counters.csv lists the "
    "fabric fields) so links are counted."
)


def fabric_queries(q: Promql) -> dict[str, str]:
    h = q.config.host_label
    state = q.dcgm(LINK_STATE)
    switch = q.exporter("", 'nvswitch=~".+",nvlink=""')
    return {
        "fabric.links_up": f"count by ({h}, gpu) ({state} == {LINK_ACTIVE})",
        "fabric.links_any": f"count({state}) or vector(0)",
        "fabric.gpus": f"max by ({h}, gpu, modelName) ({q.dcgm(TEMP)})",
        "fabric.switches": f"count by ({h}) (group by ({h}, nvswitch) ({switch}))",
    }


def _expected(o: Observations) -> dict[str, FabricExpectation]:
    return {e.model_name: e for e in o.expectation.fabric}


def _inventory(expected: dict[str, FabricExpectation]) -> str:
    return "; ".join(
        f"{e.model_name}: {e.links_per_gpu} links of {e.link_mbps:g} MB/s per direction, "
        f"{e.switches_per_node} NVSwitches per node"
        for e in expected.values()
    )


def fabric_inventory(o: Observations) -> Finding:
    expected = _expected(o)
    if not expected:
        why = "no --fleet" if o.expectation.cluster is None else "no GPU model with NVLink in the fleet spec"
        return Finding(Status.SKIP, f"{why}: the expected NVLink inventory comes from the spec's GPU models")
    h = o.config.host_label
    evidence = [Evidence(f"{o.expectation.source}: NVLink inventory", _inventory(expected))]
    if not o.value("fabric.links_any"):
        evidence.append(o.evidence("fabric.links_any"))
        return Finding(Status.SKIP, f"{LINK_STATE} is not collected: no link to count", tuple(evidence), _FIX_FIELD)
    up = {(s.labels.get(h, ""), s.labels.get("gpu", "")): int(s.value) for s in o.vector("fabric.links_up")}
    gpus = [s.labels for s in o.vector("fabric.gpus") if s.labels.get("modelName") in expected]
    short = []
    nodes: Counter[str] = Counter()
    for labels in sorted(gpus, key=lambda g: (g.get(h, ""), int(g.get("gpu", "0") or 0))):
        host, gpu, want = labels.get(h, ""), labels.get("gpu", ""), expected[labels["modelName"]]
        nodes[host] = max(nodes[host], want.switches_per_node)
        have = up.get((host, gpu), 0)
        if have < want.links_per_gpu:
            short.append(f"{host} GPU {gpu}: {have}/{want.links_per_gpu} links up")
    evidence += [o.evidence("fabric.links_up"), o.evidence("fabric.gpus", f"{len(gpus)} GPUs with NVLink")]
    switches = {s.labels.get(h, ""): int(s.value) for s in o.vector("fabric.switches")}
    missing_switches = []
    if switches:  # switch fields collected somewhere (-s, the NVSwitch rows of the CSV)
        evidence.append(o.evidence("fabric.switches"))
        missing_switches = [
            f"{host}: {switches.get(host, 0)}/{want} NVSwitches"
            for host, want in sorted(nodes.items())
            if switches.get(host, 0) < want
        ]
    if short or missing_switches:
        return Finding(
            Status.FAIL,
            "; ".join(p for p in (listed(short), listed(missing_switches)) if p),
            tuple(evidence),
            "A link or switch missing from the inventory is down or was never trained: `nvidia-smi nvlink -s` on the "
            "node, then the GPUNVLinkDown runbook (drain, reset, reseat).",
            runbook_alert="GPUNVLinkDown",
        )
    counted = f", {sum(switches.values())} NVSwitches" if switches else " (NVSwitches not collected)"
    return Finding(
        Status.PASS,
        f"{len(gpus)} GPUs with every NVLink up{counted}, as the fleet spec's models have them",
        tuple(evidence),
    )

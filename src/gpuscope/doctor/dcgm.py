"""The DCGM hop (NVML -> host engine -> exporter): is every host engine answering, and at the exporter's version?

Both questions are the alerts' own expressions (``GPUDcgmHostEngineDown``, ``GPUDcgmVersionSkew``), so doctor
and the alerts agree. Both alerts make tickets, so both findings are WARN. dcgm-exporter shows a dead host
engine only as a failed scrape (HTTP 500), which the exporter-targets check already reports.
"""

from __future__ import annotations

from gpuscope.doctor.observations import Observations, listed
from gpuscope.doctor.results import Finding, Status


def dcgm_hop(o: Observations) -> Finding:
    if not o.value("dcgm.exporters"):
        return Finding(
            Status.SKIP,
            "not applicable: no gpuscope exporter reads through DCGM (no gpuscope_exporter_dcgm_info)",
            (o.evidence("dcgm.exporters"),),
        )
    evidence = (o.evidence("dcgm.exporters"), o.evidence("dcgm.down"), o.evidence("dcgm.skew"))
    down = sorted(s.labels.get("instance", "?") for s in o.vector("dcgm.down"))
    if down:
        return Finding(
            Status.WARN,
            f"{len(down)} exporter(s) cannot reach their DCGM host engine: {listed(down)}",
            evidence,
            "Check the nvidia-dcgm pod / nv-hostengine on those nodes (restarts, OOMKilled) and the exporter's "
            "-r/--remote-hostengine-info; curl the exporter's /health for the DCGM error.",
            "GPUDcgmHostEngineDown",
        )
    skewed = sorted(
        f"{s.labels.get('instance', '?')} (libdcgm {s.labels.get('client_version', '?')}, host engine "
        f"{s.labels.get('hostengine_version', '?')})"
        for s in o.vector("dcgm.skew")
    )
    if skewed:
        return Finding(
            Status.WARN,
            f"DCGM version skew on {len(skewed)} exporter(s): {listed(skewed)}",
            evidence,
            "Keep the exporter's libdcgm at or above the host engine's version: upgrade the exporter image or pin "
            "nvidia-dcgm.",
            "GPUDcgmVersionSkew",
        )
    return Finding(Status.PASS, "every DCGM host engine answers, at the exporters' libdcgm version", evidence)

"""NVLink fabric scenarios: a rack's switch tray failing pages once per partition, not once per GPU or link.

The series carry dcgm-exporter's labels: GPU links ``nvlink``/``gpu``/``gpu_uuid``/``pci_bus_id``/``device``/
``model_name``/``Hostname``, switches ``nvswitch="nvswitch<N>"``/``Hostname``, switch ports ``nvlink``/``nvswitch``.
The partition comes from the clique gauge and the cluster-UUID label field on the GPU's series.
"""

from __future__ import annotations

from tests.rules.fixtures import JOB, change, flat, gpu_labels, until, up, uuid
from tests.support.promtool import Case, Series

RACK = "7c0ffee0-0000-4000-8000-0000000000a1"
OTHER_RACK = "7c0ffee0-0000-4000-8000-0000000000b2"
GB200 = "NVIDIA GB200"
CLIQUE = "DCGM_FI_DEV_FABRIC_CLIQUE_ID"
STATE = "DCGM_FI_DEV_NVLINK_GET_STATE"
PORT = "DCGM_FI_DEV_NVSWITCH_LINK_STATUS"
FATAL = "DCGM_FI_DEV_SXID_FATAL_ERROR"
NON_FATAL = "DCGM_FI_DEV_SXID_NON_FATAL_ERROR"
FLIT = "DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_PER_LINK_TOTAL"
TRAYS = ("tray-01", "tray-02", "tray-03")
LINKS = 4  # enough links to show the shape; the rules never count them


def link_labels(host: str, gpu: int, link: int) -> dict[str, str]:
    """A GPU link's series labels, as dcgm-exporter renders them (internal/pkg/rendermetrics)."""
    return {
        "job": JOB,
        "instance": f"{host}:9400",
        "nvlink": str(link),
        "gpu": str(gpu),
        "gpu_uuid": uuid(host, gpu),
        "pci_bus_id": f"00000000:{0x18 + gpu:02X}:00.0",
        "device": f"nvidia{gpu}",
        "model_name": GB200,
        "Hostname": host,
    }


def switch_labels(host: str, switch: int, port: int | None = None) -> dict[str, str]:
    labels = {"job": JOB, "instance": f"{host}:9400", "nvswitch": f"nvswitch{switch}", "Hostname": host}
    if port is not None:
        labels["nvlink"] = str(port)
    return labels


def partition(host: str, gpus: int, clique: int, cluster_uuid: str = RACK) -> tuple[Series, ...]:
    return tuple(
        Series(
            CLIQUE,
            gpu_labels(g, host, model=GB200, extra={"DCGM_FI_DEV_FABRIC_CLUSTER_UUID": cluster_uuid}),
            flat(clique),
        )
        for g in range(gpus)
    )


def links(host: str, gpus: int, *, down: tuple[int, ...] = (), how: str = "state") -> tuple[Series, ...]:
    """Every link of ``gpus`` GPUs Up; the ``down`` link numbers go down at 30m, by state 0 or series gone."""
    out = []
    for g in range(gpus):
        for link in range(LINKS):
            if link not in down:
                values = flat(1)
            elif how == "state":
                values = change(1, 0)
            else:
                values = until(1)
            out.append(Series(STATE, link_labels(host, g, link), values))
    return tuple(out)


def in_partition(clique: int = 7, cluster_uuid: str = RACK) -> dict[str, str]:
    return {"partition": f"{cluster_uuid}/{clique}", "cluster_uuid": cluster_uuid, "clique_id": str(clique)}


def rack(*, down: tuple[int, ...] = (), how: str = "state") -> tuple[Series, ...]:
    """Three compute trays of one NVL72 rack (2 GPUs shown each), one partition."""
    series: list[Series] = []
    for host in TRAYS:
        series += [up(host), *partition(host, 2, 7), *links(host, 2, down=down, how=how)]
    return tuple(series)


LINK_DOWN = (
    Case(
        "a switch tray fails: link 3 of every GPU of the rack goes down, one page for the partition",
        "GPUNVLinkDown",
        rack(down=(3,)),
        fires_by="31m15s",
        expected=(in_partition(),),
        quiet_at=("29m45s",),
        still_firing_at=("45m",),
    ),
    Case(
        "dcgm-exporter serves only Up links: one link's series stops while the GPU's others report",
        "GPUNVLinkDown",
        rack(down=(1,), how="gone"),
        fires_by="32m15s",
        expected=(in_partition(),),
        quiet_at=("29m45s",),
    ),
    Case(
        "two racks: only the rack whose link went down pages, with its own partition",
        "GPUNVLinkDown",
        (
            *rack(),
            up("tray-11"),
            *partition("tray-11", 2, 3, OTHER_RACK),
            *links("tray-11", 2, down=(0,)),
        ),
        fires_by="31m15s",
        expected=({**in_partition(3, OTHER_RACK), "Hostname": "tray-11"},),
    ),
    Case(
        "an HGX node without fabric info: its own partition, named by the node",
        "GPUNVLinkDown",
        (up("hgx-1"), *links("hgx-1", 2, down=(2,))),
        fires_by="31m15s",
        expected=({"partition": "node hgx-1", "Hostname": "hgx-1"},),
    ),
    Case(
        "a switch port that was ACTIVE goes to ERROR",
        "GPUNVLinkDown",
        (
            up("hgx-1"),
            *partition("hgx-1", 2, 0, OTHER_RACK),
            Series(PORT, switch_labels("hgx-1", 0, 5), change(2, 3)),
            Series(PORT, switch_labels("hgx-1", 0, 6), flat(2)),
        ),
        fires_by="31m15s",
        expected=({**in_partition(0, OTHER_RACK), "Hostname": "hgx-1"},),
    ),
    Case(
        "near miss: unused switch ports stay OFF, every link up, every port active",
        "GPUNVLinkDown",
        (
            *rack(),
            Series(PORT, switch_labels("hgx-1", 0, 5), flat(2)),
            Series(PORT, switch_labels("hgx-1", 0, 60), flat(0)),
        ),
        quiet_at=("35m", "50m"),
    ),
    Case(
        "near miss: one missed scrape of the links is not a link down",
        "GPUNVLinkDown",
        (
            Series("up", {"job": JOB, "instance": "tray-01:9400"}, "1x139 0 1x99"),
            *partition("tray-01", 1, 7),
            Series(STATE, link_labels("tray-01", 0, 0), "1x139 stale 1x99"),
            Series(STATE, link_labels("tray-01", 0, 1), "1x139 stale 1x99"),
        ),
        quiet_at=("35m", "35m15s", "36m", "50m"),
    ),
    Case(
        "near miss: the exporter is down, so every link series stops (GPUExporterDown's job)",
        "GPUNVLinkDown",
        (
            Series("up", {"job": JOB, "instance": "tray-01:9400"}, change(1, 0)),
            *(Series(s.name, s.labels, until(1)) for s in links("tray-01", 2)),
        ),
        quiet_at=("32m", "45m"),
    ),
    Case(
        "near miss: a fatal SXid on the node's switch pages for the partition instead",
        "GPUNVLinkDown",
        (
            up("hgx-1"),
            *partition("hgx-1", 2, 0, OTHER_RACK),
            *links("hgx-1", 2, down=(2,)),
            Series(FATAL, switch_labels("hgx-1", 1), change(0, 12028)),
        ),
        quiet_at=("32m", "45m"),
    ),
)

SWITCH_FATAL = (
    Case(
        "an HGX node's NVSwitch reports a fatal SXid: one page, its partition",
        "GPUNVSwitchFatalError",
        (
            up("hgx-1"),
            *partition("hgx-1", 2, 0, OTHER_RACK),
            *links("hgx-1", 2, down=(2,)),
            Series(FATAL, switch_labels("hgx-1", 0), flat(0)),
            Series(FATAL, switch_labels("hgx-1", 1), change(0, 12028)),
            Series(FATAL, switch_labels("hgx-1", 2), change(0, 12028)),
        ),
        fires_by="30m30s",
        expected=({**in_partition(0, OTHER_RACK), "Hostname": "hgx-1"},),
        quiet_at=("29m45s",),
        still_firing_at=("45m",),
    ),
    Case(
        "near miss: switches report no SXid (0)",
        "GPUNVSwitchFatalError",
        (up("hgx-1"), *(Series(FATAL, switch_labels("hgx-1", s), flat(0)) for s in range(4))),
        quiet_at=("35m", "50m"),
    ),
)

SWITCH_NON_FATAL = (
    Case(
        "an NVSwitch reports a new non-fatal SXid",
        "GPUNVSwitchNonFatalError",
        (up("hgx-1"), Series(NON_FATAL, switch_labels("hgx-1", 3), change(0, 11004))),
        fires_by="31m30s",
        expected=({"partition": "node hgx-1", "Hostname": "hgx-1"},),
        quiet_at=("29m45s",),
    ),
    Case(
        "near miss: an old non-fatal SXid, held by the gauge for hours",
        "GPUNVSwitchNonFatalError",
        (up("hgx-1"), Series(NON_FATAL, switch_labels("hgx-1", 3), flat(11004))),
        quiet_at=("35m", "50m"),
    ),
)

LINK_ERRORS = (
    Case(
        "one link's CRC flit errors keep increasing: a ticket naming its partition",
        "GPUNVLinkErrorsPerLink",
        (
            *rack(),
            Series(FLIT, link_labels("tray-02", 1, 2), "0x119 1+1x120"),
            Series(FLIT, link_labels("tray-02", 1, 3), flat(0)),
        ),
        fires_by="35m",
        expected=({**in_partition(), "Hostname": "tray-02"},),
        quiet_at=("29m45s",),
    ),
    Case(
        "near miss: old errors, per-link counters flat",
        "GPUNVLinkErrorsPerLink",
        (*rack(), Series(FLIT, link_labels("tray-02", 1, 2), flat(40))),
        quiet_at=("35m", "50m"),
    ),
)

CASES = (*LINK_DOWN, *SWITCH_FATAL, *SWITCH_NON_FATAL, *LINK_ERRORS)

"""The cgroup parser on files in each runtime's and cgroup version's real format (``cgroups/*.txt``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuscope.exporter.processes.cgroup import CgroupOwner, OwnerKind, parse_cgroup

HERE = Path(__file__).parent / "cgroups"
UID = "6b0f7a64-3c1d-4b8e-9a21-5d2c7e9f0a13"
CID = "4f1b3c2a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a"

EXPECTED = {
    "v2-systemd-containerd-burstable": CgroupOwner(OwnerKind.POD, pod_uid=UID, container_id=CID, runtime="containerd"),
    "v2-systemd-crio-guaranteed": CgroupOwner(OwnerKind.POD, pod_uid=UID, container_id=CID, runtime="cri-o"),
    "v2-systemd-crio-conmon": CgroupOwner(OwnerKind.POD, pod_uid=UID, runtime="cri-o"),
    "v2-cgroupfs-containerd-besteffort": CgroupOwner(OwnerKind.POD, pod_uid=UID, container_id=CID),
    "v2-cgroupns-relative": CgroupOwner(OwnerKind.POD, pod_uid=UID, container_id=CID, runtime="containerd"),
    "v1-systemd-docker-burstable": CgroupOwner(OwnerKind.POD, pod_uid=UID, container_id=CID, runtime="docker"),
    "v1-cgroupfs-containerd-guaranteed": CgroupOwner(OwnerKind.POD, pod_uid=UID, container_id=CID),
    "v2-docker-systemd": CgroupOwner(OwnerKind.CONTAINER, container_id=CID, runtime="docker"),
    "v1-docker-cgroupfs": CgroupOwner(OwnerKind.CONTAINER, container_id=CID, runtime="docker"),
    "v1-slurm-step": CgroupOwner(OwnerKind.SLURM, job="48213", step="0"),
    "v2-slurm-batch": CgroupOwner(OwnerKind.SLURM, job="48214", step="batch"),
    "v2-user-session": CgroupOwner(OwnerKind.PROCESS),
    "v1-system-service": CgroupOwner(OwnerKind.PROCESS),
    "unknown-kubepods-shape": None,
    "unknown-garbage": None,
}


def test_every_fixture_is_covered() -> None:
    assert {p.stem for p in HERE.glob("*.txt")} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_owner_of_each_format(name: str) -> None:
    assert parse_cgroup((HERE / f"{name}.txt").read_text()) == EXPECTED[name]


def test_a_pod_line_wins_over_plain_lines_and_unknown_beats_plain() -> None:
    # hybrid host: v1 controllers name the pod, the v2 line is the root
    text = f"8:memory:/kubepods/burstable/pod{UID}/{CID}\n0::/\n"
    assert parse_cgroup(text) == CgroupOwner(OwnerKind.POD, pod_uid=UID, container_id=CID)
    assert parse_cgroup("1:name=systemd:/user.slice\n0::/kubepods.slice/odd\n") is None
    assert parse_cgroup("") is None
    assert parse_cgroup("0::relative/path\n") is None  # a path must be absolute

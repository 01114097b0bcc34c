"""Hostile /proc and pod directory contents: a process names itself anything, files can be huge or binary, the
directory can hold strangers. Nothing raises, nothing reads without bound, label values are escaped."""

from __future__ import annotations

import os
from pathlib import Path

from gpuscope.exporter.processes.attribute import Owner
from gpuscope.exporter.processes.cgroup import OwnerKind
from gpuscope.exporter.processes.exposition import owner_labels
from gpuscope.exporter.processes.pods import PodLogDirectory
from gpuscope.exporter.processes.procfs import Unattributed, read_process
from tests.exporter.processes.proctree import ProcTree, pod_cgroup

UID = "11111111-2222-4333-8444-555555555555"


def test_a_command_name_cannot_break_the_exposition(tmp_path: Path) -> None:
    tree = ProcTree(tmp_path)
    tree.process(7, "0::/user.slice/user-0.slice/session-1.scope\n", comm='x"} 1\nevil{a="')
    info = read_process(str(tree.proc), 7)
    assert info.owner is not None and info.owner.kind is OwnerKind.PROCESS
    text = owner_labels(Owner(OwnerKind.PROCESS, name=info.comm, user=info.user), False)
    assert "\n" not in text and text == ',process_name="x\\"} 1\\nevil{a=\\"",user="root"'


def test_huge_binary_and_missing_files(tmp_path: Path) -> None:
    tree = ProcTree(tmp_path)
    (tree.proc / "8").mkdir()
    (tree.proc / "8" / "cgroup").write_bytes(b"\xff\xfe" * 500_000)  # 1 MB of garbage: 16 KiB of it is read
    assert read_process(str(tree.proc), 8).reason is Unattributed.UNKNOWN_CGROUP
    (tree.proc / "9").mkdir()
    (tree.proc / "9" / "cgroup").write_text(pod_cgroup(UID))  # no comm, no status: exited mid-read
    info = read_process(str(tree.proc), 9)
    assert info.owner is not None and info.owner.pod_uid == UID and info.comm == ""
    assert read_process(str(tree.proc), 10).reason is Unattributed.PID_NOT_VISIBLE
    assert read_process(str(tmp_path / "no-such-root"), 9).reason is Unattributed.PID_NOT_VISIBLE
    (tree.proc / "11").write_text("a file where a directory should be")
    assert read_process(str(tree.proc), 11).reason is Unattributed.PID_NOT_VISIBLE


def test_unreadable_cgroup_is_its_own_reason(tmp_path: Path) -> None:
    tree = ProcTree(tmp_path)
    tree.process(12, pod_cgroup(UID))
    (tree.proc / "12" / "cgroup").chmod(0)
    try:
        if os.geteuid() == 0:  # root reads it anyway: what matters is that nothing raises
            assert read_process(str(tree.proc), 12).owner is not None
        else:
            assert read_process(str(tree.proc), 12).reason is Unattributed.PROC_UNREADABLE
    finally:
        (tree.proc / "12" / "cgroup").chmod(0o644)


def test_pod_directory_ignores_strangers_and_symlinks(tmp_path: Path) -> None:
    tree = ProcTree(tmp_path)
    tree.pod("ml", "trainer-0", UID, "main", "sidecar")
    (tree.pods / "not-a-pod").mkdir()
    (tree.pods / "ml_file_11111111-2222-4333-8444-666666666666").write_text("a file")
    (tree.pods / "ml_link_11111111-2222-4333-8444-777777777777").symlink_to(tree.proc)
    pods = PodLogDirectory(str(tree.pods)).pods()
    assert pods is not None and set(pods) == {UID}
    assert pods[UID].containers == ("main", "sidecar")
    missing = PodLogDirectory(str(tmp_path / "absent"))
    assert missing.pods() is None and "absent" in missing.problem

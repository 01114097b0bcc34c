"""Issue 37, fleet spec: values that become PromQL, a label name, a regex or a replica count are checked where they
are written. A value promtool or Kubernetes would refuse is one located line and exit 2 from ``gpuscope generate``;
the values accepted beside them give rule files promtool passes."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.support.cli import assert_one_line_error, gpuscope_here
from tests.support.prom import binary
from tests.support.specs import fleet

pytestmark = [pytest.mark.timeout(300)]

KUBE = """  - name: k
    kind: kubernetes
    node_groups:
      - {name: h, gpu_model: h100, nodes: 2}
"""
VM = "long_term_store: victoriametrics\nvictoriametrics: {cluster: {%s}}"


def groups(labels: str) -> str:
    return f"exporter: {{pod_labels: true, pod_label_allowlist: [{labels}], pod_group_labels: [{labels}]}}"


def spec_file(tmp_path: Path, extra: str) -> Path:
    path = tmp_path / "fleet.yaml"
    path.write_text(fleet(KUBE, extra))
    return path


@pytest.mark.parametrize(
    ("extra", "key", "fragment"),
    [
        ('host_signals: {filesystem_mountpoints: "(/raid"}', "host_signals.filesystem_mountpoints", "missing )"),
        # Breaks out of the anchors PromQL wraps around it: valid only once wrapped.
        ('host_signals: {filesystem_mountpoints: "/a)|(.*"}', "host_signals.filesystem_mountpoints", "RE2"),
        # Python's re takes a lookahead; RE2 (Prometheus, the exporter) does not.
        (
            'exporter: {pod_labels: true, pod_label_allowlist: ["(?=team)t.*"]}',
            "exporter.pod_label_allowlist",
            "invalid perl operator",
        ),
        # promtool: label "namespace" must not occur in ON and GROUP clause at once
        (groups("namespace"), "exporter.pod_group_labels", "already join and group on"),
        (groups("pod"), "exporter.pod_group_labels", "already join and group on"),
        (groups("UUID"), "exporter.pod_group_labels", "already join and group on"),
        (groups("GPU_I_ID"), "exporter.pod_group_labels", "already join and group on"),
        (groups("cluster"), "exporter.pod_group_labels", "already join and group on"),
        # job:gpu_activity:avg5m is already the per-job record: two rules would write one series
        (groups("job"), "exporter.pod_group_labels", "job:gpu_activity:avg5m, which another rule already records"),
        (VM % "vmstorage: 100000000", "victoriametrics.cluster.vmstorage", "less than or equal to 1000"),
        (VM % "vminsert: 1000000000000", "victoriametrics.cluster.vminsert", "less than or equal to 1000"),
        (VM % "vmselect: 4294967296", "victoriametrics.cluster.vmselect", "less than or equal to 1000"),
        (VM % "vmstorage: true", "victoriametrics.cluster.vmstorage", "valid integer"),
    ],
    ids=[
        "unbalanced-mountpoints",
        "anchor-escape",
        "lookahead-allowlist",
        "group-namespace",
        "group-pod",
        "group-uuid",
        "group-gpu-i-id",
        "group-cluster",
        "group-job",
        "vmstorage-1e8",
        "vminsert-1e12",
        "vmselect-2to32",
        "vmstorage-bool",
    ],
)
def test_a_value_promtool_or_kubernetes_would_refuse_is_one_located_line(
    tmp_path: Path, extra: str, key: str, fragment: str
) -> None:
    path = spec_file(tmp_path, extra)
    out = tmp_path / "bundle"
    done = gpuscope_here("generate", str(path), "-o", str(out))
    assert_one_line_error(done, f"{path}:", f": {key}: ", fragment)
    assert not out.exists()  # nothing is written from a spec that was refused


def test_accepted_values_give_rules_promtool_passes(tmp_path: Path) -> None:
    extra = (
        'host_signals: {filesystem_mountpoints: "/|/raid[0-9]?|/mnt/(a|b).*"}\n'
        + groups("team, cost_center")
        + "\n"
        + VM % "vmstorage: 1000, vminsert: 1000, vmselect: 1000, replication_factor: 3"
    )
    path = spec_file(tmp_path, extra)
    out = tmp_path / "bundle"
    done = gpuscope_here("generate", str(path), "-o", str(out))
    assert done.returncode == 0, done.stderr
    rules = sorted(str(p) for p in out.glob("**/rules/*.yaml"))
    assert rules
    checked = subprocess.run(
        [binary("promtool"), "check", "rules", "--lint-fatal", *rules], capture_output=True, text=True, check=False
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    recording = (out / "clusters/k/rules/gpuscope-recording.yaml").read_text()
    assert "record: team:gpu_activity:avg5m" in recording and "record: cost_center:gpus_allocated:count" in recording
    assert "/|/raid[0-9]?|/mnt/(a|b).*" in (out / "clusters/k/rules/gpuscope-alerts.yaml").read_text()

"""The policy file: defaults, and every mistake as one located line (file:line:col) with the fix, exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuscope.errors import SpecError
from gpuscope.fields.xid import Bucket
from gpuscope.remediate.policy import DEFAULT_RULES, parse_policy
from tests.support.upstack import cli


def test_the_defaults() -> None:
    policy = parse_policy("clusters: [{name: hpc, kind: slurm}]")
    assert [r.alert for r in policy.rules] == [
        "GPUFellOffBus",
        "GPUXidCritical",
        "GPUDoubleBitEccErrors",
        "GPURowRemapFailure",
        "GPUFabricDegraded",
        "GPUNVLinkDown",
        "GPUNVSwitchFatalError",
    ]
    assert policy.rules == DEFAULT_RULES
    assert Bucket.RESTART_APP not in policy.rules[1].xid_buckets and Bucket.RESET_GPU in policy.rules[1].xid_buckets
    assert policy.return_to_service.after is None  # a person returns nodes
    budget = policy.clusters[0].budget
    assert (budget.max_nodes, budget.max_percent) == (2, 10.0)
    assert (budget.limit(100), budget.limit(10), budget.limit(3), budget.limit(None)) == (2, 1, 1, 2)
    only_percent = parse_policy("clusters: [{name: k, kind: kubernetes, budget: {max_percent: 25}}]")
    assert only_percent.clusters[0].budget.max_nodes is None and only_percent.clusters[0].budget.limit(40) == 10


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        ("clusters: [{name: hpc, kind: slrum}]", "1:30", "clusters[0].kind: Input should be 'slurm' or 'kubernetes'"),
        (
            "clusters:\n  - {name: hpc, kind: slurm, budgit: {}}",
            "2:30",
            "unknown key 'clusters[0].budgit' (did you mean 'budget'?)",
        ),
        (
            "clusters: [{name: hpc, kind: slurm, budget: {max_nodes: true}}]",
            "1:57",
            "max_nodes: Input should be a valid integer",
        ),
        (
            "clusters: [{name: hpc, kind: slurm, budget: {max_nodes: null, max_percent: null}}]",
            "1:45",
            "set max_nodes or max_percent",
        ),
        (
            "clusters: [{name: hpc, kind: slurm}]\nrules: [{alert: GPUFellOffBus}, {alert: GPUFellOffBus}]",
            "2:8",
            "one rule per alert; repeated: GPUFellOffBus",
        ),
        (
            "clusters: [{name: hpc, kind: slurm}]\nrules: [{alert: X, xid_buckets: [RESET]}]",
            "2:34",
            "xid_buckets[0]: Input should be",
        ),
        ("clusters: [{name: hpc, kind: slurm}]\nrules: [{alert: 'a b'}]", "2:17", "'a b' is not an alert name"),
        ("clusters: [{name: hpc, kind: slurm}]\nreturn_to_service: {after: soon}", "2:28", "a Prometheus duration"),
        ("clusters: []", "1:11", "clusters: list at least 1"),
        ("clusters: [{name: a, kind: slurm}, {name: a, kind: slurm}]", "1:11", "cluster names must be unique"),
        ("clusters: [{name: a, kind: slurm}]\nclusters: []", "2:1", "key 'clusters' appears twice"),
        ("- 1\n- 2", "1:1", "expected a mapping of settings at the top"),
    ],
)
def test_mistakes_are_located(text: str, where: str, message: str) -> None:
    with pytest.raises(SpecError) as caught:
        parse_policy(text, "policy.yaml")
    assert str(caught.value).startswith(f"policy.yaml:{where}: "), str(caught.value)
    assert message in str(caught.value)


def test_the_cli_says_it_in_one_line_and_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "policy.yaml"
    bad.write_text("clusters:\n  - {name: hpc, kind: slurm}\nrules: [{alert: GPUFellOffBus, action: reboot}]\n")
    done = cli("remediate", "--policy", str(bad))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"gpuscope: error: {bad}:3:32: unknown key 'rules[0].action'; allowed here: alert, taint_effect, xid_buckets"
    ]
    missing = cli("remediate", "--policy", str(tmp_path / "nope.yaml"))
    assert missing.returncode == 2 and "does not exist (--policy)" in missing.stderr
    assert "Traceback" not in missing.stderr + done.stderr


def test_help_says_dry_run_is_the_default() -> None:
    done = cli("remediate", "--help")
    assert done.returncode == 0
    assert "--apply / --dry-run" in done.stdout and "[default: dry-run]" in done.stdout

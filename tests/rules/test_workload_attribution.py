"""Team, shared-GPU and DRA-claim rollups evaluated by promtool, in info and labels mode: two pods of team vision
share GPU a (two replicas of one pod count once), a team-less pod holds GPU b, and a DRA claim holds GPU c."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from gpuscope.rules import RulesConfig, build_groups
from gpuscope.rules.render import group_dict
from gpuscope.runner.binaries import find_binary

pytestmark = pytest.mark.promtool

GPU = 'job="dcgm-exporter",cluster="c1",gpu="{i}",UUID="GPU-{u}",Hostname="h1",instance="h1:9400",modelName="H200"'
CLAIM = 'dra_claim_namespace="ml",dra_claim_name="big"'
# (GPU, activity, holders: (pod, extra labels))
HOLDINGS = (
    ("a", 0.5, (("p1", ',team="vision",vgpu="0"'), ("p1", ',team="vision",vgpu="1"'), ("p2", ',team="vision"'))),
    ("b", 0.1, (("p3", ""),)),
    ("c", 0.9, (("p4", f",{CLAIM}"),)),
)


def input_series(mode: str) -> list[dict[str, str]]:
    out = []
    for i, (u, activity, holders) in enumerate(HOLDINGS):
        gpu = GPU.format(i=i, u=u)
        pods = [f',namespace="ml",pod="{p}",container="main"{extra}' for p, extra in holders]
        if mode == "info":
            out.append({"series": f"DCGM_FI_PROF_SM_ACTIVE{{{gpu}}}", "values": f"{activity}x20"})
            out.append({"series": f"DCGM_FI_DEV_GPU_TEMP{{{gpu}}}", "values": "40x20"})
            out += [{"series": f"gpuscope_gpu_workload_info{{{gpu}{p}}}", "values": "1x20"} for p in pods]
        else:  # labels mode: one copy of the GPU series per holder (virtual GPUs), labels on it
            out += [{"series": f"DCGM_FI_PROF_SM_ACTIVE{{{gpu}{p}}}", "values": f"{activity}x20"} for p in pods]
            out += [{"series": f"DCGM_FI_DEV_GPU_TEMP{{{gpu}{p}}}", "values": "40x20"} for p in pods]
    return out


def expect(name: str, *samples: tuple[str, float]) -> dict[str, Any]:
    return {
        "expr": name,
        "eval_time": "10m",
        "exp_samples": [{"labels": f"{name}{{{labels}}}", "value": value} for labels, value in samples],
    }


@pytest.mark.parametrize("mode", ["info", "labels"])
def test_team_sharing_and_claim_rollups(mode: str, tmp_path: Path) -> None:
    config = RulesConfig(workload_labels=mode, pod_group_labels=("team",), virtual_gpus=True, dra=True)
    groups = [group_dict(config, g) for g in build_groups(config)]
    (tmp_path / "rules.yaml").write_text(yaml.safe_dump({"groups": groups}))
    # The series of this test carry a cluster label (in a cluster's Prometheus the cluster is an external label
    # and absent): the per-holder records keep it in both modes.
    joined = 'cluster="c1",'
    tests = {
        "rule_files": ["rules.yaml"],
        "evaluation_interval": "1m",
        "tests": [
            {
                "interval": "1m",
                "input_series": input_series(mode),
                "promql_expr_test": [
                    expect("team:gpu_activity:avg5m", (f'{joined}team="vision"', 0.5)),
                    # p1 and p2 both hold GPU a, each half of it (p1's two replicas once): the team holds one GPU.
                    expect("team:gpus_allocated:count", (f'{joined}team="vision"', 1)),
                    expect(
                        "gpu:sharing_pods:count",
                        ('cluster="c1",UUID="GPU-a"', 2),
                        ('cluster="c1",UUID="GPU-b"', 1),
                        ('cluster="c1",UUID="GPU-c"', 1),
                    ),
                    expect("dra_claim:gpu_activity:avg5m", (f"{joined}{CLAIM}", 0.9)),
                ],
            }
        ],
    }
    (tmp_path / "test.yaml").write_text(yaml.safe_dump(tests))
    result = subprocess.run(
        [find_binary("promtool"), "test", "rules", "test.yaml"], cwd=tmp_path, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_default_config_adds_no_group() -> None:
    assert "gpuscope-attribution.rules" not in {g.name for g in build_groups(RulesConfig())}
    with pytest.raises(ValueError, match="is not a label name"):
        RulesConfig(pod_group_labels=("app.kubernetes.io/name",))


def test_info_mode_records_the_device_series_beside_the_per_pod_split(tmp_path: Path) -> None:
    """With shared GPUs the exporter writes GPU_UTIL and FB_USED per sharing pod beside the device's series, in info
    mode too (dcgm-exporter's split): the per-GPU records read the device's value, one series per GPU."""
    config = RulesConfig(virtual_gpus=True)
    groups = [group_dict(config, g) for g in build_groups(config)]
    (tmp_path / "rules.yaml").write_text(yaml.safe_dump({"groups": groups}))
    gpu = GPU.format(i=0, u="a")
    split = [',namespace="ml",pod="p1",container="main",pod_uid="u1",vgpu="0"', ',namespace="ml",pod="p2",vgpu="1"']
    series = [
        {"series": f"DCGM_FI_DEV_GPU_UTIL{{{gpu}}}", "values": "60x20"},
        {"series": f"DCGM_FI_DEV_FB_USED{{{gpu}}}", "values": "4096x20"},
        {"series": f"DCGM_FI_DEV_FB_FREE{{{gpu}}}", "values": "4096x20"},
    ]
    for pod, (util, mib) in zip(split, ((60, 4000), (0, 0)), strict=True):
        series.append({"series": f"DCGM_FI_DEV_GPU_UTIL{{{gpu}{pod}}}", "values": f"{util}x20"})
        series.append({"series": f"DCGM_FI_DEV_FB_USED{{{gpu}{pod}}}", "values": f"{mib}x20"})
    labels = 'cluster="c1",gpu="0",UUID="GPU-a",Hostname="h1",instance="h1:9400",modelName="H200"'
    tests = {
        "rule_files": ["rules.yaml"],
        "evaluation_interval": "1m",
        "tests": [
            {
                "interval": "1m",
                "input_series": series,
                "promql_expr_test": [
                    # One record, the device's: the split's 60 % and 0 % are the pods' shares, not two more GPUs.
                    expect("gpu:utilization:ratio_avg5m", (f'job="dcgm-exporter",{labels}', 0.6)),
                    expect("gpu:activity:avg5m", (f'job="dcgm-exporter",{labels}', 0.6)),
                    expect("gpu:fb_used:ratio", (f'job="dcgm-exporter",{labels}', 0.5)),
                ],
            }
        ],
    }
    (tmp_path / "test.yaml").write_text(yaml.safe_dump(tests))
    result = subprocess.run(
        [find_binary("promtool"), "test", "rules", "test.yaml"], cwd=tmp_path, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr

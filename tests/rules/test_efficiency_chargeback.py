"""The chargeback rollups evaluated by promtool: a held, half-busy GPU at 300 W next to a busy GPU nobody holds,
and a 600 W MIG GPU whose 3g and 4g instances are held by two namespaces: each instance holds its compute-slice
share of the GPU (3/7, 4/7) and draws that share of its watts. The MIG GPU's device fields (temperature, energy)
repeat on each instance, as dcgm-exporter serves them."""

from __future__ import annotations

import subprocess
from pathlib import Path

import yaml

from gpuscope.rules import RulesConfig, build_groups, cold_tier_records
from gpuscope.rules.efficiency_chargeback import ACTIVE_5M, GPUS_5M, HELD_5M, POWER_5M, chargeback_groups
from gpuscope.rules.promql import Promql
from gpuscope.rules.recording import recording_groups
from gpuscope.rules.render import group_dict
from gpuscope.runner.binaries import find_binary

GPU_A = 'job="dcgm-exporter",cluster="c1",UUID="GPU-a",gpu="0",Hostname="h1",modelName="NVIDIA H200"'
GPU_B = 'job="dcgm-exporter",cluster="c1",UUID="GPU-b",gpu="1",Hostname="h1",modelName="NVIDIA H200"'
GPU_M = 'job="dcgm-exporter",cluster="c1",UUID="GPU-m",gpu="2",Hostname="h1",modelName="NVIDIA H200"'
GROUP = 'cluster="c1",modelName="NVIDIA H200",namespace="ml",team="vision"'
MIG_GROUP = 'cluster="c1",modelName="NVIDIA H200",namespace="infer",team="serving"'


def test_rollups_count_held_active_and_watts(tmp_path: Path) -> None:
    config = RulesConfig()
    # the rollups are means of the once-a-minute records (per unit, per holder, per GPU), recorded by the others
    q = Promql(config)
    groups = [group_dict(config, g) for g in (*recording_groups(q), *chargeback_groups(q))]
    (tmp_path / "rules.yaml").write_text(yaml.safe_dump({"groups": groups}))
    info = f'gpuscope_gpu_workload_info{{{GPU_A},namespace="ml",pod="train-0",container="main",team="vision"}}'
    tests = {
        "rule_files": ["rules.yaml"],
        "evaluation_interval": "1m",
        # the rendered order: promtool's own is random, and a rollup evaluated before the records it averages
        # would read the minute before (tests/support/promtool.py)
        "group_eval_order": [g["name"] for g in groups],
        "tests": [
            {
                "interval": "1m",
                "input_series": [
                    {"series": info, "values": "1x40"},
                    *(
                        {
                            "series": f'gpuscope_gpu_workload_info{{{GPU_M},GPU_I_ID="{gi}",namespace="{ns}",'
                            f'pod="p{gi}",container="main",team="{team}"}}',
                            "values": "1x40",
                        }
                        for gi, ns, team in ((1, "ml", "vision"), (2, "infer", "serving"))
                    ),
                    *(
                        {"series": f'{name}{{{GPU_M},GPU_I_ID="{gi}",GPU_I_PROFILE="{profile}"}}', "values": values}
                        for gi, profile in ((1, "3g.71gb"), (2, "4g.71gb"))
                        for name, values in (
                            ("DCGM_FI_DEV_GPU_TEMP", "40x40"),
                            ("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "0+36000000x40"),
                        )
                    ),
                    *(
                        {
                            "series": f'DCGM_FI_PROF_SM_ACTIVE{{{GPU_M},GPU_I_ID="{gi}",GPU_I_PROFILE="{profile}"}}',
                            "values": f"{act}x40",
                        }
                        for gi, profile, act in ((1, "3g.71gb", 0.25), (2, "4g.71gb", 0.75))
                    ),
                    {"series": f"DCGM_FI_DEV_GPU_TEMP{{{GPU_A}}}", "values": "40x40"},
                    {"series": f"DCGM_FI_DEV_GPU_TEMP{{{GPU_B}}}", "values": "40x40"},
                    {"series": f"DCGM_FI_PROF_SM_ACTIVE{{{GPU_A}}}", "values": "0.5x40"},
                    {"series": f"DCGM_FI_PROF_SM_ACTIVE{{{GPU_B}}}", "values": "0.9x40"},
                    # 300 W is 18,000 J (18e6 mJ) a minute.
                    {"series": f"DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{{{GPU_A}}}", "values": "0+18000000x40"},
                    {"series": f"DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{{{GPU_B}}}", "values": "0+36000000x40"},
                ],
                "promql_expr_test": [
                    {
                        "expr": HELD_5M,
                        "eval_time": "30m",
                        "exp_samples": [
                            {"labels": f"{HELD_5M}{{{GROUP}}}", "value": 1 + 3 / 7},
                            {"labels": f"{HELD_5M}{{{MIG_GROUP}}}", "value": 4 / 7},
                        ],
                    },
                    {
                        "expr": ACTIVE_5M,
                        "eval_time": "30m",
                        "exp_samples": [
                            {"labels": f"{ACTIVE_5M}{{{GROUP}}}", "value": 0.5 + 3 / 7 * 0.25},
                            {"labels": f"{ACTIVE_5M}{{{MIG_GROUP}}}", "value": 4 / 7 * 0.75},
                        ],
                    },
                    {
                        "expr": POWER_5M,
                        "eval_time": "30m",
                        "exp_samples": [
                            {"labels": f"{POWER_5M}{{{GROUP}}}", "value": 300 + 600 * 3 / 7},
                            {"labels": f"{POWER_5M}{{{MIG_GROUP}}}", "value": 600 * 4 / 7},
                        ],
                    },
                    {
                        "expr": GPUS_5M,
                        "eval_time": "30m",
                        "exp_samples": [{"labels": f'{GPUS_5M}{{cluster="c1",modelName="NVIDIA H200"}}', "value": 3}],
                    },
                ],
            }
        ],
    }
    (tmp_path / "test.yaml").write_text(yaml.safe_dump(tests))
    result = subprocess.run(
        [find_binary("promtool"), "test", "rules", "test.yaml"], cwd=tmp_path, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_rollups_are_generated_and_go_to_the_cold_tier() -> None:
    config = RulesConfig()
    names = {g.name for g in build_groups(config)}
    assert {"gpuscope-chargeback-5m.rules", "gpuscope-chargeback-1h.rules"} <= names
    cold = set(cold_tier_records(config))
    assert {HELD_5M, ACTIVE_5M, POWER_5M, GPUS_5M, "chargeback:gpus_held:avg_rollup1h"} <= cold

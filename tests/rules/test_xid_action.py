"""The ``action`` annotation, rendered by real promtool: the catalogue's action for the XID that fired."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml

from gpuscope.fields.xid import xid_action
from gpuscope.rules import RulesConfig
from tests.rules.fixtures import flat, from_, gpu_labels, identity, until, up, uuid
from tests.support.prom import binary
from tests.support.promtool import Series, write_rules


def _alert(name: str, labels: dict[str, str], description: str, summary: str, action: str) -> dict[str, object]:
    return {
        "exp_labels": {"alertname": name, "severity": "page", "owner": "infra", **labels},
        "exp_annotations": {
            "summary": summary,
            "description": description,
            "runbook_url": f"docs/runbooks/{name}.md",
            "action": action,
        },
    }


@pytest.mark.promtool
def test_action_annotation_names_the_catalogue_action_of_the_xid(tmp_path: Path) -> None:
    names = write_rules(RulesConfig(), tmp_path, annotations=True)
    who = f"GPU 0 ({uuid('node-a', 0)}) on node-a (node-a:9400)"
    series = [
        up(),
        Series("DCGM_FI_DEV_GPU_TEMP", gpu_labels(0), flat(60)),
        Series("DCGM_FI_DEV_GPU_TEMP", gpu_labels(1), flat(60)),
        Series("DCGM_FI_DEV_XID_ERRORS", gpu_labels(0, extra={"err_code": "0", "err_msg": "No Error"}), until(0)),
        Series("DCGM_FI_DEV_XID_ERRORS", gpu_labels(0, extra={"err_code": "95", "err_msg": "x"}), from_("95")),
        Series("DCGM_EXP_XID_ERRORS_TOTAL", gpu_labels(1, extra={"xid": "79"}), from_("1")),
    ]
    tests = [
        {
            "eval_time": "30m",
            "alertname": "GPUXidCritical",
            "exp_alerts": [
                _alert(
                    "GPUXidCritical",
                    identity(0, xid="95"),
                    f"{who} reported XID 95 in the last 10 minutes.",
                    "A GPU reported a critical XID error.",
                    xid_action(95),
                )
            ],
        },
        {
            "eval_time": "30m",
            "alertname": "GPUFellOffBus",
            "exp_alerts": [
                _alert(
                    "GPUFellOffBus",
                    identity(1),
                    f"GPU 1 ({uuid('node-a', 1)}) on node-a (node-a:9400) is lost: XID 79 / NVML GPU_IS_LOST, or the "
                    "exporter is up but the GPU no longer answers.",
                    "A GPU has fallen off the bus (XID 79) and stopped reporting.",
                    xid_action(79),
                )
            ],
        },
    ]
    suite = {
        "rule_files": names,
        "evaluation_interval": "15s",
        "tests": [{"interval": "15s", "input_series": [s.promtool() for s in series], "alert_rule_test": tests}],
    }
    (tmp_path / "suite.yaml").write_text(yaml.safe_dump(suite, sort_keys=False))
    result = subprocess.run(
        [binary("promtool"), "test", "rules", str(tmp_path / "suite.yaml")], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr

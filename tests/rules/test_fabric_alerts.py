"""The fabric pages name what failed: promtool renders each alert's description, whose template queries the
per-link and per-switch records of the alert's partition, and the page must name the link or switch and the
partition (the scenarios in cases_fabric.py check the labels: one alert per partition)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml

from gpuscope.rules import RulesConfig
from tests.rules.cases_fabric import (
    FATAL,
    OTHER_RACK,
    in_partition,
    links,
    partition,
    switch_labels,
)
from tests.rules.fixtures import change, up
from tests.support.prom import binary
from tests.support.promtool import Case, Series, alert_test, write_rules

_WHERE = f"partition {OTHER_RACK}/0"
CASES = (
    (
        Case(
            "one link of one GPU down",
            "GPUNVLinkDown",
            (
                up("hgx-1"),
                *partition("hgx-1", 2, 0, OTHER_RACK),
                # every link up but the last series: GPU 1's link 3
                *links("hgx-1", 2, down=())[:-1],
                *links("hgx-1", 2, down=(3,))[-1:],
            ),
            fires_by="45m",
            expected=({**in_partition(0, OTHER_RACK), "Hostname": "hgx-1"},),
        ),
        f"1 NVLink link(s)/switch port(s) down in {_WHERE}: hgx-1 GPU 1 link 3; ",
    ),
    (
        Case(
            "one switch with a fatal SXid",
            "GPUNVSwitchFatalError",
            (
                up("hgx-1"),
                *partition("hgx-1", 2, 0, OTHER_RACK),
                Series(FATAL, switch_labels("hgx-1", 2), change(0, 12028)),
            ),
            fires_by="45m",
            expected=({**in_partition(0, OTHER_RACK), "Hostname": "hgx-1"},),
        ),
        f"1 NVSwitch(es) with a fatal SXid in {_WHERE}: hgx-1 nvswitch2 SXid 12028; ",
    ),
)


@pytest.mark.promtool
@pytest.mark.parametrize(("case", "description"), CASES, ids=[c.alert for c, _ in CASES])
def test_the_page_names_the_link_or_switch_and_the_partition(case: Case, description: str, tmp_path: Path) -> None:
    names = write_rules(RulesConfig(), tmp_path, annotations=True)
    test = alert_test(case)
    alert = next(
        r
        for n in names
        for g in yaml.safe_load((tmp_path / n).read_text())["groups"]
        for r in g["rules"]
        if r.get("alert") == case.alert
    )
    annotations = {**alert["annotations"], "description": description}
    for check in test["alert_rule_test"]:
        for exp in check["exp_alerts"]:
            exp["exp_annotations"] = annotations
    (tmp_path / "t.yaml").write_text(
        yaml.safe_dump({"rule_files": names, "evaluation_interval": "15s", "tests": [test]})
    )
    result = subprocess.run(
        [binary("promtool"), "test", "rules", "t.yaml"], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr

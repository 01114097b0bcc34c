"""``gpuscope.ruleconfig.groups``' table of labels whose group records other rules write, held to the rules.

The spec checks a pod group label where it is written without building the rules (``spec`` does not import
``rules``), from ``RECORDED_BY_OTHERS``; this is what keeps that table equal to what the rules really record, for
every mode, dialect and host label a spec can choose.
"""

from __future__ import annotations

import itertools

import pytest

from gpuscope.ruleconfig.groups import (
    GROUP_RECORDS,
    RECORDED_BY_OTHERS,
    group_label_problem,
    group_record,
    join_labels,
)
from gpuscope.rules import Recording, RulesConfig, build_groups

CONFIGS = [
    RulesConfig(host_label=host, dialect=dialect, workload_labels=mode)
    for host, dialect, mode in itertools.product(
        ("Hostname", "hostname"), ("classic", "4.9"), ("info", "labels", "off")
    )
]


def _recorded(config: RulesConfig) -> set[str]:
    everything = config.model_copy(update={"pod_group_labels": (), "dra": True, "virtual_gpus": True})
    return {r.record for g in build_groups(everything) for r in g.rules if isinstance(r, Recording)}


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.workload_labels}-{c.dialect}-{c.host_label}")
def test_the_table_names_every_label_whose_group_records_another_rule_writes(config: RulesConfig) -> None:
    recorded = _recorded(config)
    taken = {r.split(":")[0] for r in recorded if any(r == group_record(r.split(":")[0], w) for w in GROUP_RECORDS)}
    assert set(RECORDED_BY_OTHERS[config.workload_labels]) == taken


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.workload_labels}-{c.dialect}-{c.host_label}")
def test_a_taken_label_names_a_record_the_rules_really_write(config: RulesConfig) -> None:
    recorded = _recorded(config)
    for label in sorted(RECORDED_BY_OTHERS[config.workload_labels]):
        problem = group_label_problem(label, config)
        if label in join_labels(config):  # refused for that first
            assert problem is not None and "already join and group on" in problem
            continue
        assert problem is not None and f"would record {group_record(label, GROUP_RECORDS[0])}," in problem
        assert group_record(label, GROUP_RECORDS[0]) in recorded
    assert group_label_problem("team", config) is None

"""The rules configurations the syntax, interval and name checks run against: the default and three that move
every knob (dcgm-exporter 4.9 labels, the old namespace, custom selectors, XIDs, models and runbooks)."""

from __future__ import annotations

from gpuscope.rules import RulesConfig

VARIANTS = {
    "default": RulesConfig(),
    "dcgm-4.9-labels-hostname": RulesConfig(dialect="4.9", workload_labels="labels", host_label="hostname"),
    "off-old-namespace": RulesConfig(workload_labels="off", uuid_label="uuid"),
    "custom": RulesConfig(
        exporter_selector='job=~"gpu-.*",cluster="a"',
        prometheus_selector='job="prom"',
        critical_xids=(48, 79),
        budgeted_models=("NVIDIA H200",),
        runbook_base_url="https://x/rb",
    ),
}

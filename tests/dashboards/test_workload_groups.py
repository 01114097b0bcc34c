"""The L5 attribution row: present only with pod-label groups, virtual GPUs or DRA, reading rules that exist."""

from __future__ import annotations

import re

from gpuscope.rules import RulesConfig, build_groups
from tests.support.dashboards import built, panels


def test_row_follows_the_attribution_options_and_reads_recorded_series() -> None:
    config = RulesConfig(pod_group_labels=("team", "cost_center"), virtual_gpus=True, dra=True)
    l5 = built(config)["l5-workload.json"]
    titles = {p["title"] for p in panels(l5)}
    assert {"Activity by team", "GPUs held by cost_center", "Pods per shared GPU", "Activity by DRA claim"} <= titles
    recorded = {r.record for g in build_groups(config) for r in g.rules if hasattr(r, "record")}
    exprs = [t["expr"] for p in panels(l5) if p["title"] in titles for t in p.get("targets", ())]
    used = {n for e in exprs for n in re.findall(r"\b([a-z_]+:[a-z_:0-9]+)\{", e)}
    assert {"team:gpu_activity:avg5m", "gpu:sharing_pods:count", "dra_claim:gpu_activity:avg5m"} <= used <= recorded
    assert "Activity by team" not in {p["title"] for p in panels(built(RulesConfig())["l5-workload.json"])}

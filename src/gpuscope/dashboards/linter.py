"""The ``.lint`` file for Grafana's dashboard-linter: each of its rules the dashboards deliberately do not follow.

dashboard-linter reads a ``.lint`` file next to the dashboards; every exclusion carries its reason, so a reader
of the bundle learns why, and the linter still checks every other rule. The rules the dashboards do follow
(a templated data source used by every panel, PromQL variables, reload on time change, not editable, a title
and description and a unit on every panel) are not listed.
"""

from __future__ import annotations

from typing import Any

_NO_JOB_OR_INSTANCE = (
    "gpuscope filters by cluster, host and GPU UUID, the labels a GPU keeps for life: the exporter job is fixed by "
    "the rules config's exporter selector, and instance is the exporter pod's IP:port, which changes every time "
    "the pod is replaced"
)
EXCLUSIONS: tuple[tuple[str, str], ...] = (
    ("template-job-rule", f"No job variable: {_NO_JOB_OR_INSTANCE}."),
    ("template-instance-rule", f"No instance variable: {_NO_JOB_OR_INSTANCE}."),
    (
        "target-job-rule",
        "Queries read recording rules, which the exporter selector already scopes, or select raw series with that "
        "selector; a job matcher of its own would repeat it.",
    ),
    (
        "target-instance-rule",
        "Queries select by the cluster, host and UUID variables; an instance matcher would cut a GPU's history at "
        "every exporter pod restart.",
    ),
    (
        "target-rate-interval-rule",
        "Event panels count over $__range (XIDs, ECC and NVLink errors in the selected range), and recorded series "
        "carry the alerts' own windows so a panel turns red exactly where the alert fires.",
    ),
)


def lint_file() -> dict[str, Any]:
    return {"exclusions": {rule: {"reason": reason} for rule, reason in EXCLUSIONS}}

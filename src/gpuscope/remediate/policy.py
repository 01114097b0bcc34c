"""The remediation policy file: which alerts act on which clusters' nodes, and the limits every action stays within.

A YAML file (``gpuscope remediate --policy``, generated into the bundle as ``remediation/policy.yaml``), validated
with ``file:line:col`` errors like the fleet spec::

    clusters:                       # the alerts' `cluster` label; alerts of other clusters never act
      - {name: hpc-west, kind: slurm, nodes: 64, budget: {max_nodes: 4, max_percent: 10}}
      - {name: gpu-east, kind: kubernetes, nodes: 200}
    node_label: Hostname            # the alert label naming the node (Slurm NodeName / Kubernetes node name)
    rules:                          # default: DEFAULT_RULES below
      - {alert: GPUFellOffBus}
      - {alert: GPUXidCritical, xid_buckets: [RESET_GPU, RESTART_BM]}
    return_to_service: {after: 30m} # default: never (a person returns nodes)
    flap: {window: 6h, max_returns: 2}
    kubernetes: {taint_effect: NoSchedule, cordon: true}

Only ``severity="page"`` alerts act: a ticket never does, whatever a rule says. The budget is the number of
nodes gpuscope holds in a cluster at once: the smaller of ``max_nodes`` and ``max_percent`` of the cluster's nodes
(at least one).
"""

from __future__ import annotations

import math
import re
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, Strict, field_validator, model_validator

from gpuscope.durations import prometheus_seconds
from gpuscope.fields.xid import Bucket
from gpuscope.spec.fleet import DnsName, Duration, LabelName
from gpuscope.spec.source import load_yaml_model, parse_yaml_model

__all__ = [
    "CONDITION_TYPE",
    "DEFAULT_RULES",
    "DEFAULT_XID_BUCKETS",
    "LEASE_NAME",
    "TAINT_KEY",
    "Budget",
    "ClusterPolicy",
    "Policy",
    "Rule",
    "load_policy",
    "parse_policy",
]

TAINT_KEY = "gpuscope.io/gpu-unhealthy"
LEASE_NAME = "gpuscope-remediate"  # the leader Lease in the policy's Kubernetes namespace
CONDITION_TYPE = "GPUHealthy"
# The XID catalogue's buckets whose immediate action takes the GPU out of service (a reset, a reboot, the memory
# and NVLink workflows); RESTART_APP, IGNORE and the rest leave the node in service.
DEFAULT_XID_BUCKETS: tuple[Bucket, ...] = (
    Bucket.RESET_GPU,
    Bucket.RESTART_BM,
    Bucket.WORKFLOW_XID_48,
    Bucket.WORKFLOW_NVLINK_ERR,
    Bucket.WORKFLOW_NVLINK5_ERR,
)
_ALERT_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,127}$")
Count = Annotated[int, Strict()]
Percent = Annotated[float, Field(gt=0, le=100, allow_inf_nan=False), Strict()]


def _alert_name(value: str) -> str:
    if not _ALERT_NAME.match(value):
        raise ValueError(f"{value!r:.80} is not an alert name (letters, digits and _)")
    return value


AlertName = Annotated[str, AfterValidator(_alert_name)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Budget(_Model):
    """At most this many nodes held by gpuscope at once in one cluster: the smaller of the two where both are set
    (by default 2 nodes and 10%); naming only one sets only that one."""

    max_nodes: Count | None = Field(2, ge=1, le=100_000)
    max_percent: Percent | None = 10.0

    @model_validator(mode="after")
    def _some(self) -> Budget:
        # Naming one limit means that limit alone: the other's default applies only when neither is written.
        if self.model_fields_set == {"max_nodes"}:
            object.__setattr__(self, "max_percent", None)
        elif self.model_fields_set == {"max_percent"}:
            object.__setattr__(self, "max_nodes", None)
        if self.max_nodes is None and self.max_percent is None:
            raise ValueError("set max_nodes or max_percent (or both): a budget without either is no limit")
        return self

    def limit(self, size: int | None) -> int:
        """The number of nodes this budget allows out of ``size`` (None: unknown, and only max_nodes applies)."""
        limits = []
        if self.max_nodes is not None:
            limits.append(self.max_nodes)
        if self.max_percent is not None and size is not None:
            # At least one node: 10% of a 4-node cluster must not mean that nothing is ever taken out.
            limits.append(max(1, math.floor(size * self.max_percent / 100)))
        return min(limits) if limits else 0


class ClusterPolicy(_Model):
    name: DnsName
    kind: Literal["slurm", "kubernetes"]
    nodes: Count | None = Field(
        None, ge=1, le=200_000, description="the cluster's size for max_percent (default: counted on the scheduler)"
    )
    budget: Budget = Budget()


class Rule(_Model):
    """An alert that takes a node out of service: drained in Slurm, tainted (and cordoned) in Kubernetes."""

    alert: AlertName
    xid_buckets: tuple[Bucket, ...] = Field(
        (), description="act only on alerts whose `xid` label's catalogue bucket is one of these (empty: any)"
    )
    taint_effect: Literal["NoSchedule", "PreferNoSchedule", "NoExecute"] | None = None


DEFAULT_RULES: tuple[Rule, ...] = (
    Rule(alert="GPUFellOffBus"),
    Rule(alert="GPUXidCritical", xid_buckets=DEFAULT_XID_BUCKETS),
    Rule(alert="GPUDoubleBitEccErrors"),
    Rule(alert="GPURowRemapFailure"),
    # A ticket today, so it does not act (tickets never do); it takes the node out wherever it pages.
    Rule(alert="GPUFabricDegraded"),
    # NVLink links down and fatal NVSwitch SXids (rules/alerts_fabric.py) page once per NVLink partition and name
    # the node only where the fault sits on one node (one GPU's links, an HGX baseboard's switches): that node is
    # drained. A fault across nodes (an NVL72 switch tray) names none, so nothing is drained: taking compute trays
    # out mends no switch, and the budget would stop a rack-wide drain after a node or two anyway.
    Rule(alert="GPUNVLinkDown"),
    Rule(alert="GPUNVSwitchFatalError"),
)


class ReturnToService(_Model):
    after: Duration | None = Field(
        None, description="return a node after this long without a firing alert (default: never; a person does)"
    )

    @property
    def after_s(self) -> float | None:
        return None if self.after is None else prometheus_seconds(self.after)


class Flap(_Model):
    """A node returned to service ``max_returns`` times within ``window`` is not returned again: a person decides."""

    window: Duration = "6h"
    max_returns: Count = Field(2, ge=1, le=1000)

    @property
    def window_s(self) -> float:
        return prometheus_seconds(self.window)


class KubernetesPolicy(_Model):
    taint_effect: Literal["NoSchedule", "PreferNoSchedule", "NoExecute"] = Field(
        "NoSchedule", description="NoExecute also evicts running pods; NoSchedule lets them finish"
    )
    cordon: Annotated[bool, Strict()] = True
    namespace: DnsName = Field("gpu-monitoring", description="where Events and the leader Lease are written")


class Policy(_Model):
    clusters: tuple[ClusterPolicy, ...] = Field(min_length=1)
    node_label: LabelName = "Hostname"
    rules: tuple[Rule, ...] = DEFAULT_RULES
    return_to_service: ReturnToService = ReturnToService()
    flap: Flap = Flap()
    kubernetes: KubernetesPolicy = KubernetesPolicy()
    page_for: Duration = Field("1h", description="how long the budget-exhausted page stays up unless renewed")

    @field_validator("clusters")
    @classmethod
    def _unique_clusters(cls, clusters: tuple[ClusterPolicy, ...]) -> tuple[ClusterPolicy, ...]:
        names = [c.name for c in clusters]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"cluster names must be unique; repeated: {', '.join(dupes)}")
        return clusters

    @field_validator("rules")
    @classmethod
    def _unique_rules(cls, rules: tuple[Rule, ...]) -> tuple[Rule, ...]:
        names = [r.alert for r in rules]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"one rule per alert; repeated: {', '.join(dupes)}")
        return rules

    def cluster(self, name: str) -> ClusterPolicy | None:
        return next((c for c in self.clusters if c.name == name), None)

    def rule(self, alert: str) -> Rule | None:
        return next((r for r in self.rules if r.alert == alert), None)


def load_policy(path: str) -> Policy:
    """The policy in ``path``; any problem is one ``SpecError`` line at ``file:line:col``."""
    return load_yaml_model(path, Policy, "policy")


def parse_policy(text: str, source: str = "policy.yaml") -> Policy:
    return parse_yaml_model(text, source, Policy)

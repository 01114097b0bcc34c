"""What the fleet spec says the audited cluster should look like: targets, GPUs, budget, models, host label.

The cluster is found by the audited Prometheus's ``cluster`` external label (gpuscope's generated configs set it),
or is the spec's only cluster. The head-series prediction is ``gpuscope budget``'s (the bundle's ``budget.json``),
handed in by the caller as a ``Predict``: the doctor reads what the compiler produces, and never imports it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from gpuscope.hardware.models import MODELS
from gpuscope.ruleconfig.config import RulesConfig
from gpuscope.spec.fleet import Cluster
from gpuscope.spec.load import LoadedSpec

# The head series the spec's cardinality budget predicts for each of its clusters, by cluster name.
Predict = Callable[[LoadedSpec], Mapping[str, int]]


@dataclass(frozen=True, slots=True)
class FabricExpectation:
    """The NVLink inventory the spec's hardware model promises for its GPUs (``modelName``) and their nodes."""

    model_name: str
    links_per_gpu: int
    link_mbps: float  # per link and direction
    switches_per_node: int


@dataclass(frozen=True, slots=True)
class Expectation:
    source: str  # where the expectation comes from, for evidence lines
    cluster: str | None  # the fleet cluster matched, if any
    targets: int | None
    gpus: int | None
    predicted_head_series: int | None
    host_label: str | None  # the fleet's exporter host label: the one its generated rules select on
    note: str = ""  # why no cluster matched, when none did
    fabric: tuple[FabricExpectation, ...] = ()  # per GPU model with NVLink, of the matched cluster


def no_fleet() -> Expectation:
    return Expectation("no --fleet", None, None, None, None, None)


def from_fleet(loaded: LoadedSpec, path: str, predicted: Mapping[str, int], cluster: str | None) -> Expectation:
    spec = loaded.spec
    names = [c.name for c in spec.clusters]
    if cluster in names:
        chosen = cluster
    elif cluster is None and len(names) == 1:
        chosen = names[0]
    else:
        seen = f"its cluster label is {cluster!r}" if cluster else "it has no cluster external label"
        note = f"{path} lists clusters {', '.join(names)}; {seen}, so no cluster's sizes apply"
        return Expectation(path, None, None, None, None, spec.exporter.host_label, note)
    match = next(c for c in spec.clusters if c.name == chosen)
    return Expectation(
        f"{path} (cluster {chosen})",
        chosen,
        match.nodes,
        match.gpus,
        predicted.get(chosen),
        spec.exporter.host_label,
        fabric=fabric_inventory(match),
    )


def fabric_inventory(cluster: Cluster) -> tuple[FabricExpectation, ...]:
    """Links per GPU, their speed and NVSwitches per node of each NVLink model of ``cluster`` (hardware/models.py)."""
    out: dict[str, FabricExpectation] = {}
    for group in cluster.node_groups:
        model = MODELS[group.gpu_model]
        if model.nvlinks:
            out[model.name] = FabricExpectation(
                model_name=model.name,
                links_per_gpu=model.nvlinks,
                link_mbps=model.nvlink_mbps_per_link,
                switches_per_node=model.nvswitches,
            )
    return tuple(out.values())


def base_config(loaded: LoadedSpec | None, speedup: int) -> RulesConfig:
    """Budgets, models, thresholds and runbook links from the spec (or the defaults), at the audit's speedup."""
    config = loaded.spec.rules_config() if loaded else RulesConfig()
    return config.model_copy(update={"speedup": speedup})

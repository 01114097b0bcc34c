"""The ``teams`` workload mix: who holds which GPU of a simulated node, and how hard they use it.

``gpuscope up`` runs it so that the workload half of the dashboards tells a story from the first minutes: one
team busy, one team holding GPUs it does not use, a notebook sitting on memory, a team that grows. Per node, by
GPU index (a node with more GPUs gives the rest to the busy team; one with fewer keeps the first roles):

====  ==========  =====================================================  ==========================
GPU   namespace   pods                                                   activity
====  ==========  =====================================================  ==========================
0     serving     three inference pods time-slicing it (they churn)      inference (diurnal)
1     research    two MPS clients behind an MPS server (they churn)      bursty
2-4   ml          one training pod each: the busy team                   training
5     vision      an evaluation pod holding the GPU, doing nothing       idle: GPUAllocatedButIdle
6     notebooks   a notebook kernel left open on 60 % of the memory      idle, memory held
7     llm         the growing team: takes the GPU a few minutes after    idle and free, then training
                  the node started (later on some nodes than others)
====  ==========  =====================================================  ==========================

A MIG GPU runs an ``ml`` worker on every GPU instance but its last one, which stays free: headroom, so requests
stay below what the cluster can allocate. Pure: the node decides when the growing team has arrived.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from gpuscope.backends.sim.activity import WorkloadKind

TEAMS_MIX = "teams"
SHARED_REPLICAS = 4  # replicas the device plugin's time-slicing / MPS config advertises per shared GPU
GROWTH_FIRST_S = 30.0  # the growing team's first node, after the node started
GROWTH_STEP_S = 30.0  # and the others, one step apart (by a hash of the host name)
GROWTH_STEPS = 8


@dataclass(frozen=True, slots=True)
class Role:
    """What one GPU of a ``teams`` node runs."""

    namespace: str
    base: str  # pod name prefix
    container: str
    comm: str
    kind: WorkloadKind
    sharing: str = ""  # "time-slicing" | "mps" | ""
    churns: bool = False
    memory: float = 0.75  # of the GPU's memory, all the GPU's pods together
    grows: bool = False


SERVING = Role("serving", "infer", "server", "tritonserver", WorkloadKind.INFERENCE, "time-slicing", True, 0.375)
RESEARCH = Role("research", "mps-client", "client", "python3", WorkloadKind.BURSTY, "mps", True, 0.33)
ML = Role("ml", "trainer", "trainer", "python3", WorkloadKind.TRAINING)
VISION = Role("vision", "eval", "eval", "python3", WorkloadKind.IDLE, memory=0.02)
NOTEBOOK = Role("notebooks", "jupyter", "notebook", "python3", WorkloadKind.NOTEBOOK, memory=0.6)
LLM = Role("llm", "pretrain", "trainer", "python3", WorkloadKind.TRAINING, grows=True)
MIG_WORKER = Role("ml", "mig-worker", "worker", "python3", WorkloadKind.TRAINING, memory=1 / 16)
_ROLES = (SERVING, RESEARCH, ML, ML, ML, VISION, NOTEBOOK, LLM)


def role(index: int) -> Role:
    """The role of GPU ``index`` of a ``teams`` node (no MIG)."""
    return _ROLES[index] if index < len(_ROLES) else ML


def growth_delay(host: str) -> float:
    """Seconds after its start at which a node's growing-team GPU is taken: the team grows node by node."""
    step = hashlib.sha256(host.encode()).digest()[0] % GROWTH_STEPS
    return GROWTH_FIRST_S + GROWTH_STEP_S * step


def gpu_kind(index: int, grown: bool) -> WorkloadKind:
    """What GPU ``index`` of a ``teams`` node does (the growing team's GPU idles until it arrives)."""
    r = role(index)
    return WorkloadKind.IDLE if r.grows and not grown else r.kind


def instance_kind(position: int, count: int) -> WorkloadKind:
    """A MIG GPU's instances: ``ml`` workers training, the last instance free and idle."""
    return WorkloadKind.IDLE if position == count - 1 and count > 1 else MIG_WORKER.kind

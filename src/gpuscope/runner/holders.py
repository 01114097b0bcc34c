"""The local stack's GPU holders: who holds which GPU, told to the exporters as a real node would tell them.

- Each node of a Kubernetes cluster gets a simulated kubelet (``simulator/kubelet.py``) serving PodResources v1
  on its own unix socket, listing the node's simulated pods; its exporter reads it with ``--kubernetes``.
- Each node of a Slurm cluster gets a job-mapping directory (``simulator/slurm.py``) kept as a prolog and epilog
  would keep it; its exporter reads it with ``--hpc-job-mapping-dir``. Some of those jobs push their progress to
  the stack's Pushgateway (``gpuscope.jobs``).

Unix socket paths are limited to 107 bytes: where the data directory is too deep for them, the sockets go to a
short temporary directory, removed at shutdown.
"""

from __future__ import annotations

import functools
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from gpuscope.exporter.attribution.source import WorkloadSettings
from gpuscope.exporter.server import Listener
from gpuscope.exporter.settings import ExporterSettings
from gpuscope.runner.plan import LocalPlan
from gpuscope.simulator.control import sim_of
from gpuscope.simulator.kubelet import MAX_SOCKET_PATH, KubeletServer, node_pods
from gpuscope.simulator.slurm import SlurmNode, SlurmSim

_LONGEST_HOST = 63  # a DNS label; "<host>.sock" must fit


@dataclass
class Holders:
    """Where the stack's nodes learn who holds their GPUs, and the servers behind it."""

    socket_dir: Path
    job_dir: Path
    kinds: dict[str, str]  # cluster -> "kubernetes" | "slurm" | ""
    kubelets: list[KubeletServer] = field(default_factory=list)
    slurm: list[SlurmSim] = field(default_factory=list)  # one per Slurm cluster: each pushes to its own gateway
    _temporary: bool = False

    def settings(self, cluster: str, base: ExporterSettings) -> ExporterSettings:
        """The exporter settings of a cluster's nodes: their kubelet's socket, or their job-mapping directory."""
        kind = self.kinds.get(cluster, "")
        if kind == "kubernetes":
            wl = WorkloadSettings(kubernetes=True, socket_path=str(self.socket_dir / "{hostname}.sock"))
        elif kind == "slurm":
            wl = WorkloadSettings(hpc_dir=str(self.job_dir / "{hostname}"))
        else:
            return base
        return replace(base, workloads=wl)

    def start(self, plan: LocalPlan, listeners: Sequence[Listener], push_interval_s: float) -> None:
        """One kubelet per Kubernetes node, listing its simulated pods; the Slurm nodes' jobs (first mapping
        files written before the first collection)."""
        slurm_nodes: dict[str, list[SlurmNode]] = {}
        for node, lst in zip(plan.nodes, listeners, strict=True):
            sim = sim_of(lst.runtime)
            kind = self.kinds.get(node.cluster, "")
            if sim is None:
                continue
            host = node.config.hostname
            if kind == "kubernetes":
                kubelet = KubeletServer(
                    str(self.socket_dir / f"{host}.sock"), functools.partial(node_pods, sim), workers=2
                )
                kubelet.start()
                self.kubelets.append(kubelet)
            elif kind == "slurm":
                uuids = tuple(g.uuid for g in sim.gpus)
                slurm_nodes.setdefault(node.cluster, []).append(SlurmNode(host, len(uuids), uuids, self.job_dir / host))
                (self.job_dir / host).mkdir(parents=True, exist_ok=True)  # as slurmd's node would have it
        gateways = plan.urls()
        self.slurm = [
            SlurmSim(nodes, gateways[f"pushgateway@{cluster}"], push_interval_s)
            for cluster, nodes in sorted(slurm_nodes.items())
        ]

    def tick(self, now: float) -> None:
        for sim in self.slurm:
            sim.tick(now)

    def finish_jobs(self) -> None:
        for sim in self.slurm:
            sim.close()
        self.slurm.clear()

    def close(self) -> None:
        self.finish_jobs()
        for kubelet in self.kubelets:
            kubelet.stop()
        self.kubelets.clear()
        if self._temporary:
            shutil.rmtree(self.socket_dir, ignore_errors=True)


def plan_holders(plan: LocalPlan, data_dir: Path) -> Holders:
    """Where the sockets and mapping directories go, and which cluster gets which."""
    kinds = {
        c.name: "kubernetes" if c.kind == "kubernetes" else "slurm" if c.slurm is not None else ""
        for c in plan.spec.clusters
    }
    socket_dir = data_dir / "kubelet"
    temporary = len(str(socket_dir / f"{'x' * _LONGEST_HOST}.sock").encode()) > MAX_SOCKET_PATH
    if temporary:
        socket_dir = Path(tempfile.mkdtemp(prefix="gpuscope-kubelet-"))
    else:
        socket_dir.mkdir(parents=True, exist_ok=True)
    return Holders(socket_dir, data_dir / "slurm-jobs", kinds, _temporary=temporary)

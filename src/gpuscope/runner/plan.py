"""The local stack's plan: a fleet spec rewritten to run on loopback, and where everything listens.

The spec keeps what describes the fleet (clusters, node groups, GPU models, MIG layouts, retention, the
exporter's naming, thresholds) and loses what points at production: endpoints become loopback ports, exporter
targets become simulated nodes on 127.x.y.z, every alert receiver becomes the local webhook recorder (a demo must
never page anyone), and the long-term store is the real one for ``victoriametrics`` (the single-node server and
vmalert), a Prometheus remote-write receiver standing in for Mimir, or a federating Prometheus (Thanos cannot run
here). Remediation goes to one local ``gpuscope remediate`` in dry run: it never drains anything. ``--fast``
scrapes every second and compresses rule and alerting time 15x.
"""

from __future__ import annotations

import contextlib
import fcntl
import itertools
import logging
import os
import random
import socket
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from gpuscope.backends.sim.node import SimNodeConfig
from gpuscope.backends.sim.teams import TEAMS_MIX
from gpuscope.durations import prometheus_seconds
from gpuscope.generate.prometheus import choose_store
from gpuscope.hardware.models import MODELS, parse_mig_layout
from gpuscope.simulator.fleet import FleetNode
from gpuscope.simulator.kube import CADVISOR_PATH, KSM_PATH
from gpuscope.spec.fleet import (
    Cluster,
    Endpoints,
    FleetSpec,
    NodeGroup,
    Receiver,
    Receivers,
    Remediation,
    VictoriaMetrics,
    Webhook,
)
from gpuscope.spec.host_signals import HostSignalsSpec

log = logging.getLogger(__name__)

FAST_SPEEDUP = 15
OWNERS = ("infra", "platform", "workload")

# What runs as the global store locally, per chosen store, and how the live view names it.
GLOBAL_KINDS = {
    "victoriametrics": "VictoriaMetrics single-node + vmalert (the real store)",
    "receiver": "Prometheus remote-write receiver (a stand-in for Mimir)",
    "federation": "Prometheus federating the clusters' rollups",
}


@dataclass(frozen=True, slots=True)
class LocalNode(FleetNode):
    """A simulated node of the local stack, and the cluster it belongs to."""

    cluster: str

    @property
    def url(self) -> str:
        return f"http://{self.target}"


@dataclass(frozen=True, slots=True)
class LocalPlan:
    spec: FleetSpec
    nodes: tuple[LocalNode, ...]
    prometheus: dict[tuple[str, str], int]  # (cluster, replica) -> port
    global_port: int
    global_kind: str  # a key of GLOBAL_KINDS
    alertmanager_port: int
    pushgateway: dict[str, int]  # cluster -> port: each cluster scrapes its own, as in production
    control_port: int
    fast: bool
    console_port: int = 0
    vmalert_port: int | None = None  # with victoriametrics
    node_exporter_port: int = 0  # the one real node-exporter, reporting this machine under every simulated node
    remediate_port: int = 0  # gpuscope remediate, in dry run: what it would drain or taint

    @property
    def global_name(self) -> str:
        return GLOBAL_KINDS[self.global_kind]

    @property
    def interval_s(self) -> float:
        return prometheus_seconds(self.spec.scrape_interval)

    def urls(self) -> dict[str, str]:
        out = {f"prometheus-{r}@{c}": f"http://127.0.0.1:{p}" for (c, r), p in sorted(self.prometheus.items())}
        out["global"] = f"http://127.0.0.1:{self.global_port}"
        out["alertmanager"] = f"http://127.0.0.1:{self.alertmanager_port}"
        out |= {f"pushgateway@{c}": f"http://127.0.0.1:{p}" for c, p in sorted(self.pushgateway.items())}
        out["control"] = f"http://127.0.0.1:{self.control_port}"
        out["console"] = f"http://127.0.0.1:{self.console_port}"
        if self.vmalert_port is not None:
            out["vmalert"] = f"http://127.0.0.1:{self.vmalert_port}"
        if self.node_exporter_port:
            out["node-exporter"] = f"http://127.0.0.1:{self.node_exporter_port}"
        if self.remediate_port:
            out["remediate"] = f"http://127.0.0.1:{self.remediate_port}"
        return out

    def nodes_of(self, cluster: str) -> list[LocalNode]:
        return [n for n in self.nodes if n.cluster == cluster]


def builtin_spec_text() -> str:
    """Two clusters: 4 nodes x 8 H100 (one node in MIG mode) and 2 nodes x 8 A100."""
    return resources.files("gpuscope.runner").joinpath("builtin-fleet.yaml").read_text(encoding="utf-8")


def _above_ephemeral() -> range:
    """Ports above the kernel's ephemeral range (``ip_local_port_range``): no outgoing connection's source port
    and no ``bind(0)`` is ever one of them."""
    try:
        high = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[1])
    except (OSError, ValueError, IndexError):
        high = 60_999  # Linux's default
    return range(high + 1, 65_536)


_ABOVE = _above_ephemeral()


def _bindable(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


# Where planners leave their reservations: one lock file per port, shared by every user (sticky, like /tmp).
RESERVATIONS = Path(tempfile.gettempdir()) / "gpuscope-ports"


class PortPlanner:
    """Hands out loopback ports for a stack's children to bind later, each reserved against every other planner
    on this machine until ``release`` (or the planning process's exit).

    A bind test alone cannot keep two stacks apart: two ``gpuscope up`` started together (two test workers, two
    terminals) both find a port free before either child binds it, and a bind test of 127.0.0.1 says nothing of
    127.20.0.1, where the simulated nodes listen. So each port handed out is also an exclusive ``flock`` on its
    lock file, held for as long as the stack runs: the kernel drops it when the process ends however it ends
    (SIGKILL included), so a crashed stack never leaves a stale reservation, and a second planner, in this
    process or another, skips it. (Giving each stack a loopback range of its own would need the same machine-wide
    agreement on which range is whose, and every URL the stack prints would change.)"""

    def __init__(self, *, start: int | None = None, directory: Path | None = None) -> None:
        self.directory = directory or RESERVATIONS
        self.held: list[int] = []  # the lock files' descriptors
        first = random.SystemRandom().randrange(len(_ABOVE)) if start is None and _ABOVE else (start or 0)
        # Walked in order from a random offset: two planners started at once begin far apart, and the
        # reservations keep them apart where they meet.
        self._next: Iterator[int] = itertools.cycle([*_ABOVE[first:], *_ABOVE[:first]])

    def __call__(self, hosts: Sequence[str] = ("127.0.0.1",)) -> int:
        """A port no other planner holds and nothing listens on at any of ``hosts``. From above the ephemeral
        range: a port that ``bind(0)`` hands out lies inside it, where the stack's own scrapes and clients pick
        their source ports, and one of them taking the port before the child binds it is a child that cannot
        start ("address already in use"). Where that range reaches the top (too few ports above it), ``bind(0)``
        after all."""
        if len(_ABOVE) >= 256:
            for _ in range(len(_ABOVE)):
                port, held = next(self._next), len(self.held)
                if self._reserve(port):
                    if all(_bindable(port, h) for h in hosts):
                        return port
                    if len(self.held) > held:  # reserved (not merely unreservable): give it back
                        self._unreserve()
        while True:
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
                s.bind(("127.0.0.1", 0))
                port = int(s.getsockname()[1])
            if all(_bindable(port, h) for h in hosts) and self._reserve(port):
                return port

    def _reserve(self, port: int) -> bool:
        try:
            if not self.directory.is_dir():
                with contextlib.suppress(FileExistsError):  # another planner made it just now
                    self.directory.mkdir(parents=True)
                    self.directory.chmod(0o1777)  # every user's stacks share the machine's ports
            fd = os.open(self.directory / f"{port}.lock", os.O_RDONLY | os.O_CREAT, 0o644)
        except OSError as exc:  # an unwritable temp directory: the bind test is all there is
            log.debug("cannot reserve port %d: %s", port, exc)
            return True
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        self.held.append(fd)
        return True

    def _unreserve(self) -> None:
        if self.held:
            os.close(self.held.pop())

    def release(self) -> None:
        """Drop every reservation (the stack has stopped)."""
        while self.held:
            self._unreserve()


_PLANNER = PortPlanner()  # the process's own: its reservations last as long as the process


def free_port(hosts: Sequence[str] = ("127.0.0.1",)) -> int:
    """A reserved loopback port nothing listens on at ``hosts`` (``PortPlanner``), held for the process's life."""
    return _PLANNER(hosts)


def plan_stack(spec: FleetSpec, *, fast: bool, port: Callable[..., int] = free_port) -> LocalPlan:
    """Assign ports and simulated nodes, and rewrite the spec to point at them."""
    store, _ = choose_store(spec)
    global_kind = {"mimir": "receiver", "victoriametrics": "victoriametrics"}.get(store, "federation")
    if store == "thanos":
        log.warning("Thanos cannot run locally: the global store is a Prometheus federating the clusters' rollups")
    # every simulated node listens on the exporter port at an address of its own: the port must be free at each
    exporter_port = port(["127.0.0.1", *(_address(ci, gi, i) for ci, gi, i in _node_indices(spec))])
    prom = {(c.name, r): port() for c in spec.clusters for r in ("a", "b")}
    global_port, am_port, control_port = port(), port(), port()
    # One Pushgateway per cluster: a gateway two clusters scrape reports every pushed job under both (the L5
    # batch-jobs table and the report's top jobs would list each job twice), and it is not how clusters run.
    pg = {c.name: port() for c in spec.clusters}
    vmalert_port = port() if global_kind == "victoriametrics" else None
    ne_port = port() if spec.host_signals.node_exporter else 0
    remediate_port = port()
    nodes: list[LocalNode] = []
    clusters = []
    for ci, cluster in enumerate(spec.clusters):
        groups = []
        for gi, group in enumerate(cluster.node_groups):
            members = _nodes(spec, cluster, group, ci, gi, exporter_port)
            nodes += members
            groups.append(
                group.model_copy(update={"hosts": tuple(n.target for n in members), **_host_signals(members, ne_port)})
            )
        endpoints = Endpoints(
            prometheus_a=f"127.0.0.1:{prom[(cluster.name, 'a')]}",
            prometheus_b=f"127.0.0.1:{prom[(cluster.name, 'b')]}",
            alertmanagers=(f"127.0.0.1:{am_port}",),
            pushgateway=f"127.0.0.1:{pg[cluster.name]}",
            exporter_port=exporter_port,
            # the simulated kube-state-metrics is served by the cluster's first node (simulator/kube.py)
            kube_state_metrics=_first_target(groups),
        )
        clusters.append(cluster.model_copy(update={"node_groups": tuple(groups), "endpoints": endpoints}))
    hook = {o: Receiver(webhook=Webhook(url=f"http://127.0.0.1:{control_port}/webhook/{o}")) for o in OWNERS}
    update: dict[str, object] = {
        "clusters": tuple(clusters),
        "receivers": Receivers(**hook),
        "global_endpoint": f"127.0.0.1:{global_port}",
        "long_term_store": {"receiver": "mimir"}.get(global_kind, global_kind),
        "remote_write_url": f"http://127.0.0.1:{global_port}/api/v1/write",
        "remote_write_token_file": None,
        # simulated pods share the local GPUs: per-pod panels, the process series, `gpuscope inject zombie`
        "exporter": spec.exporter.model_copy(update={"process_metrics": True}),
        "remediation": local_remediation(spec, remediate_port),
    }
    if vmalert_port is not None:
        # The single node on loopback (a cluster version in the spec runs as one node here).
        update["victoriametrics"] = VictoriaMetrics(
            endpoint=f"127.0.0.1:{global_port}", vmalert=f"127.0.0.1:{vmalert_port}"
        )
    update["host_signals"] = local_host_signals(spec, exporter_port, fast=fast)
    if fast:
        update |= {
            "scrape_interval": "1s",
            "scrape_timeout": "1s",
            "evaluation_interval": "1s",
            "speedup": FAST_SPEEDUP,
        }
    local = spec.model_copy(update=update)
    return LocalPlan(
        spec=local,
        nodes=tuple(nodes),
        prometheus=prom,
        global_port=global_port,
        global_kind=global_kind,
        alertmanager_port=am_port,
        pushgateway=pg,
        control_port=control_port,
        fast=fast,
        console_port=port(),
        vmalert_port=vmalert_port,
        node_exporter_port=ne_port,
        remediate_port=remediate_port,
    )


def local_remediation(spec: FleetSpec, port: int) -> Remediation:
    """Every cluster's remediation webhook is the one local remediator, in dry run: a demo never drains anything."""
    base = spec.remediation or Remediation()
    url = f"http://127.0.0.1:{port}/webhook"
    return base.model_copy(
        update={"urls": {c.name: url for c in spec.clusters}, "bearer_token_file": None, "apply": False}
    )


def _host_signals(members: list[LocalNode], ne_port: int) -> dict[str, object]:
    """Each simulated node is labelled with its own host name on the one real node-exporter (this machine)."""
    out: dict[str, object] = {"hostnames": tuple(n.config.hostname for n in members)}
    if ne_port:
        out["node_exporters"] = tuple(f"127.0.0.1:{ne_port}" for _ in members)
    return out


def _first_target(groups: list[NodeGroup]) -> str:
    return groups[0].hosts[0]


def local_host_signals(spec: FleetSpec, exporter_port: int, *, fast: bool) -> HostSignalsSpec:
    """The simulator serves kube-state-metrics and cAdvisor over plain HTTP on the simulated nodes' port."""
    update: dict[str, object] = {
        # node-exporter reports this machine, not a GPU node: its host alerts would be about the laptop (and a
        # loaded one saturates its CPUs); the host row shows the data, and the rules keep recording it.
        "node_exporter_alerts": False,
        "kube_state_metrics_path": KSM_PATH,
        "cadvisor_path": CADVISOR_PATH,
        "cadvisor_scheme": "http",
        "cadvisor_port": exporter_port,
        "kubelet_token_file": None,
        "kubelet_ca_file": None,
    }
    if fast:  # each scrape costs CPU (a real node-exporter's most); every 5 s is plenty for 20 s rate windows
        update["scrape_interval"] = "5s"
    return spec.host_signals.model_copy(update=update)


def _nodes(spec: FleetSpec, cluster: Cluster, group: NodeGroup, ci: int, gi: int, port: int) -> list[LocalNode]:
    model = MODELS[group.gpu_model]
    mig_nodes = group.mig.nodes if group.mig else 0
    layout = parse_mig_layout(model, group.mig.layout) if group.mig else ()
    out = []
    for i in range(group.nodes):
        config = SimNodeConfig(
            hostname=f"{cluster.name}-{group.name}-{i:02d}",
            model=model,
            gpus=group.gpus_per_node,
            mig_layout=layout if i < mig_nodes else (),
            seed=ci * 1000 + gi * 100 + i,
            profiling="all",
            # Kubernetes nodes run the teams' pods (who holds what, and how well they use it: teams.py)
            workload=TEAMS_MIX if cluster.kind == "kubernetes" else "mixed",
            # NVL72 trays: a group written as one rack (nvlink_domain: rack) is that rack; otherwise every rack_trays
            # nodes of the group share one NVLink domain (cluster UUID and clique).
            rack=_rack(cluster, group, i),
        )
        out.append(LocalNode(config, _address(ci, gi, i), port, cluster.name))
    return out


def _rack(cluster: Cluster, group: NodeGroup, i: int) -> str:
    """The NVLink domain of node ``i`` of ``group``: "" (its own) unless its model is a rack's compute tray."""
    trays = MODELS[group.gpu_model].rack_trays
    if group.nvlink_domain == "rack":
        return f"{cluster.name}-{group.name}"
    return f"{cluster.name}-{group.name}-rack{i // trays}" if trays else ""


def _address(ci: int, gi: int, i: int) -> str:
    """The loopback address of node ``i`` of group ``gi`` of cluster ``ci``."""
    return f"127.{20 + ci}.{gi}.{i + 1}"


def _node_indices(spec: FleetSpec) -> Iterator[tuple[int, int, int]]:
    for ci, cluster in enumerate(spec.clusters):
        for gi, group in enumerate(cluster.node_groups):
            yield from ((ci, gi, i) for i in range(group.nodes))

"""The local stack's supervisor: simulated nodes in-process, the rest as supervised children.

Start-up: write the bundle, start the simulated nodes and the control API (which also records webhook
notifications), start every child and wait until each is ready, then publish ``stack.json``. While running:
restart crashed children with backoff, refresh the status, apply faults. Shutdown stops every child, then the
in-process servers, and releases the data directory.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import shutil
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gpuscope.backends.sim.faults import FaultKind, parse_fault_request
from gpuscope.bundle import write_bundle
from gpuscope.errors import EnvironmentProblem, UsageError
from gpuscope.exporter.processes.source import ProcessSettings
from gpuscope.exporter.scheduler import Scheduler
from gpuscope.exporter.server import Listener, build_routes, resolver_for, start_listeners
from gpuscope.exporter.settings import ExporterSettings
from gpuscope.fields.catalog import Dialect
from gpuscope.generate.compose import generate_bundle
from gpuscope.httpd.guard import HttpLimits
from gpuscope.httpd.server import App
from gpuscope.httpd.site import stop_serving
from gpuscope.prom import AsyncClient
from gpuscope.runner.children import build_children
from gpuscope.runner.holders import Holders, plan_holders
from gpuscope.runner.inject import InjectRequest
from gpuscope.runner.plan import LocalPlan
from gpuscope.runner.process import ManagedProcess, stop_all
from gpuscope.runner.state import StackLock, data_paths, write_state
from gpuscope.runner.status import StackStatus, gather, stack_clients, story_alert
from gpuscope.simulator.control import apply_fault, sim_of
from gpuscope.simulator.fleet import build_listeners, raise_fd_limit, with_simulated_processes
from gpuscope.simulator.kube import KubeSim, SimKubeNode
from gpuscope.simulator.routes import FAULT_ROUTES
from gpuscope.spec.load import LoadedSpec

log = logging.getLogger(__name__)

STACK_FAULTS = ("exporter-down", "prometheus-down", "global-down")


@dataclass(frozen=True, slots=True)
class ServedNode:
    """One simulated node's server: the exporter's routes and guard, as ``gpuscope exporter`` serves them."""

    app: App
    servers: list[asyncio.Server]

    async def stop(self) -> None:
        await stop_serving(self.app, self.servers, NODE_LIMITS)


NODE_LIMITS = HttpLimits()


async def _first_of(*events: asyncio.Event, timeout_s: float) -> None:
    """Until one of ``events`` is set, or ``timeout_s``."""
    waits = [asyncio.ensure_future(e.wait()) for e in events]
    try:
        await asyncio.wait(waits, timeout=timeout_s, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for w in waits:
            w.cancel()


class Stack:
    def __init__(self, plan: LocalPlan, loaded: LoadedSpec, data_dir: Path) -> None:
        self.plan = plan
        self.loaded = loaded
        self.data_dir = data_dir
        self.paths = data_paths(data_dir)
        self.lock = StackLock(self.paths["lock"])
        self.children: dict[str, ManagedProcess] = {}
        self.listeners: list[Listener] = []
        self.kube = KubeSim(nodes=[])
        self.holders: Holders | None = None
        self.node_servers: list[ServedNode] = []
        self.down_nodes: set[int] = set()
        self.notifications: list[dict[str, Any]] = []
        self.events: deque[str] = deque(maxlen=12)
        self.status: StackStatus | None = None
        self.status_at = 0.0  # when ``status`` was gathered
        # Gathering the status asks every Prometheus for its rules, targets and floor queries: about a tenth of
        # a core for the built-in fleet at 1 s. The live view reads it every second; without one, it is gathered
        # every ``status_every_s`` and whenever ``fresh_report`` is asked for it (``gpuscope status``, the tests).
        self.status_every_s = 1.0
        self._status_wanted = asyncio.Event()
        self._status_gathered = asyncio.Event()
        self.started = time.time()
        self.floor_green_after: float | None = None
        self.story = story_alert(plan)  # the rules are compiled once: report() runs every second
        self.on_event: Callable[[str], None] = log.info

    # --- lifecycle ---------------------------------------------------------------------------------------------

    def prepare(self, reset: bool) -> None:
        """Take the data directory (refusing a second stack) and write the bundle."""
        self.lock.acquire(self.paths["state"])
        if reset:
            for entry in self.data_dir.iterdir():
                if entry != self.paths["lock"]:
                    # a link is removed as a link: --reset never deletes what a link in the directory points at
                    shutil.rmtree(entry) if entry.is_dir() and not entry.is_symlink() else entry.unlink()
        bundle = generate_bundle(self.plan.spec, self.loaded.collectors, self.loaded.collectors_csv)
        write_bundle(bundle, str(self.paths["bundle"]))
        self.children = build_children(self.plan, self.data_dir, self.paths["bundle"], self.paths["logs"])
        if self.lock.fd is not None:
            for child in self.children.values():  # the lock outlives a killed supervisor until its children exit
                child.inherit_fds = (self.lock.fd,)

    def event(self, line: str) -> None:
        self.events.append(f"{time.strftime('%H:%M:%S')} {line}")
        self.on_event(line)

    async def start_nodes(self) -> Scheduler:
        spec = self.plan.spec
        settings = ExporterSettings(
            collectors=self.loaded.collectors,
            dialect=Dialect(spec.exporter.dialect),
            interval_s=self.plan.interval_s,
            host_label=spec.exporter.host_label,
            processes=ProcessSettings(enabled=spec.exporter.process_metrics),  # on in the local plan
        )
        nodes, settings = with_simulated_processes(self.plan.nodes, settings, self.data_dir / "processes")
        raise_fd_limit(len(self.plan.nodes) * 4 + 256)
        # who holds which GPU: a kubelet per Kubernetes node, a job-mapping directory per Slurm node
        self.holders = plan_holders(self.plan, self.data_dir)
        self.listeners = [
            build_listeners([n], self.holders.settings(local.cluster, settings))[0]
            for local, n in zip(self.plan.nodes, nodes, strict=True)
        ]
        self.holders.start(self.plan, self.listeners, push_interval_s=5.0 if self.plan.fast else 15.0)
        self.kube = kube_sim(self.plan, self.listeners)  # kube-state-metrics and cAdvisor of the simulated pods
        self.node_servers = [await self._serve(lst) for lst in self.listeners]
        return Scheduler([lst.runtime for lst in self.listeners], self.plan.interval_s, workers=2)

    async def _serve(self, lst: Listener) -> ServedNode:
        # One server per node, so a simulated exporter outage also drops Prometheus's keep-alive connection,
        # as a crashed exporter would, instead of only refusing new ones.
        extensions = (FAULT_ROUTES, *((self.kube.extension(),) if self.kube.node_of(lst.runtime) else ()))
        app = build_routes(resolver_for([lst]), limits=NODE_LIMITS, extensions=extensions)
        return ServedNode(app, await start_listeners(app, [lst], "simulated node", limits=NODE_LIMITS))

    async def start_children(self) -> None:
        for name, child in self.children.items():
            child.start()
            ready = await asyncio.to_thread(child.wait_ready, 60.0)
            if not ready:
                tail = _tail(child.log_path)
                raise EnvironmentProblem(f"{name} did not become ready (log {child.log_path}): {tail}")
            self.event(f"{name} ready on {child.ready_url.removesuffix('/-/ready')} (pid {child.pid})")

    def publish_state(self) -> None:
        write_state(
            self.paths["state"],
            {
                "pid": os.getpid(),
                "data_dir": str(self.data_dir),
                "started_at": self.started,
                "fast": self.plan.fast,
                "urls": self.plan.urls(),
                "nodes": [{"cluster": n.cluster, "hostname": n.config.hostname, "url": n.url} for n in self.plan.nodes],
            },
        )

    async def supervise(self, stop: asyncio.Event) -> None:
        """Restart crashed children, and keep the status fresh for the live view and ``gpuscope status``."""
        async with stack_clients(self.plan) as clients:
            while not stop.is_set():
                now = time.time()
                for child in self.children.values():
                    line = child.check(now)
                    if line:
                        self.event(line)
                if self._status_wanted.is_set() or now - self.status_at >= self.status_every_s:
                    await self._gather_status(clients)
                await _first_of(stop, self._status_wanted, timeout_s=1.0)

    async def _gather_status(self, clients: Mapping[str, AsyncClient]) -> None:
        self._status_wanted.clear()
        self.status = await gather(self.plan, clients, len(self.notifications))
        self.status_at = time.time()
        if self.floor_green_after is None and self.status.floor_green:
            self.floor_green_after = self.status_at - self.started
            self.event(f"Phase 1 floor green after {self.floor_green_after:.1f}s")
        gathered, self._status_gathered = self._status_gathered, asyncio.Event()
        gathered.set()

    async def fresh_report(self, max_age_s: float = 1.0, wait_s: float = 10.0) -> dict[str, Any]:
        """``report`` with a status at most ``max_age_s`` old: gathered now if it is older (waiting at most
        ``wait_s``; a stack whose Prometheus servers answer slowly reports what it has)."""
        if time.time() - self.status_at > max_age_s:
            gathered = self._status_gathered
            self._status_wanted.set()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(gathered.wait(), timeout=wait_s)
        return self.report()

    async def drive_holders(self, stop: asyncio.Event) -> None:
        """Keep the Slurm nodes' job-mapping directories and the jobs' pushes in step with the time."""
        while not stop.is_set():
            if self.holders is not None:
                await asyncio.to_thread(self.holders.tick, time.time())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=1.0)

    def report(self) -> dict[str, Any]:
        """Everything the live view and ``gpuscope status`` show: the latest status plus the stack's own facts."""
        return {
            **(self.status.to_json() if self.status is not None else {}),
            "urls": self.plan.urls(),
            "fleet": self.plan.spec.name,
            "global_store": self.plan.global_name,
            "data_dir": str(self.data_dir),
            "fast": self.plan.fast,
            "uptime_seconds": round(time.time() - self.started, 1),
            # how old the status above is: a live view or a script can tell a stale answer
            "status_age_seconds": round(time.time() - self.status_at, 1) if self.status is not None else None,
            "floor_green_after_seconds": self.floor_green_after,
            "story_alert": self.story.to_json() if self.story is not None else None,
            "components": [
                {
                    "name": name,
                    "pid": c.pid,
                    "running": c.running(),
                    "restarts": c.restarts,
                    "stopped_on_purpose": c.stopped_on_purpose,
                }
                for name, c in self.children.items()
            ],
            "nodes_down": sorted(self.plan.nodes[i].config.hostname for i in self.down_nodes),
            "events": list(self.events),
        }

    async def shutdown(self) -> None:
        if self.holders is not None:  # the jobs report their end while the Pushgateway still runs
            await asyncio.to_thread(self.holders.finish_jobs)
        await asyncio.to_thread(self._stop_children)
        for i, node in enumerate(self.node_servers):
            if i not in self.down_nodes:
                await node.stop()
        for lst in self.listeners:
            lst.runtime.close()  # the kubelet channels too, before their kubelets go
        if self.holders is not None:
            await asyncio.to_thread(self.holders.close)
        if self.lock.held:
            self.paths["state"].unlink(missing_ok=True)
        self.lock.release()

    def _stop_children(self) -> None:
        # Replicas first, while the global store can still take their last remote writes, then the rest.
        replicas = [c for name, c in self.children.items() if name.startswith("prometheus-")]
        stop_all(replicas)
        stop_all([c for c in self.children.values() if c not in replicas])

    # --- faults ------------------------------------------------------------------------------------------------

    def _node_index(self, cluster: str | None, node: str | None) -> int:
        if cluster is None or node is None:
            raise UsageError(
                "this fault needs {cluster} and {node} (an index within the cluster, or a hostname)"
            ).naming("cluster", "node")
        members = [i for i, n in enumerate(self.plan.nodes) if n.cluster == cluster]
        if not members:
            known = ", ".join(sorted({n.cluster for n in self.plan.nodes}))
            raise UsageError(f"no cluster {cluster!r} in the stack (clusters: {known})")
        for i in members:
            if self.plan.nodes[i].config.hostname == node:
                return i
        if node.isdigit() and int(node) < len(members):
            return members[int(node)]
        raise UsageError(f"no node {node!r} in cluster {cluster} (0-{len(members) - 1} or a hostname)")

    async def inject(self, req: InjectRequest) -> str:
        if req.fault == "exporter-down":
            return await self._node_site(self._node_index(req.cluster, req.node), up=not req.enabled)
        if req.fault == "prometheus-down":
            if req.cluster is None or req.replica not in ("a", "b"):
                raise UsageError("prometheus-down needs {cluster} and {replica} a|b").naming("cluster", "replica")
            return await self._component(f"prometheus-{req.replica}@{req.cluster}", up=not req.enabled)
        if req.fault == "global-down":
            return await self._component("global", up=not req.enabled)
        fault = parse_fault_request(
            {
                "fault": req.fault,
                "gpu": req.gpu,
                "enabled": req.enabled,
                "code": req.code,
                "seconds": req.seconds,
                "link": req.link,
                "switch": req.switch,
            }
        )
        state = "injected" if req.enabled else "cleared"
        if fault.fault is FaultKind.PARTITION_DEGRADED and req.node is None and req.cluster is not None:
            # Rack scope: an NVL72 rack is a cluster of trays sharing one NVLink domain; the fault hits them all.
            members = [i for i, n in enumerate(self.plan.nodes) if n.cluster == req.cluster]
            if not members:
                self._node_index(req.cluster, "0")  # says which clusters there are
            for i in members:
                apply_fault(self.listeners[i].runtime, fault)
            return f"{req.fault} {state} on every node of {req.cluster} ({len(members)})"
        index = self._node_index(req.cluster, req.node)
        apply_fault(self.listeners[index].runtime, fault)
        where = "".join(
            f" {name} {value}"
            for name, value in (("GPU", req.gpu), ("link", req.link), ("NVSwitch", req.switch))
            if value is not None
        )
        return f"{req.fault} {state} on {self.plan.nodes[index].config.hostname}{where}"

    async def _node_site(self, index: int, *, up: bool) -> str:
        host = self.plan.nodes[index].config.hostname
        if up and index in self.down_nodes:
            self.node_servers[index] = await self._serve(self.listeners[index])
            self.down_nodes.discard(index)
        elif not up and index not in self.down_nodes:
            await self.node_servers[index].stop()
            self.down_nodes.add(index)
        return f"exporter on {host} {'up' if up else 'down'}"

    async def _component(self, name: str, *, up: bool) -> str:
        child = self.children.get(name)
        if child is None:
            raise UsageError(f"no component {name!r} (components: {', '.join(self.children)})")
        if up and not child.running():
            child.start()
            await asyncio.to_thread(child.wait_ready, 60.0)
        elif not up:
            await asyncio.to_thread(child.stop)
        return f"{name} {'started' if up else 'stopped'}"

    async def clear(self, cluster: str | None = None) -> str:
        for i, lst in enumerate(self.listeners):
            if cluster is None or self.plan.nodes[i].cluster == cluster:
                sim = sim_of(lst.runtime)
                if sim is not None:
                    sim.clear()
                if i in self.down_nodes:
                    await self._node_site(i, up=True)
        for name, child in self.children.items():
            if child.stopped_on_purpose and (cluster is None or name.endswith(f"@{cluster}") or name == "global"):
                await self._component(name, up=True)
        return "every fault cleared" if cluster is None else f"faults cleared in {cluster}"

    def record(self, receiver: str, body: dict[str, Any]) -> None:
        entry = {"received_at": time.time(), "receiver": receiver, **body}
        self.notifications.append(entry)
        with self.paths["notifications"].open("a", encoding="utf-8") as f:
            f.write(json.dumps(entry, sort_keys=True) + "\n")
        names = ", ".join(sorted({a["labels"].get("alertname", "?") for a in body.get("alerts", [])}))
        self.event(f"notification to {receiver}: {body.get('status', '?')} {names}")


def _tail(path: Path, lines: int = 3) -> str:
    try:
        return " | ".join(path.read_text(errors="replace").strip().splitlines()[-lines:])
    except OSError:
        return "(no log)"


def kube_sim(plan: LocalPlan, listeners: list[Listener]) -> KubeSim:
    """The simulated kube-state-metrics and cAdvisor of the plan's Kubernetes clusters (none for bare metal)."""
    clusters = {c.name: c for c in plan.spec.clusters}
    return KubeSim(
        nodes=[
            SimKubeNode(
                config=node.config,
                cluster=node.cluster,
                runtime=lst.runtime,
                namespace=clusters[node.cluster].namespace,
                address=node.address,
            )
            for node, lst in zip(plan.nodes, listeners, strict=True)
            if clusters[node.cluster].kind == "kubernetes"
        ]
    )

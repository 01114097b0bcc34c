"""The local stack's child processes, built from the plan and the generated bundle.

VictoriaMetrics and vmalert run with the bundle's own argument files, only their paths and listen addresses
moved to the data directory and loopback: the local stack proves the generated flags on the real binaries.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

from gpuscope.durations import prometheus_seconds
from gpuscope.runner.binaries import find_binary
from gpuscope.runner.plan import LocalPlan
from gpuscope.runner.process import ManagedProcess


def _prometheus(name: str, config: Path, data: Path, port: int, logs: Path, *extra: str) -> ManagedProcess:
    argv = [
        find_binary("prometheus"),
        f"--config.file={config}",
        f"--storage.tsdb.path={data}",
        f"--web.listen-address=127.0.0.1:{port}",
        "--web.enable-lifecycle",
        *extra,
    ]
    return ManagedProcess(name, argv, logs / f"{name}.log", f"http://127.0.0.1:{port}/-/ready")


def receiver_config(path: Path, port: int, interval: str) -> Path:
    """The global store standing in for Mimir: it scrapes only itself and receives remote writes."""
    config = {
        "global": {"scrape_interval": interval, "external_labels": {"tier": "global"}},
        "scrape_configs": [{"job_name": "prometheus", "static_configs": [{"targets": [f"127.0.0.1:{port}"]}]}],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(config, sort_keys=True))
    return path


def read_args(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def with_flags(args: list[str], overrides: dict[str, str | None]) -> list[str]:
    """``-name=value`` arguments with some values replaced (in place) or added; ``None`` is a bare boolean flag."""
    out, seen = [], set()
    for arg in args:
        name = arg.split("=", 1)[0]
        if name in overrides:
            value = overrides[name]
            out.append(name if value is None else f"{name}={value}")
            seen.add(name)
        else:
            out.append(arg)
    out += [n if v is None else f"{n}={v}" for n, v in overrides.items() if n not in seen]
    return out


def _victoriametrics(
    plan: LocalPlan, vmalert_port: int, data_dir: Path, bundle: Path, logs: Path
) -> dict[str, ManagedProcess]:
    vm_dir = bundle / "global" / "victoriametrics"
    interval = prometheus_seconds(plan.spec.scrape_interval)
    server = with_flags(
        read_args(vm_dir / "single-node.args"),
        {
            "-storageDataPath": str(data_dir / "global" / "victoria-metrics"),
            "-httpListenAddr": f"127.0.0.1:{plan.global_port}",
            "-relabelConfig": str(vm_dir / "relabel.yml"),
            # Queries see samples this soon after they arrive (default 30 s, for clients that push late); the
            # live view and the drills read the last few scrape intervals.
            "-search.latencyOffset": f"{max(1, round(2 * interval))}s",
            # Replicas backfill after an outage of the store: a cached query result would hide what arrived.
            "-search.disableCache": None,
        },
    )
    vmalert = with_flags(
        read_args(vm_dir / "vmalert.args"),
        {
            "-rule": str(bundle / "global" / "rules" / "gpuscope-fleet.yaml"),
            "-httpListenAddr": f"127.0.0.1:{vmalert_port}",
        },
    )
    return {
        "global": ManagedProcess(
            "global",
            [find_binary("victoria-metrics"), *server],
            logs / "global.log",
            f"http://127.0.0.1:{plan.global_port}/-/ready",
        ),
        "vmalert": ManagedProcess(
            "vmalert",
            [find_binary("vmalert"), *vmalert],
            logs / "vmalert.log",
            f"http://127.0.0.1:{vmalert_port}/-/ready",
        ),
    }


def build_children(plan: LocalPlan, data_dir: Path, bundle: Path, logs: Path) -> dict[str, ManagedProcess]:
    children: dict[str, ManagedProcess] = {}
    for (cluster, replica), port in sorted(plan.prometheus.items()):
        name = f"prometheus-{replica}@{cluster}"
        config = bundle / "clusters" / cluster / f"prometheus-{replica}.yml"
        children[name] = _prometheus(
            name,
            config,
            data_dir / "prometheus" / f"{cluster}-{replica}",
            port,
            logs,
            # A stopped global store must not hold a replica's shutdown for the default minute.
            "--storage.remote.flush-deadline=10s",
        )
    if plan.global_kind == "victoriametrics" and plan.vmalert_port is not None:
        children.update(_victoriametrics(plan, plan.vmalert_port, data_dir, bundle, logs))
    elif plan.global_kind == "receiver":
        config = receiver_config(data_dir / "global" / "receiver.yml", plan.global_port, plan.spec.scrape_interval)
        children["global"] = _prometheus(
            "global",
            config,
            data_dir / "global" / "data",
            plan.global_port,
            logs,
            "--web.enable-remote-write-receiver",
            # Replicas replaying their WAL after an outage of the global store send older samples.
            "--storage.tsdb.retention.time=15d",
        )
    else:
        children["global"] = _prometheus(
            "global", bundle / "global" / "prometheus.yml", data_dir / "global" / "data", plan.global_port, logs
        )
    children["alertmanager"] = ManagedProcess(
        "alertmanager",
        [
            find_binary("alertmanager"),
            f"--config.file={bundle / 'alertmanager' / 'alertmanager.yml'}",
            f"--storage.path={data_dir / 'alertmanager'}",
            f"--web.listen-address=127.0.0.1:{plan.alertmanager_port}",
            "--cluster.listen-address=",  # a single local instance: no gossip port to collide with
        ],
        logs / "alertmanager.log",
        f"http://127.0.0.1:{plan.alertmanager_port}/-/ready",
    )
    for cluster, port in sorted(plan.pushgateway.items()):
        name = f"pushgateway@{cluster}"
        (data_dir / name).mkdir(parents=True, exist_ok=True)
        children[name] = ManagedProcess(
            name,
            [
                find_binary("pushgateway"),
                f"--web.listen-address=127.0.0.1:{port}",
                f"--persistence.file={data_dir / name / 'metrics'}",
                "--persistence.interval=1m",
            ],
            logs / f"{name}.log",
            f"http://127.0.0.1:{port}/-/ready",
        )
    if plan.node_exporter_port:
        children["node-exporter"] = node_exporter(plan.node_exporter_port, logs)
    if plan.remediate_port and (bundle / "remediation" / "policy.yaml").exists():
        children["remediate"] = remediator(plan.remediate_port, bundle, logs)
    return children


def remediator(port: int, bundle: Path, logs: Path) -> ManagedProcess:
    """``gpuscope remediate`` in dry run on the bundle's policy: the live view shows what it would drain."""
    argv = [
        sys.executable, "-m", "gpuscope", "remediate", "--dry-run",
        f"--policy={bundle / 'remediation' / 'policy.yaml'}", f"--listen=127.0.0.1:{port}",
        f"--audit-log={logs / 'remediation.jsonl'}",
    ]  # fmt: skip
    return ManagedProcess("remediate", argv, logs / "remediate.log", f"http://127.0.0.1:{port}/-/ready")


# The collectors the host row, the host rules and the doctor read (infiniband reports nothing without an HCA,
# which the dashboards show as "not collected"); the rest stay off, each scrape costs CPU.
NODE_EXPORTER_COLLECTORS = (
    "cpu",
    "meminfo",
    "pressure",
    "vmstat",
    "filesystem",
    "netdev",
    "infiniband",
    "loadavg",
    "diskstats",
    "uname",
)


def node_exporter(port: int, logs: Path) -> ManagedProcess:
    """The real node-exporter, reporting this machine: one real host under every simulated node."""
    argv = [
        find_binary("node-exporter"),
        f"--web.listen-address=127.0.0.1:{port}",
        "--collector.disable-defaults",
        *(f"--collector.{c}" for c in NODE_EXPORTER_COLLECTORS),
    ]
    return ManagedProcess("node-exporter", argv, logs / "node-exporter.log", f"http://127.0.0.1:{port}/")

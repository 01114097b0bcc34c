"""The local stack's child processes, built from the plan and the generated bundle."""

from __future__ import annotations

from pathlib import Path

import yaml

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
    if plan.global_kind == "receiver":
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
    children["pushgateway"] = ManagedProcess(
        "pushgateway",
        [
            find_binary("pushgateway"),
            f"--web.listen-address=127.0.0.1:{plan.pushgateway_port}",
            f"--persistence.file={data_dir / 'pushgateway' / 'metrics'}",
            "--persistence.interval=1m",
        ],
        logs / "pushgateway.log",
        f"http://127.0.0.1:{plan.pushgateway_port}/-/ready",
    )
    (data_dir / "pushgateway").mkdir(parents=True, exist_ok=True)
    return children

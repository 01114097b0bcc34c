"""A live fleet for the dashboard test: simulated nodes (one in MIG mode) attributed by fake kubelets and Slurm
mapping files, batch jobs pushed to a real Pushgateway, the generated Prometheus config and rules on a real
Prometheus, remote-writing to a second Prometheus that stands in for the global store."""

from __future__ import annotations

import re
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from gpuscope.backends.sim.faults import FaultKind, FaultRequest
from gpuscope.bundle import write_bundle
from gpuscope.dashboards import Options, options_for
from gpuscope.errors import ApiError
from gpuscope.exporter.attribution.source import WorkloadSettings
from gpuscope.exporter.settings import ExporterSettings
from gpuscope.fields.collectors import parse_collectors
from gpuscope.generate.compose import generate_bundle
from gpuscope.hardware.models import model_by_key, parse_mig_layout
from gpuscope.prom import Vector
from gpuscope.simulator.control import apply_fault
from gpuscope.simulator.fleet import FleetNode, build_listeners, plan_nodes
from gpuscope.simulator.kubelet import KubeletServer, pod
from gpuscope.spec.load import parse_fleet
from tests.support.dashboards import csv_of, every_field
from tests.support.exporters import serving
from tests.support.fleets import loopback_base
from tests.support.net import free_port, wait_for
from tests.support.prom import Prometheus, run_prometheus, run_prometheus_file, run_pushgateway
from tests.support.specs import RECEIVERS

MIG_LAYOUT = "3g.40gb,4g.40gb"
CLUSTER = "gpu-a"


def served_fields() -> list[str]:
    """The catalog fields a simulated H100 serves (hardware without fans, page retirement or vGPU serves less),
    found by asking one in-process node for every field, with an XID and a thermal event so that the
    exporter's per-event series exist too."""
    names = every_field()
    collectors = parse_collectors(csv_of(names), "probe.csv")
    [node] = plan_nodes(count=1, model=model_by_key("h100"), gpus_per_node=1, base_address=loopback_base())
    [listener] = build_listeners([node], ExporterSettings(collectors=collectors, interval_s=1.0))
    runtime = listener.runtime
    try:
        apply_fault(runtime, FaultRequest(FaultKind.XID, gpu=0, code=48))
        apply_fault(runtime, FaultRequest(FaultKind.THERMAL, gpu=0))
        runtime.collect()
        time.sleep(1.1)
        runtime.collect()
        body = runtime.body(time.time(), False).decode()
    finally:
        runtime.close()
    emitted = set(re.findall(r"^([A-Za-z_:][A-Za-z0-9_:]*)\{", body, re.M))
    labels = set(re.findall(r'[{,]([A-Za-z_][A-Za-z0-9_]*)="', body))
    return [n for n in names if n in emitted or n in labels]


def spec_text(hosts: list[str], dead: str, prom: int, gateway: int, receiver: str) -> str:
    live = ", ".join(f'"{h}"' for h in hosts)
    return f"""
name: dash
clusters:
  - name: {CLUSTER}
    kind: baremetal
    node_groups:
      - {{name: h100, gpu_model: h100, gpus_per_node: 4, nodes: {len(hosts)}, hosts: [{live}],
         mig: {{layout: "{MIG_LAYOUT}", nodes: 1}}}}
      - {{name: dead, gpu_model: h100, gpus_per_node: 4, nodes: 1, hosts: ["{dead}"]}}
    endpoints:
      prometheus_a: 127.0.0.1:{prom}
      prometheus_b: 127.0.0.1:{free_port()}
      alertmanagers: [127.0.0.1:{free_port()}]
      pushgateway: 127.0.0.1:{gateway}
scrape_interval: 1s
scrape_timeout: 1s
evaluation_interval: 1s
speedup: 15
long_term_store: mimir
remote_write_url: {receiver}/api/v1/write
remote_write_token_file: null
retention: {{cold_tier: full}}
exporter: {{collectors: dash.csv}}
host_signals: {{node_exporter: false}}  # no node-exporter here; the host row is proven live in tests/e2e/test_up.py
{RECEIVERS}
"""


@dataclass
class Fleet:
    """What a test needs to know about the running fleet."""

    options: Options
    bundle: Path
    local: Prometheus  # the cluster's own Prometheus (replica A)
    store: Prometheus  # the global store it remote-writes to
    nodes: list[FleetNode]
    mig_host: str
    host: str  # the node without MIG, where the faults go
    uuids: list[str]  # its GPUs
    mig_uuid: str
    mig_instance: str

    def inject(self, fault: FaultKind, gpu: int) -> None:
        node = next(n for n in self.nodes if n.config.hostname == self.host)
        body = FaultRequest(fault, gpu=gpu).to_json()
        httpx.post(f"http://{node.target}/sim/faults", json=body, timeout=10).raise_for_status()


def _job(host: str, uuids: list[str], started: float, finished: bool) -> str:
    info = "".join(f'gpuscope_job_info{{user="alice",UUID="{u}",Hostname="{host}"}} 1\n' for u in uuids)
    text = (
        f"# TYPE gpuscope_job_info gauge\n{info}"
        f"# TYPE gpuscope_job_start_time_seconds gauge\ngpuscope_job_start_time_seconds {started}\n"
        "# TYPE gpuscope_job_steps_total counter\ngpuscope_job_steps_total 1200\n"
        "# TYPE gpuscope_job_step_duration_seconds gauge\ngpuscope_job_step_duration_seconds 0.25\n"
        "# TYPE gpuscope_job_samples_per_second gauge\ngpuscope_job_samples_per_second 512\n"
        "# TYPE gpuscope_job_tokens_per_second gauge\ngpuscope_job_tokens_per_second 65536\n"
    )
    if finished:
        text += (
            f"# TYPE gpuscope_job_end_time_seconds gauge\ngpuscope_job_end_time_seconds {started + 60}\n"
            "# TYPE gpuscope_job_exit_code gauge\ngpuscope_job_exit_code 0\n"
        )
    return text


def push_jobs(gateway: str, host: str, uuids: list[str]) -> None:
    """Job j-1 running on GPUs 0 and 1, job j-0 finished on GPU 2 (grouping key job/job_id/instance)."""
    now = time.time()
    for job_id, gpus, finished in (("j-1", uuids[:2], False), ("j-0", uuids[2:3], True)):
        url = f"{gateway}/metrics/job/train/job_id/{job_id}/instance/{host}"
        httpx.put(url, content=_job(host, gpus, now - 600, finished), timeout=10).raise_for_status()


@contextmanager
def running_fleet(tmp_path: Path, fields: list[str]) -> Iterator[Fleet]:
    model = model_by_key("h100")
    nodes = plan_nodes(
        count=2,
        model=model,
        gpus_per_node=4,
        base_address=loopback_base(),
        port=free_port(),
        hostname_prefix="dash",
        mig_nodes=1,
        mig_layout=parse_mig_layout(model, MIG_LAYOUT),
    )
    mig_host, host = (n.config.hostname for n in nodes)
    (tmp_path / "dash.csv").write_text(csv_of(fields))
    with ExitStack() as stack:
        # Unix socket paths are limited to about 107 bytes: pytest's tmp_path can be longer.
        sockets = Path(tempfile.mkdtemp(prefix="dash-"))
        stack.callback(shutil.rmtree, sockets, ignore_errors=True)
        for name in (mig_host, host):
            (sockets / "hpc" / name).mkdir(parents=True)
        (sockets / "hpc" / host / "0").write_text("4242\n")  # Slurm job 4242 holds GPU 0
        settings = ExporterSettings(
            collectors=parse_collectors(csv_of(fields), "dash.csv"),
            interval_s=1.0,
            workloads=WorkloadSettings(
                kubernetes=True, socket_path=f"{sockets}/{{hostname}}.sock", hpc_dir=f"{sockets}/hpc/{{hostname}}"
            ),
        )
        kubelets = {}
        for name in (mig_host, host):
            kubelets[name] = KubeletServer(f"{sockets}/{name}.sock")
            kubelets[name].start()
            stack.callback(kubelets[name].stop)
        listeners = build_listeners(nodes, settings)
        mig_gpus, whole = (lst.runtime.collector.collect().reading.gpus for lst in listeners)  # type: ignore[union-attr]
        instance = mig_gpus[0].instances[0].identity
        uuids = [g.identity.uuid for g in whole]
        kubelets[mig_host].set_pods([pod("ml", "notebook", ("main", "nvidia.com/mig-3g.40gb", [instance.uuid]))])
        kubelets[host].set_pods([pod("ml", "train-0", ("main", "nvidia.com/gpu", uuids[:2]))])
        stack.enter_context(serving(listeners, 1.0))
        gateway = stack.enter_context(run_pushgateway(tmp_path / "pushgateway"))
        gateway_port = int(gateway.rsplit(":", 1)[1])
        store = stack.enter_context(
            run_prometheus(
                {"global": {"scrape_interval": "1m"}}, tmp_path / "store", ("--web.enable-remote-write-receiver",)
            )
        )
        prom_port = free_port()
        text = spec_text([n.target for n in nodes], f"127.0.0.1:{free_port()}", prom_port, gateway_port, store.url)
        loaded = parse_fleet(text, "fleet.yaml", tmp_path)
        bundle = tmp_path / "bundle"
        write_bundle(generate_bundle(loaded.spec, loaded.collectors, loaded.collectors_csv), str(bundle))
        push_jobs(gateway, host, uuids)
        local = stack.enter_context(
            run_prometheus_file(bundle / f"clusters/{CLUSTER}/prometheus-a.yml", tmp_path / "prom-a", prom_port)
        )
        yield Fleet(
            options_for(loaded.spec, loaded.collectors, "mimir"),
            bundle,
            local,
            store,
            nodes,
            mig_host,
            host,
            uuids,
            mig_gpus[0].identity.uuid,
            str(instance.gpu_instance_id),
        )


def query(prom: Prometheus, expr: str) -> tuple[Vector, str]:
    """(series, error): the error text instead of an exception, so a test can report every failing query."""
    with prom.client() as c:
        try:
            return c.query(expr), ""
        except ApiError as exc:
            return (), str(exc)


def label_values(prom: Prometheus, selector: str, label: str) -> list[str]:
    with prom.client() as c:
        return list(c.label_values(label, [selector]))


def wait_ready(fleet: Fleet) -> None:
    """Until the store has what every dashboard reads: GPUs, attribution, jobs, self-metrics, remote-write state."""
    for expr in (
        f'cluster:gpus_reporting:count{{cluster="{CLUSTER}"}} == 8',
        "workload:gpu_activity:avg5m",
        "gpuscope_job_info",
        "gpuscope_gpu_job_info",
        "prometheus_remote_storage_samples_pending",
        'up{job="dcgm-exporter"} == 0',
    ):
        wait_for(lambda e=expr: query(fleet.store, e)[0], timeout=60, what=f"{expr} in the store")  # type: ignore[misc]

"""Hostile ``/proc``, pod log directory and job mapping directory, served over HTTP by a collecting exporter.

A simulated node reports its processes; their ``/proc`` and pod log directory are files the test writes (the
simulator's own layout, ``backends/sim/processes.sync``) and then turns hostile:

- ``/proc/<pid>/cgroup`` replaced by a FIFO: opened blocking, it held the collection thread forever (no writer
  ever comes), so ``/health`` went 503 and no new collection was published. Now it is one unreadable process;
  ``comm`` and ``status`` as FIFOs cost only the process's command name and user (its cgroup says who owns it);
- a FIFO named ``0`` in the ``--hpc-job-mapping-dir``: GPU 0 has no job, the other GPUs' files are read;
- a pod log directory whose name is not UTF-8 (``os.scandir`` hands it back with ``surrogateescape``): the pod's
  name reached the exposition as a lone surrogate and ``str.encode`` raised on every render. Now the character is
  U+FFFD and the rest of the body is as it was.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import httpx
import pytest

from gpuscope.backends.sim import SimNode, SimNodeConfig
from gpuscope.backends.sim.processes import sync
from gpuscope.exporter.attribution.source import WorkloadSettings
from gpuscope.exporter.processes.source import ProcessSettings
from gpuscope.exporter.server import Listener
from gpuscope.exporter.settings import ExporterSettings, make_runtime
from gpuscope.fields.collectors import load_collectors
from gpuscope.hardware.models import model_by_key
from tests.support.exporters import serving
from tests.support.metrics_text import value
from tests.support.net import free_port, wait_for

pytestmark = pytest.mark.e2e

HOST = "sim-hostile"


def _node(tmp_path: Path) -> tuple[SimNode, Listener]:
    """A simulated node at a fixed time (its pods never churn) whose /proc and pod directory the test owns."""
    config = SimNodeConfig(HOST, model_by_key("h100"), 4, (), workload="training")
    sim = SimNode(config, clock=lambda: 1_000.0)
    sync(tmp_path, sim.population())
    processes = ProcessSettings(enabled=True, proc_root=str(tmp_path / "proc"), pod_log_dir=str(tmp_path / "pods"))
    settings = ExporterSettings(collectors=load_collectors(None), processes=processes, interval_s=0.2)
    return sim, Listener("127.0.0.1", free_port(), make_runtime(sim, settings, HOST))


def _collections(text: str) -> int:
    found = re.search(r"^gpuscope_exporter_collections_total (\d+)$", text, re.M)
    return int(found[1]) if found else 0


def test_a_fifo_as_a_cgroup_file_does_not_block_collection(tmp_path: Path) -> None:
    sim, listener = _node(tmp_path)
    pid = next(p.pid for p in sim.population() if p.pod is not None)
    cgroup = tmp_path / "proc" / str(pid) / "cgroup"
    cgroup.unlink()
    os.mkfifo(cgroup)  # no writer ever opens it
    with serving([listener], 0.2):
        url = listener.url
        first = wait_for(
            lambda: (r := httpx.get(f"{url}/metrics", timeout=10)).status_code == 200 and _collections(r.text) >= 1
            and r.text,
            what="a first collection",
        )  # fmt: skip
        # Collections go on past the FIFO, and the process it names is counted as unreadable, not lost in a hang.
        text = wait_for(
            lambda: (t := httpx.get(f"{url}/metrics", timeout=10).text) and _collections(t) > _collections(first) + 2
            and t,
            what="later collections",
        )  # fmt: skip
        assert (value(text, "gpuscope_exporter_process_unattributed_total", reason="proc_unreadable") or 0) >= 1
        assert 'namespace="' in text.split("gpuscope_gpu_process_memory_used_bytes{", 1)[1]  # the others attributed
        wait_for(lambda: httpx.get(f"{url}/health", timeout=10).status_code == 200, what="/health 200")


def _collecting(url: str) -> str:
    """/metrics once collections have gone on for a while (a blocking read would have stopped them at the first)."""
    first = wait_for(
        lambda: (r := httpx.get(f"{url}/metrics", timeout=10)).status_code == 200 and _collections(r.text) >= 1
        and r.text,
        what="a first collection",
    )  # fmt: skip
    text: str = wait_for(
        lambda: (t := httpx.get(f"{url}/metrics", timeout=10).text) and _collections(t) > _collections(first) + 2
        and t,
        what="later collections",
    )  # fmt: skip
    wait_for(lambda: httpx.get(f"{url}/health", timeout=10).status_code == 200, what="/health 200")
    return text


def test_fifos_as_comm_and_status_cost_only_the_command_and_user(tmp_path: Path) -> None:
    sim, listener = _node(tmp_path)
    pid, pod = next((p.pid, p.pod) for p in sim.population() if p.pod is not None)
    for name in ("comm", "status"):
        path = tmp_path / "proc" / str(pid) / name
        path.unlink()
        os.mkfifo(path)  # no writer ever opens it
    with serving([listener], 0.2):
        text = _collecting(listener.url)
    assert not value(text, "gpuscope_exporter_process_unattributed_total", reason="proc_unreadable")
    assert pod is not None
    assert f'pod="{pod.name}"' in text.split("gpuscope_gpu_process_memory_used_bytes{", 1)[1]


def test_a_fifo_in_the_job_mapping_directory_costs_only_its_gpu(tmp_path: Path) -> None:
    jobs = tmp_path / "jobs"
    jobs.mkdir()
    os.mkfifo(jobs / "0")  # no writer ever opens it
    (jobs / "1").write_text("4242\n")
    sim = SimNode(SimNodeConfig(HOST, model_by_key("h100"), 2, (), workload="training"), clock=lambda: 1_000.0)
    settings = ExporterSettings(
        collectors=load_collectors(None), workloads=WorkloadSettings(hpc_dir=str(jobs)), interval_s=0.2
    )
    listener = Listener("127.0.0.1", free_port(), make_runtime(sim, settings, HOST))
    with serving([listener], 0.2):
        text = _collecting(listener.url)
    jobs_info = [ln for ln in text.splitlines() if ln.startswith("gpuscope_gpu_job_info{")]
    assert len(jobs_info) == 1 and 'gpu="1"' in jobs_info[0] and 'hpc_job="4242"' in jobs_info[0], jobs_info


def test_a_pod_directory_name_that_is_not_utf8_costs_one_character(tmp_path: Path) -> None:
    sim, listener = _node(tmp_path)
    pod = next(p.pod for p in sim.population() if p.pod is not None)
    pods = os.fsencode(tmp_path / "pods")
    old = f"{pod.namespace}_{pod.name}_{pod.uid}".encode()
    new = f"{pod.namespace}_".encode() + b"evil\xff\xfe" + f"_{pod.uid}".encode()
    os.rename(os.path.join(pods, old), os.path.join(pods, new))
    with serving([listener], 0.2):
        url = listener.url
        text = wait_for(
            lambda: (r := httpx.get(f"{url}/metrics", timeout=10)).status_code == 200 and _collections(r.text) >= 1
            and r.text,
            what="a collection with the pod of the undecodable directory",
        )  # fmt: skip
        assert 'pod="evil\ufffd\ufffd"' in text
        assert not value(text, "gpuscope_exporter_process_unattributed_total", reason="pod_gone")
        wait_for(lambda: httpx.get(f"{url}/health", timeout=10).status_code == 200, what="/health 200")
        gzip = httpx.get(f"{url}/metrics", headers={"Accept-Encoding": "gzip"}, timeout=10)
        assert gzip.status_code == 200 and 'pod="evil\ufffd\ufffd"' in gzip.text

"""Hostile Kubernetes API answers, through the real ``gpuscope exporter`` process with the fake kubelet and the fake
API server (real HTTPS, real watch streams). Each case used to cost a node its GPU metrics or hammer the API
server; now each is a skipped value, one log line or a wait, and ``/metrics`` and ``/health`` keep serving.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from gpuscope.kube.reflector import MAX_PAGE_BYTES
from gpuscope.simulator.kubelet import KubeletServer, kubelet_server, pod
from tests.support.exporter_process import GPUSCOPE, ExporterProcess, clean_env, exporter_process
from tests.support.kubeapi import FakeKubeApi, fake_kube_api, raw
from tests.support.net import free_port, wait_for

pytestmark = pytest.mark.e2e

NODE = "gpu-node-9"
GPU = "nvidia.com/gpu"
MIB = 1 << 20


@contextmanager
def exporter(
    tmp_path: Path, api: FakeKubeApi, kubelet: KubeletServer, allowlist: str = "", *flags: str
) -> Iterator[ExporterProcess]:
    port = free_port()
    argv = [*GPUSCOPE, "exporter", "--backend", "sim", "--sim-gpus", "2", "-a", f"127.0.0.1:{port}", "-c", "300"]
    # info mode, chosen explicitly (-k alone is dcgm-exporter's labels mode): one info series per pod to read
    argv += ["-k", "--workload-labels", "info", "--kubernetes-enable-pod-labels", "--kubernetes-enable-pod-uid", *flags]
    env = clean_env(
        {
            **api.env(),
            "NODE_NAME": NODE,
            "DCGM_POD_RESOURCES_KUBELET_SOCKET": kubelet.socket_path,
            "DCGM_EXPORTER_KUBERNETES_POD_LABEL_ALLOWLIST_REGEX": allowlist,
        }
    )
    with exporter_process(argv, f"http://127.0.0.1:{port}", tmp_path, env=env) as running:
        yield running
        # Fresh collections go on (a loaded machine may stall one for a moment: wait for the condition).
        wait_for(lambda: running.get("/health").status_code == 200, what="/health 200")
        assert "Traceback" not in running.log(), running.log()


def info_lines(running: ExporterProcess) -> list[str]:
    text = running.get("/metrics").text
    return [ln for ln in text.splitlines() if ln.startswith("gpuscope_gpu_workload_info{")]


def metric(running: ExporterProcess, name: str, resource: str) -> float:
    found = re.search(rf'^{name}{{resource="{resource}"}} (\S+)$', running.get("/metrics").text, re.M)
    return float(found[1]) if found else -1.0


@pytest.fixture
def api(tmp_path: Path) -> Iterator[FakeKubeApi]:
    with fake_kube_api(tmp_path) as server:
        yield server


@pytest.fixture
def kubelet() -> Iterator[KubeletServer]:
    with kubelet_server() as k:
        yield k


def test_surrogates_backtracking_patterns_and_malformed_pods_cost_only_themselves(
    tmp_path: Path, api: FakeKubeApi, kubelet: KubeletServer
) -> None:
    # A lone surrogate in a label value (JSON's "\ud800"), and a 45-character key for the backtracking pattern.
    api.create_pod("ml", "trainer", NODE, {"team": "vision\ud800", "a" * 45 + "!": "x"})
    api.create_pod("ml", "infer", NODE, {"team": "search"})
    broken = {"name": "broken", "namespace": "ml", "uid": "uid-broken", "labels": {"team": "x"}}
    api.put("pods", "ml/broken", {"metadata": broken, "spec": {"nodeName": NODE}, "status": {"containerStatuses": 5}})
    kubelet.set_pods([pod("ml", "trainer", ("main", GPU, ["nvidia0"])), pod("ml", "infer", ("main", GPU, ["nvidia1"]))])
    # (a+)+$ freezes a backtracking engine on that key; (unclosed does not compile and is skipped.
    with exporter(tmp_path, api, kubelet, "^team$,(a+)+$,(unclosed") as running:
        lines = wait_for(lambda: len(info_lines(running)) == 2 and info_lines(running), what="both pods attributed")
        trainer = next(ln for ln in lines if 'pod="trainer"' in ln)
        assert 'team="vision\ufffd"' in trainer  # the one character replaced; the series and the body intact
        assert 'team="search"' in next(ln for ln in lines if 'pod="infer"' in ln)
        assert metric(running, "gpuscope_exporter_kubernetes_api_objects", "pods") == 2  # the broken pod skipped
        log = running.log()
        skipped = [ln for ln in log.splitlines() if "skipping '(unclosed'" in ln]
        assert len(skipped) == 1 and "--kubernetes-pod-label-allowlist-regex" in skipped[0]
        assert "1 malformed pods skipped" in log and "'ml/broken'" in log
        assert "re2.cc" not in log  # RE2's own error line stays out of the log


def test_a_410_after_every_good_list_relists_with_growing_waits(
    tmp_path: Path, api: FakeKubeApi, kubelet: KubeletServer
) -> None:
    api.create_pod("ml", "trainer", NODE, {"team": "vision"})
    kubelet.set_pods([pod("ml", "trainer", ("main", GPU, ["nvidia0"]))])
    api.gone_watches = True  # every watch: 410 Gone at once, right after the list succeeded
    with exporter(tmp_path, api, kubelet, "^team$") as running:

        def waits() -> list[float] | None:
            found = [float(w) for w in re.findall(r"410 Gone\): relisting; next try in (\S+)s", running.log())]
            return found if len(found) >= 3 else None

        first = wait_for(waits, what="three relists")
        # Capped exponential with up to 20 % jitter: 1 s, 2 s, 4 s, ... never a relist at once.
        for n, wait in enumerate(first[:3]):
            assert 2**n <= wait <= 2**n * 1.2, first
        lists = [r for r in api.requests if r.startswith("/api/v1/pods") and "watch=1" not in r]
        assert len(lists) <= len(waits() or ()) + 1  # one list per wait, no storm in between
        assert any('team="vision"' in ln for ln in info_lines(running))  # the listed copy still serves


def test_a_nesting_bomb_is_one_line_however_often_it_is_retried(
    tmp_path: Path, api: FakeKubeApi, kubelet: KubeletServer
) -> None:
    bomb = b'{"kind":"PodList","items":' + b"[" * 200_000 + b"]" * 200_000 + b"}"

    respond = raw(bomb)

    def answer(handler: BaseHTTPRequestHandler, path: str) -> bool:
        if not path.startswith("/api/v1/pods"):  # every page of the list, whatever its query
            return False
        respond(handler)
        return True

    api.answer = answer
    with exporter(tmp_path, api, kubelet, "^team$") as running:
        wait_for(lambda: api.count("/api/v1/pods") >= 3, what="retries of the list")
        said = [ln for ln in running.log().splitlines() if "nests deeper" in ln]
        assert len(said) == 1, running.log()
        assert metric(running, "gpuscope_exporter_kubernetes_api_up", "pods") == 0


def test_a_malformed_resourceslice_is_skipped_and_the_others_kept(
    tmp_path: Path, api: FakeKubeApi, kubelet: KubeletServer
) -> None:
    api.put_slice(
        "good", NODE, NODE, [{"name": "gpu-0", "attributes": {"type": {"string": "gpu"}, "uuid": {"string": "GPU-0"}}}]
    )
    api.put_slice("bad", NODE, NODE, [])
    api.objects["resourceslices"]["bad"]["spec"]["devices"] = 5  # as served from now on
    with exporter(tmp_path, api, kubelet, "", "--kubernetes-enable-dra") as running:
        wait_for(
            lambda: metric(running, "gpuscope_exporter_kubernetes_api_objects", "resourceslices") == 1,
            what="the good slice kept",
        )
        wait_for(lambda: metric(running, "gpuscope_exporter_kubernetes_api_up", "resourceslices") == 1, what="up")
        assert "1 malformed resourceslices skipped" in running.log() and "'bad'" in running.log()


def _peak_rss(running: ExporterProcess) -> int:
    status = Path(f"/proc/{running.proc.pid}/status").read_text()
    found = re.search(r"^VmHWM:\s+(\d+) kB$", status, re.M)
    assert found, status
    return int(found[1]) * 1024


def test_a_24_mb_pod_list_is_read_in_pages_far_below_the_daemonset_limit(
    tmp_path: Path, api: FakeKubeApi, kubelet: KubeletServer
) -> None:
    filler = "x" * (24 * 1024)
    for i in range(1000):  # 24 MB of pods on this node, each with a large annotation the exporter does not keep
        api.create_pod("ml", f"p{i:04}", NODE, {"team": "t"})
        api.objects["pods"][f"ml/p{i:04}"]["metadata"]["annotations"] = {"blob": filler}
    with exporter(tmp_path, api, kubelet, "^team$") as running:
        wait_for(
            lambda: metric(running, "gpuscope_exporter_kubernetes_api_objects", "pods") == 1000,
            timeout=120,
            what="the whole list, page by page",
        )
        peak = _peak_rss(running)
        assert peak < 110 * MIB, peak  # the generated DaemonSet's limit is 128 MiB
        # A server that ignores limit and sends the 24 MB at once is refused, and the log says why.
        api.ignore_limit = True
        api.gone_watches = True  # the next watch is told to relist
        api.end_watches()
        wait_for(lambda: f"an answer over {MAX_PAGE_BYTES} bytes" in running.log(), what="the refused answer")
        assert _peak_rss(running) < 110 * MIB
        assert metric(running, "gpuscope_exporter_kubernetes_api_objects", "pods") == 1000  # the last copy stays

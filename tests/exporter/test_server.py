from __future__ import annotations

import gzip
import threading

import httpx
import pytest

from gpuscope.backends.sim import SimNode, SimNodeConfig
from gpuscope.exporter.server import Listener
from gpuscope.exporter.settings import ExporterSettings, make_runtime
from gpuscope.fields.collectors import load_collectors
from gpuscope.hardware.models import model_by_key
from tests.support.exporters import serving
from tests.support.net import free_port, wait_for


def listener(sim: SimNode, interval_s: float = 0.2) -> Listener:
    settings = ExporterSettings(collectors=load_collectors(None), interval_s=interval_s)
    return Listener("127.0.0.1", free_port(), make_runtime(sim, settings, "node-a"))


def test_metrics_health_and_http_hygiene() -> None:
    lst = listener(SimNode(SimNodeConfig("node-a", model_by_key("h100"), 2)))
    with serving([lst], 0.2):
        url = lst.url
        wait_for(lambda: httpx.get(f"{url}/health").status_code == 200, what="healthy")
        plain = httpx.get(f"{url}/metrics")
        assert plain.status_code == 200
        assert plain.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8"
        assert "DCGM_FI_DEV_GPU_TEMP{" in plain.text
        raw = httpx.get(f"{url}/metrics", headers={"Accept-Encoding": "gzip"})
        assert raw.headers["content-encoding"] == "gzip"
        assert b"DCGM_FI_DEV_GPU_TEMP{" in raw.content  # httpx decoded it; and it is valid gzip:
        with httpx.stream("GET", f"{url}/metrics", headers={"Accept-Encoding": "gzip"}) as stream:
            assert b"DCGM_FI_DEV_GPU_TEMP" in gzip.decompress(b"".join(stream.iter_raw()))
        health = httpx.get(f"{url}/health").json()
        assert health["status"] == "ok" and health["gpus"] == 2
        assert httpx.head(f"{url}/metrics").status_code == 200
        assert httpx.post(f"{url}/metrics").status_code == 405
        assert httpx.get(f"{url}/nope").status_code == 404
        assert "gpuscope exporter" in httpx.get(url).text


def test_fault_endpoint() -> None:
    lst = listener(SimNode(SimNodeConfig("node-a", model_by_key("h100"), 2)))
    with serving([lst], 0.2):
        faults = f"{lst.url}/sim/faults"
        reply = httpx.post(faults, json={"fault": "thermal", "gpu": 1})
        assert reply.status_code == 200 and reply.json() == {"active": [{"fault": "thermal", "gpu": 1}]}
        assert httpx.get(faults).json()["active"] == [{"fault": "thermal", "gpu": 1}]
        bad = httpx.post(faults, json={"fault": "melt"})
        assert bad.status_code == 400 and "unknown fault 'melt'" in bad.json()["error"]
        assert httpx.post(faults, content=b"{not json").status_code == 400
        assert httpx.post(faults, json=[1, 2]).status_code == 400
        assert httpx.post(faults, json={"fault": "thermal", "gpu": 9}).status_code == 400
        assert httpx.delete(faults).json() == {"active": []}
        assert 'href="/sim/faults"' in httpx.get(lst.url).text


def test_fault_endpoint_refuses_what_a_browser_sends() -> None:
    """A web page the user opens can post to loopback: a change carrying a browser's headers is refused."""
    lst = listener(SimNode(SimNodeConfig("node-a", model_by_key("h100"), 2)))
    with serving([lst], 0.2):
        faults = f"{lst.url}/sim/faults"
        body = b'{"fault": "fell-off-bus", "gpu": 0}'
        for headers in ({"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site"}, {"Origin": "null"}):
            refused = httpx.post(faults, content=body, headers={"Content-Type": "text/plain", **headers})
            assert refused.status_code == 403 and "web pages" in refused.json()["error"]
            assert httpx.delete(faults, headers=headers).status_code == 403
        assert httpx.get(faults).json()["active"] == []  # nothing was injected
        assert httpx.post(faults, content=body).status_code == 200  # gpuscope sim inject sends no Origin


def test_fault_routes_exist_only_where_mounted() -> None:
    # A real exporter (gpuscope exporter --backend nvml) is served without the simulator's extension.
    lst = listener(SimNode(SimNodeConfig("node-a", model_by_key("h100"), 1)))
    with serving([lst], 0.2, extensions=()):
        assert httpx.post(f"{lst.url}/sim/faults", json={"fault": "thermal"}).status_code == 404
        assert httpx.get(f"{lst.url}/metrics").status_code == 200
        assert "/sim/faults" not in httpx.get(lst.url).text


def test_slow_backend_never_blocks_metrics_and_health_goes_stale() -> None:
    gate = threading.Event()

    def stall(seconds: float) -> None:  # the slow fault's delay, cut short when the test opens the gate
        gate.wait(seconds)

    sim = SimNode(SimNodeConfig("node-a", model_by_key("h100"), 1), sleep=stall)
    lst = listener(sim, interval_s=0.2)
    with serving([lst], 0.2):
        url = lst.url
        wait_for(lambda: httpx.get(f"{url}/health").status_code == 200, what="healthy")
        httpx.post(f"{url}/sim/faults", json={"fault": "slow", "seconds": 60})
        stale = wait_for(lambda: (r := httpx.get(f"{url}/health")).status_code == 503 and r.json(), what="stale")
        assert "collection is failing or hung" in stale["reason"]
        # The collection thread is blocked inside the backend right now; /metrics still answers.
        assert lst.runtime.busy
        response = httpx.get(f"{url}/metrics", timeout=5)
        assert response.status_code == 200 and "DCGM_FI_DEV_GPU_TEMP{" in response.text
        age = [ln for ln in response.text.splitlines() if ln.startswith("gpuscope_exporter_snapshot_age_seconds ")]
        assert float(age[0].split()[1]) > 0.6
        httpx.post(f"{url}/sim/faults", json={"fault": "slow", "enabled": False})
        gate.set()
        wait_for(lambda: httpx.get(f"{url}/health").status_code == 200, what="healthy again")


def test_address_in_use_is_a_clear_error() -> None:
    from gpuscope.errors import EnvironmentProblem

    first = listener(SimNode(SimNodeConfig("a", model_by_key("h100"), 1)))
    second = Listener("127.0.0.1", first.port, first.runtime)
    with serving([first], 0.5), pytest.raises(EnvironmentProblem, match="already in use"), serving([second], 0.5):
        pass

"""The simulator's DCGM hop: host engine down/restarted and version skew, as the exporter serves them."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from gpuscope.backends.sim import FaultKind, FaultRequest, SimNode, SimNodeConfig
from gpuscope.backends.sim.faults import parse_fault_request
from gpuscope.errors import UsageError
from gpuscope.exporter.runtime import NodeRuntime
from gpuscope.exporter.settings import ExporterSettings, make_runtime
from gpuscope.fields.collectors import load_collectors
from gpuscope.hardware.models import model_by_key
from gpuscope.simulator.control import apply_fault

INFO = 'gpuscope_exporter_dcgm_info{client_version="4.6.0",hostengine_version="%s"} 1'
NOW = 1_800_000_000.0


@pytest.fixture
def node() -> Iterator[tuple[NodeRuntime, SimNode]]:
    sim = SimNode(SimNodeConfig(hostname="node-a", model=model_by_key("a100"), gpus=2), clock=lambda: NOW)
    runtime = make_runtime(sim, ExporterSettings(collectors=load_collectors(None)), "node-a", clock=lambda: NOW)
    yield runtime, sim
    runtime.close()


def _scrape(runtime: NodeRuntime) -> str:
    return runtime.body(NOW, gzip=False).decode()


def test_hostengine_down_is_backend_down_with_the_reason_until_cleared(node: tuple[NodeRuntime, SimNode]) -> None:
    runtime, _ = node
    runtime.collect()
    apply_fault(runtime, FaultRequest(FaultKind.HOSTENGINE_DOWN))
    runtime.collect()
    text = _scrape(runtime)
    assert 'gpuscope_exporter_backend_up{backend="sim"} 0' in text
    status, body = runtime.health(NOW)
    assert status == 503 and "DCGM_ST_CONNECTION_NOT_VALID" in json.loads(body)["reason"]
    assert "DCGM_FI_DEV_GPU_TEMP{" in text  # the last good reading is still served
    runtime.collect()
    assert runtime.health(NOW)[0] == 503  # stays down until cleared
    apply_fault(runtime, FaultRequest(FaultKind.HOSTENGINE_DOWN, enabled=False))
    runtime.collect()
    assert runtime.health(NOW)[0] == 200


def test_hostengine_restart_fails_one_collection(node: tuple[NodeRuntime, SimNode]) -> None:
    runtime, _ = node
    runtime.collect()
    apply_fault(runtime, FaultRequest(FaultKind.HOSTENGINE_RESTART))
    runtime.collect()
    assert 'gpuscope_exporter_backend_up{backend="sim"} 0' in _scrape(runtime)
    runtime.collect()
    assert 'gpuscope_exporter_backend_up{backend="sim"} 1' in _scrape(runtime)
    assert "gpuscope_exporter_collection_failures_total 1" in _scrape(runtime)


def test_version_skew_shows_both_versions(node: tuple[NodeRuntime, SimNode]) -> None:
    runtime, sim = node
    runtime.collect()
    assert INFO % "4.6.0" in _scrape(runtime)
    apply_fault(runtime, FaultRequest(FaultKind.VERSION_SKEW))
    runtime.collect()
    assert INFO % "4.8.1" in _scrape(runtime)
    assert {"fault": "version-skew", "gpu": None} in sim.active_faults()
    sim.clear()
    runtime.collect()
    assert INFO % "4.6.0" in _scrape(runtime)


def test_hop_faults_are_node_faults() -> None:
    with pytest.raises(UsageError, match="whole node"):
        parse_fault_request({"fault": "hostengine-down", "gpu": 0})

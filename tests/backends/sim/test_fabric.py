"""The simulated NVLink fabric: switches per model, link states, and the faults that change what real hardware
changes (link state, fabric health, SXid fields, XID 74)."""

from __future__ import annotations

import pytest

from gpuscope.backends.base import LinkState
from gpuscope.backends.sim import FaultKind, FaultRequest
from gpuscope.backends.sim.faults import DEFAULT_SXID, parse_fault_request
from gpuscope.errors import UsageError
from gpuscope.fields.ids import FieldId as F
from gpuscope.fields.rows_dcgm4 import (
    FABRIC_HEALTH_HEALTHY,
    FABRIC_HEALTH_LIMITED_CAPACITY,
    FABRIC_HEALTH_UNHEALTHY,
)
from gpuscope.hardware.models import MODELS
from tests.backends.sim.support import ALL, collect_twice, node
from tests.support.clock import FakeClock

NVLINK_ERROR_XID = 74


@pytest.mark.parametrize("model", sorted(MODELS))
def test_switches_and_links_come_from_the_model(model: str) -> None:
    m = MODELS[model]
    clock = FakeClock()
    reading = collect_twice(node(model, gpus=m.gpus_per_node, clock=clock), clock)
    assert len(reading.gpus) == m.gpus_per_node
    assert len(reading.switches) == m.nvswitches
    assert all(len(g.links) == m.nvlinks for g in reading.gpus)
    # Every GPU link faces exactly one switch port when the node has switches.
    assert sum(len(s.ports) for s in reading.switches) == (m.gpus_per_node * m.nvlinks if m.nvswitches else 0)


def test_nvlink_down_takes_one_link_and_its_port_down_and_logs_xid_74_once() -> None:
    clock = FakeClock()
    n = node("h100", gpus=2, clock=clock)
    collect_twice(n, clock)
    n.apply(FaultRequest(FaultKind.NVLINK_DOWN, gpu=1, link=7))
    n.apply(FaultRequest(FaultKind.NVLINK_DOWN, gpu=1, link=7))  # again: no second XID
    reading = n.collect(ALL)
    assert [e.code for e in reading.gpus[1].xid_events] == [NVLINK_ERROR_XID]
    assert reading.gpus[0].xid_events == ()
    gpu = reading.gpus[1]
    assert [link.link for link in gpu.links if link.state is LinkState.DOWN] == [7]
    assert gpu.links[7].reading.values[F.DCGM_FI_DEV_NVLINK_GET_STATE] == 0
    assert gpu.device.values[F.DCGM_FI_DEV_FABRIC_HEALTH_SUMMARY] == FABRIC_HEALTH_LIMITED_CAPACITY
    assert int(gpu.device.values[F.DCGM_FI_DEV_FABRIC_HEALTH_MASK]) & 0b11 == 1  # degraded bandwidth: true
    assert reading.gpus[0].device.values[F.DCGM_FI_DEV_FABRIC_HEALTH_SUMMARY] == FABRIC_HEALTH_HEALTHY
    down_ports = [p for s in reading.switches for p in s.ports if p.state is LinkState.DOWN]
    assert len(down_ports) == 1
    assert down_ports[0].reading.values[F.DCGM_FI_DEV_NVSWITCH_LINK_STATUS] == 0  # off
    n.apply(FaultRequest(FaultKind.NVLINK_DOWN, gpu=1, link=7, enabled=False))
    assert all(link.state is LinkState.UP for link in collect_twice(n, clock).gpus[1].links)


def test_nvswitch_fatal_sets_the_sxid_and_cuts_every_link_facing_the_switch() -> None:
    clock = FakeClock()
    n = node("h100", gpus=8, clock=clock)
    collect_twice(n, clock)
    n.apply(FaultRequest(FaultKind.NVSWITCH_FATAL, switch=1))
    reading = n.collect(ALL)
    hit = reading.switches[1]
    assert hit.reading.values[F.DCGM_FI_DEV_SXID_FATAL_ERROR] == DEFAULT_SXID
    assert hit.reading.values[F.DCGM_FI_DEV_NVSWITCH_RESET_REQUIRED] == 1
    assert all(p.state is LinkState.DOWN for p in hit.ports)
    assert all(p.reading.values[F.DCGM_FI_DEV_NVSWITCH_LINK_STATUS] == 3 for p in hit.ports)  # error
    assert reading.switches[0].reading.values[F.DCGM_FI_DEV_SXID_FATAL_ERROR] == 0
    for gpu in reading.gpus:  # links 1, 5, 9, 13, 17 of every GPU face switch 1
        assert [link.link for link in gpu.links if link.state is LinkState.DOWN] == [1, 5, 9, 13, 17]
        assert [e.code for e in gpu.xid_events] == [NVLINK_ERROR_XID]
    # An nvlink-down injected on its own outlives the switch's recovery.
    n.apply(FaultRequest(FaultKind.NVLINK_DOWN, gpu=0, link=5))
    n.apply(FaultRequest(FaultKind.NVSWITCH_FATAL, switch=1, enabled=False))
    after = collect_twice(n, clock)
    assert after.switches[1].reading.values[F.DCGM_FI_DEV_SXID_FATAL_ERROR] == 0
    assert [link.link for link in after.gpus[0].links if link.state is LinkState.DOWN] == [5]
    assert [link.link for link in after.gpus[1].links if link.state is LinkState.DOWN] == []
    assert {"fault": "nvlink-down", "gpu": 0, "link": 5} in n.active_faults()


def test_partition_degraded_marks_every_gpu_of_the_node_unhealthy_and_unroutable() -> None:
    clock = FakeClock()
    n = node("gb200", gpus=4, clock=clock)
    n.apply(FaultRequest(FaultKind.PARTITION_DEGRADED))
    reading = collect_twice(n, clock)
    for gpu in reading.gpus:
        assert gpu.device.values[F.DCGM_FI_DEV_FABRIC_HEALTH_SUMMARY] == FABRIC_HEALTH_UNHEALTHY
        assert int(gpu.device.values[F.DCGM_FI_DEV_FABRIC_HEALTH_MASK]) >> 4 & 0b11 == 1  # route unhealthy: true
    n.clear()
    assert collect_twice(n, clock).gpus[0].device.values[F.DCGM_FI_DEV_FABRIC_HEALTH_SUMMARY] == FABRIC_HEALTH_HEALTHY


def test_the_trays_of_a_rack_share_a_cluster_uuid_and_other_racks_do_not() -> None:
    from gpuscope.backends.sim import SimNode, SimNodeConfig

    def uuid(host: str, rack: str) -> object:
        clock = FakeClock()
        n = SimNode(SimNodeConfig(host, MODELS["gb200"], 4, seed=1, rack=rack), clock=clock)
        return collect_twice(n, clock).gpus[0].device.values[F.DCGM_FI_DEV_FABRIC_CLUSTER_UUID]

    assert uuid("tray-1", "rack-a") == uuid("tray-2", "rack-a") != uuid("tray-3", "rack-b")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"fault": "nvlink-down", "gpu": 0}, "nvlink-down needs 'gpu' and 'link'"),
        ({"fault": "nvlink-down", "link": 3}, "nvlink-down needs 'gpu' and 'link'"),
        ({"fault": "nvlink-down", "gpu": 0, "link": -1}, "'link' must be an index"),
        ({"fault": "nvswitch-fatal"}, "nvswitch-fatal needs 'switch'"),
        ({"fault": "nvswitch-fatal", "switch": 0, "code": 100000}, "an SXid number between 1 and 99999"),
        ({"fault": "nvswitch-fatal", "switch": 0, "gpu": 1}, "affects the whole node"),
        ({"fault": "xid", "code": 20034}, "an XID number between 1 and 999"),
    ],
)
def test_fabric_fault_requests_are_checked(body: dict[str, object], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        parse_fault_request(body)


def test_a_link_that_does_not_exist_is_refused_with_the_range() -> None:
    with pytest.raises(UsageError, match=r"has no NVLink 18 \(links 0-17\)"):
        node("h100").apply(FaultRequest(FaultKind.NVLINK_DOWN, gpu=0, link=18))
    with pytest.raises(UsageError, match="NVSwitch 4 does not exist"):
        node("h100").apply(FaultRequest(FaultKind.NVSWITCH_FATAL, switch=4))


def test_a_simulated_fleet_of_trays_groups_them_in_racks() -> None:
    from gpuscope.simulator.fleet import plan_nodes

    nodes = plan_nodes(model=MODELS["gb200"], count=20, gpus_per_node=4)
    racks = [n.config.rack for n in nodes]
    assert len(set(racks[:18])) == 1 and racks[18] != racks[0]
    assert {n.config.rack for n in plan_nodes(model=MODELS["h100"], count=3, gpus_per_node=8)} == {""}

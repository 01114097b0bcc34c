"""NVSwitches and NVLinks on /metrics: dcgm-exporter's label sets, -s/--switch-devices, link states, numbering.

A simulated HGX H100 (4 NVSwitch chips, 18 NVLinks per GPU) and an NVL72 compute tray (4 GPUs, no switch of its
own), rendered through the real runtime from a collectors CSV that lists switch, port and link fields.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from gpuscope.backends.sim import FaultKind, FaultRequest, SimNode
from gpuscope.errors import UsageError
from gpuscope.exporter.devices import SWITCH_FLAG, parse_devices
from gpuscope.fields.catalog import Dialect
from tests.support.exporter import RuntimeFactory

CSV = """\
DCGM_FI_DEV_GPU_TEMP, gauge, temperature
DCGM_FI_DEV_NVLINK_GET_STATE, gauge, link state
DCGM_FI_DEV_NVLINK_THROUGHPUT_PER_LINK, gauge, link throughput
DCGM_FI_DEV_NVSWITCH_FATAL_ERRORS, gauge, last fatal SXid
DCGM_FI_DEV_NVSWITCH_RESET_REQUIRED, gauge, reset required
DCGM_FI_DEV_NVSWITCH_LINK_STATUS, gauge, port status
DCGM_FI_DEV_NVSWITCH_LINK_THROUGHPUT_TX, counter, port tx
"""


def _body(make: RuntimeFactory, **kwargs: Any) -> tuple[str, SimNode]:
    runtime, sim, clock = make(csv=CSV, **kwargs)
    runtime.collect()
    clock.t += 15
    runtime.collect()
    return runtime.body(clock.t, gzip=False).decode(), sim


def _series(body: str, name: str) -> list[str]:
    return re.findall(rf"^{name}\{{(.*)\}} \S+$", body, re.M)


def test_hgx_h100_serves_each_switch_and_its_ports_with_dcgm_exporters_labels(make: RuntimeFactory) -> None:
    body, _ = _body(make, model="h100", gpus=8)
    switches = _series(body, "DCGM_FI_DEV_NVSWITCH_FATAL_ERRORS")
    # One series per switch, each named by its own id (before dcgm-exporter#729 every one read nvswitch0).
    assert switches == [f'nvswitch="nvswitch{n}",Hostname="node-a"' for n in range(4)]
    ports = _series(body, "DCGM_FI_DEV_NVSWITCH_LINK_STATUS")
    assert ports[0] == 'nvlink="0",nvswitch="nvswitch0",Hostname="node-a"'
    assert len(ports) == len(set(ports)) == 8 * 18  # every GPU link faces one switch port
    assert "# TYPE DCGM_FI_DEV_NVSWITCH_LINK_THROUGHPUT_TX counter" in body
    # The GPU side: 18 links per GPU, dcgm-exporter's link label set.
    links = _series(body, "DCGM_FI_DEV_NVLINK_GET_STATE")
    assert len(links) == 8 * 18
    assert re.fullmatch(
        r'nvlink="0",gpu="0",gpu_uuid="GPU-[0-9a-f-]+",pci_bus_id="[0-9A-F:.]+",device="nvidia0",'
        r'model_name="NVIDIA H100 80GB HBM3",Hostname="node-a"',
        links[0],
    )


@pytest.mark.parametrize(
    ("selector", "switches", "ports"),
    [
        ("f", {"0", "1", "2", "3"}, 144),
        ("g", {"0", "1", "2", "3"}, 0),  # switches, and no port: an empty link range watches none
        ("g:1,3", {"1", "3"}, 0),
        ("g:1+i:0-3", {"1"}, 4),
        ("g+i:0", {"0", "1", "2", "3"}, 4),
        ("i", set(), 0),  # no switch watched, hence none of their ports
    ],
)
def test_switch_selector_picks_switches_and_ports_as_dcgm_exporter(
    make: RuntimeFactory, selector: str, switches: set[str], ports: int
) -> None:
    body, _ = _body(make, model="h100", gpus=8, switches=parse_devices(selector, SWITCH_FLAG))
    served = set(re.findall(r'^DCGM_FI_DEV_NVSWITCH_FATAL_ERRORS\{nvswitch="nvswitch(\d+)"', body, re.M))
    assert served == switches
    assert len(_series(body, "DCGM_FI_DEV_NVSWITCH_LINK_STATUS")) == ports
    assert len(_series(body, "DCGM_FI_DEV_NVLINK_GET_STATE")) == 8 * 18  # GPU links follow -d, not -s


def test_a_down_link_keeps_only_its_state_series(make: RuntimeFactory) -> None:
    runtime, sim, clock = make(model="h100", gpus=2, csv=CSV)
    runtime.collect()
    sim.apply(FaultRequest(FaultKind.NVLINK_DOWN, gpu=1, link=5))
    clock.t += 15
    runtime.collect()
    body = runtime.body(clock.t, gzip=False).decode()
    state = {
        (m.group(2), m.group(1)): m.group(3)
        for m in re.finditer(r'^DCGM_FI_DEV_NVLINK_GET_STATE\{nvlink="(\d+)",gpu="(\d)",.*\} (\d)$', body, re.M)
    }
    assert state[("1", "5")] == "0"
    assert [k for k, v in state.items() if v != "1"] == [("1", "5")]
    # dcgm-exporter watches Up links only: the down link's other fields are gone, its state stays.
    throughput = re.findall(r'^DCGM_FI_DEV_NVLINK_THROUGHPUT_PER_LINK\{nvlink="(\d+)",gpu="1"', body, re.M)
    assert "5" not in throughput and len(throughput) == 17
    # The switch port facing it is off (0), not gone, and so is its far end's state.
    assert len(re.findall(r"^DCGM_FI_DEV_NVSWITCH_LINK_STATUS\{.*\} 0$", body, re.M)) == 1


def test_a_fatal_sxid_names_the_switch_and_takes_its_ports_down(make: RuntimeFactory) -> None:
    runtime, sim, clock = make(model="h100", gpus=2, csv=CSV)
    runtime.collect()
    sim.apply(FaultRequest(FaultKind.NVSWITCH_FATAL, switch=2, code=20034))
    clock.t += 15
    runtime.collect()
    body = runtime.body(clock.t, gzip=False).decode()
    fatal = re.findall(r'^DCGM_FI_DEV_NVSWITCH_FATAL_ERRORS\{nvswitch="(nvswitch\d)",.*\} (\d+)$', body, re.M)
    assert dict(fatal) == {"nvswitch0": "0", "nvswitch1": "0", "nvswitch2": "20034", "nvswitch3": "0"}
    assert re.search(r'^DCGM_FI_DEV_NVSWITCH_RESET_REQUIRED\{nvswitch="nvswitch2",.*\} 1$', body, re.M)
    errored = re.findall(r'^DCGM_FI_DEV_NVSWITCH_LINK_STATUS\{nvlink="\d+",nvswitch="(nvswitch\d)",.*\} 3$', body, re.M)
    assert set(errored) == {"nvswitch2"} and len(errored) == 2 * 4  # links 2, 6, 10, 14 of each GPU
    down = re.findall(r'^DCGM_FI_DEV_NVLINK_GET_STATE\{nvlink="(\d+)",gpu="0",.*\} 0$', body, re.M)
    assert down == ["2", "6", "10", "14"]


def test_dialects_after_4_8_1_number_gpu_links_from_1_and_switch_ports_from_0(make: RuntimeFactory) -> None:
    body, _ = _body(make, model="h100", gpus=1, dialect=Dialect.DCGM_4_9)
    links = re.findall(r'^DCGM_FI_DEV_NVLINK_GET_STATE\{nvlink="(\d+)",gpu="0"', body, re.M)
    assert links == [str(n) for n in range(1, 19)]
    ports = re.findall(r'^DCGM_FI_DEV_NVSWITCH_LINK_STATUS\{nvlink="(\d+)",nvswitch="nvswitch0"', body, re.M)
    assert ports[0] == "0"


def test_an_nvl72_tray_serves_four_gpus_of_eighteen_links_and_no_switch(make: RuntimeFactory) -> None:
    body, sim = _body(make, model="gb200", gpus=4)
    links = _series(body, "DCGM_FI_DEV_NVLINK_GET_STATE")
    assert len(links) == 4 * 18
    assert not _series(body, "DCGM_FI_DEV_NVSWITCH_FATAL_ERRORS")
    with pytest.raises(UsageError, match="switch trays: use partition-degraded"):
        sim.apply(FaultRequest(FaultKind.NVSWITCH_FATAL, switch=0))

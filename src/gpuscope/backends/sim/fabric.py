"""The simulated NVLink fabric of a node: its NVSwitch chips, their ports, and which GPU link each port faces.

The wiring is the simulator's own, derived from the model (never a literal link count): GPU link ``l`` goes to
switch ``l % nvswitches`` (an HGX H100's 18 links spread 5/5/4/4 over its 4 chips, a B200's 9/9 over 2), and a
switch numbers its ports in (GPU, link) order. Real port numbers differ per baseboard; the series and their labels
do not. An NVL72 compute tray has no switch of its own (its switches sit in the rack's switch trays): it has no
``SimSwitch``, and its fabric shows through its GPUs' link states and fabric health.

A link is up unless a fault took it down: ``nvlink-down`` (one GPU link and the switch port facing it), or
``nvswitch-fatal`` (every port of the switch, and the GPU links that face it).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from types import MappingProxyType

from gpuscope.backends.base import EntityReading, LinkReading, LinkState, ReadError, SwitchReading, Value
from gpuscope.fields.catalog import BY_ID, Entity
from gpuscope.fields.ids import FieldId as F
from gpuscope.hardware.models import GpuModel

# DCGM_FI_DEV_NVSWITCH_LINK_STATUS values (dcgm_fields.h): 0 off, 2 active, 3 error.
_PORT_OFF, _PORT_ACTIVE, _PORT_ERROR = 0, 2, 3
# DCGM_FI_DEV_NVSWITCH_LINK_TYPE of a port facing a GPU: NSCQ (3rd-gen NVSwitch, NVLink 4) says 1, NVSDM (4th-gen,
# NVLink 5) says 5.
_GPU_TYPE = {4: 1, 5: 5}
_SWITCH_BUS_BASE = 0x05  # the simulated switches' PCIe buses: 05, 06, ... (any bus no simulated GPU uses)


@dataclass(frozen=True, slots=True)
class Port:
    """A switch port and the GPU link at its far end."""

    index: int
    gpu: int
    link: int


@dataclass(slots=True)
class SimSwitch:
    """One NVSwitch chip: its ports, counters, and the fatal/non-fatal SXid it last logged."""

    switch_id: int
    nvlink_gen: int
    ports: tuple[Port, ...]
    fatal_sxid: int = 0
    non_fatal_sxid: int = 0
    tx_kib: list[float] = field(default_factory=list)
    rx_kib: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.tx_kib = [0.0] * len(self.ports)
        self.rx_kib = [0.0] * len(self.ports)

    @property
    def failed(self) -> bool:
        return self.fatal_sxid != 0


def build_switches(model: GpuModel, gpus: int) -> list[SimSwitch]:
    """The node's switches, wired to every link of every GPU (none when the model's node has no switch)."""
    count = model.nvswitches
    if not count or not model.nvlinks:
        return []
    wiring: list[list[Port]] = [[] for _ in range(count)]
    for gpu in range(gpus):
        for link in range(model.nvlinks):
            ports = wiring[link % count]
            ports.append(Port(len(ports), gpu, link))
    return [SimSwitch(n, model.nvlink_gen, tuple(ports)) for n, ports in enumerate(wiring)]


def facing(switches: Iterable[SimSwitch], gpu: int, link: int) -> tuple[SimSwitch, Port] | None:
    """The switch port a GPU link goes to (``None`` without switches)."""
    for switch in switches:
        for port in switch.ports:
            if port.gpu == gpu and port.link == link:
                return switch, port
    return None


def port_up(switch: SimSwitch, port: Port, down_links: Iterable[tuple[int, int]]) -> bool:
    return not switch.failed and (port.gpu, port.link) not in set(down_links)


def advance(switch: SimSwitch, dt: float, kib_per_s: list[float], up: list[bool]) -> None:
    """Integrate each port's traffic (what the GPU link at its far end carries, per direction) over ``dt``."""
    for n, rate in enumerate(kib_per_s):
        if up[n]:
            switch.tx_kib[n] += rate * dt
            switch.rx_kib[n] += rate * 0.97 * dt


def read_switch(
    switch: SimSwitch, field_ids: Iterable[int], up: list[bool], bus_ids: list[str], temp_c: int
) -> SwitchReading:
    """The switch's own fields and, per port, the NVLink-entity fields a switch port serves."""
    ids = [fid for fid in field_ids if fid in BY_ID]
    own = _values([fid for fid in ids if BY_ID[fid].entity is Entity.NVSWITCH], _switch_values(switch, temp_c, up))
    port_ids = [fid for fid in ids if BY_ID[fid].entity is Entity.NVLINK]
    ports = tuple(
        LinkReading(
            port.index,
            _values(port_ids, _port_values(switch, n, port, up[n], bus_ids)),
            LinkState.UP if up[n] else LinkState.DOWN,
        )
        for n, port in enumerate(switch.ports)
    )
    return SwitchReading(switch.switch_id, own, ports)


def _switch_values(switch: SimSwitch, temp_c: int, up: list[bool]) -> dict[int, Value]:
    active = sum(up)
    return {
        F.DCGM_FI_DEV_NVSWITCH_VOLTAGE_MVOLT: 830,
        F.DCGM_FI_DEV_NVSWITCH_POWER_VDD_WATTS: 40 + active // 4,
        F.DCGM_FI_DEV_NVSWITCH_POWER_DVDD_WATTS: 12,
        F.DCGM_FI_DEV_NVSWITCH_POWER_HVDD_WATTS: 8,
        F.DCGM_FI_DEV_SXID_FATAL_ERROR: switch.fatal_sxid,
        F.DCGM_FI_DEV_SXID_NON_FATAL_ERROR: switch.non_fatal_sxid,
        F.DCGM_FI_DEV_NVSWITCH_TEMP_CELSIUS: temp_c,
        F.DCGM_FI_DEV_NVSWITCH_TEMP_SLOWDOWN_CELSIUS: 100,
        F.DCGM_FI_DEV_NVSWITCH_TEMP_SHUTDOWN_CELSIUS: 105,
        F.DCGM_FI_DEV_NVSWITCH_THROUGHPUT_TX: int(sum(switch.tx_kib)),
        F.DCGM_FI_DEV_NVSWITCH_THROUGHPUT_RX: int(sum(switch.rx_kib)),
        F.DCGM_FI_DEV_NVSWITCH_PHYSICAL_ID: switch.switch_id,
        F.DCGM_FI_DEV_NVSWITCH_RESET_REQUIRED: int(switch.failed),
        F.DCGM_FI_DEV_NVSWITCH_PCIE_DOMAIN: 0,
        F.DCGM_FI_DEV_NVSWITCH_PCIE_BUS: _SWITCH_BUS_BASE + switch.switch_id,
        F.DCGM_FI_DEV_NVSWITCH_PCIE_DEVICE: 0,
        F.DCGM_FI_DEV_NVSWITCH_PCIE_FUNCTION: 0,
    }


def _port_values(switch: SimSwitch, n: int, port: Port, up: bool, bus_ids: list[str]) -> dict[int, Value]:
    domain, bus, dev_fn = bus_ids[port.gpu].split(":")
    device, function = dev_fn.split(".")
    return {
        F.DCGM_FI_DEV_NVSWITCH_LINK_THROUGHPUT_TX: int(switch.tx_kib[n]),
        F.DCGM_FI_DEV_NVSWITCH_LINK_THROUGHPUT_RX: int(switch.rx_kib[n]),
        F.DCGM_FI_DEV_NVSWITCH_LINK_FATAL_ERRORS: int(switch.failed),
        F.DCGM_FI_DEV_NVSWITCH_LINK_NON_FATAL_ERRORS: 0,
        F.DCGM_FI_DEV_NVSWITCH_LINK_REPLAY_ERROR_TOTAL: 0,
        F.DCGM_FI_DEV_NVSWITCH_LINK_RECOVERY_ERROR_TOTAL: 0,
        F.DCGM_FI_DEV_NVSWITCH_LINK_FLIT_ERROR_TOTAL: 0,
        F.DCGM_FI_DEV_NVSWITCH_LINK_CRC_ERROR_TOTAL: 0,
        F.DCGM_FI_DEV_NVSWITCH_LINK_ECC_ERROR_TOTAL: 0,
        F.DCGM_FI_DEV_NVSWITCH_LINK_ID: port.index,
        F.DCGM_FI_DEV_NVSWITCH_LINK_STATUS: _PORT_ACTIVE if up else _PORT_ERROR if switch.failed else _PORT_OFF,
        F.DCGM_FI_DEV_NVSWITCH_LINK_TYPE: _GPU_TYPE.get(switch.nvlink_gen, 1),
        F.DCGM_FI_DEV_NVSWITCH_LINK_REMOTE_PCIE_DOMAIN: int(domain, 16),
        F.DCGM_FI_DEV_NVSWITCH_LINK_REMOTE_PCIE_BUS: int(bus, 16),
        F.DCGM_FI_DEV_NVSWITCH_LINK_REMOTE_PCIE_DEVICE: int(device, 16),
        F.DCGM_FI_DEV_NVSWITCH_LINK_REMOTE_PCIE_FUNCTION: int(function, 16),
        F.DCGM_FI_DEV_NVSWITCH_LINK_REMOTE_LINK_ID: port.link,
    }


def _values(field_ids: list[int], table: dict[int, Value]) -> EntityReading:
    values = {fid: table[fid] for fid in field_ids if fid in table}
    errors = {fid: ReadError.NOT_SUPPORTED for fid in field_ids if fid not in table}
    return EntityReading(MappingProxyType(values), MappingProxyType(errors))

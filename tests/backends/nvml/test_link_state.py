"""Per-link NVLink state through NVML (NVML_FI_DEV_NVLINK_GET_STATE, scopeId = link): DCGM's field 1508 and the
link's state, so a link that went down is served as down (docs/exporter.md "NVSwitches and NVLinks")."""

from __future__ import annotations

from collections.abc import Callable

from gpuscope.backends.base import LinkState
from gpuscope.fields.ids import FieldId
from tests.backends.nvml.support import Rig

STATE = FieldId.DCGM_FI_DEV_NVLINK_GET_STATE


def test_a_link_the_driver_reports_inactive_is_down(rig: Callable[..., Rig]) -> None:
    r = rig("hgx-h100")
    r.fake.devices[1].desc["nvlink"]["down"] = [4]
    reading = r.collect({STATE, FieldId.DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_PER_LINK_TOTAL})
    healthy, hit = reading.gpus[0], reading.gpus[1]
    assert len(hit.links) == 18
    assert {link.link: link.reading.values[STATE] for link in hit.links if link.reading.values[STATE] != 1} == {4: 0}
    assert [link.link for link in hit.links if link.state is LinkState.DOWN] == [4]
    assert all(link.state is LinkState.UP for link in healthy.links)


def test_links_are_read_up_to_the_gpus_count(rig: Callable[..., Rig]) -> None:
    gpu = rig("a100").collect({STATE}).gpus[0]
    assert [link.link for link in gpu.links] == list(range(12))
    assert all(link.reading.values[STATE] == 1 for link in gpu.links)

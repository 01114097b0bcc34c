"""NVSwitch and NVLink entities through the real binding on the fake libdcgm (built from DCGM 4.6.0's headers):
switches from ``dcgmGetEntityGroupEntities``, link states from ``dcgmGetNvLinkLinkStatus``, and link-entity
fields read by their ``dcgm_link_t`` ids (group | index << 8 | parent << 24)."""

from __future__ import annotations

import pytest

from gpuscope.backends.base import LinkState, ReadError, ReadRequest
from gpuscope.backends.dcgm import DcgmBackend
from gpuscope.backends.dcgm import structs as S
from gpuscope.fields.ids import FieldId as F
from tests.fakedcgm import FakeDcgm
from tests.fakedcgm.nodes import two_a100s

UP, DOWN = 3, 2
REQUEST = ReadRequest(
    frozenset(
        {
            F.DCGM_FI_DEV_GPU_TEMP,
            F.DCGM_FI_DEV_NVLINK_GET_STATE,
            F.DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_PER_LINK_TOTAL,
            F.DCGM_FI_DEV_SXID_FATAL_ERROR,
            F.DCGM_FI_DEV_NVSWITCH_LINK_STATUS,
        }
    )
)


def test_the_link_id_is_dcgms_bit_layout() -> None:
    # GPU 3's link 5: group 1 in byte 0, index 5 in bytes 1-2, parent 3 in byte 3 (dcgm_structs.h dcgm_link_t)
    assert S.link_id(S.EntityGroup.GPU, 3, 5) == 0x03_0005_01
    assert S.link_id(S.EntityGroup.SWITCH, 1, 300) == 0x01_012C_03


@pytest.fixture
def backend(fake: FakeDcgm) -> DcgmBackend:
    fake.apply(*two_a100s(), "switch 0", "switch 1")
    for gpu in (0, 1):
        for link in range(12):
            fake.apply(f"link gpu {gpu} {link} {DOWN if (gpu, link) == (1, 4) else UP}")
            raw = S.link_id(S.EntityGroup.GPU, gpu, link)
            fake.apply(
                f"value link {raw} {int(F.DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_PER_LINK_TOTAL)} i {100 * gpu + link}"
            )
            fake.apply(f"value link {raw} {int(F.DCGM_FI_DEV_NVLINK_GET_STATE)} i {int((gpu, link) != (1, 4))}")
    for switch in (0, 1):
        for port in range(3):
            fake.apply(f"link switch {switch} {port} {UP}")
            raw = S.link_id(S.EntityGroup.SWITCH, switch, port)
            fake.apply(f"value link {raw} {int(F.DCGM_FI_DEV_NVSWITCH_LINK_STATUS)} i 2")
        fake.apply(f"value switch {switch} {int(F.DCGM_FI_DEV_SXID_FATAL_ERROR)} i {20034 if switch else 0}")
    return DcgmBackend(retry_initial_s=0.0, call_timeout_s=5.0)


def test_gpu_links_switches_and_ports_are_read_by_their_entity_ids(backend: DcgmBackend) -> None:
    reading = backend.collect(REQUEST)
    gpu0, gpu1 = reading.gpus
    assert [link.link for link in gpu0.links] == list(range(12))
    assert gpu1.links[7].reading.values[F.DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_PER_LINK_TOTAL] == 107
    assert [link.link for link in gpu1.links if link.state is LinkState.DOWN] == [4]
    assert gpu1.links[4].reading.values[F.DCGM_FI_DEV_NVLINK_GET_STATE] == 0
    assert [s.switch_id for s in reading.switches] == [0, 1]
    assert [s.reading.values[F.DCGM_FI_DEV_SXID_FATAL_ERROR] for s in reading.switches] == [0, 20034]
    assert [p.link for p in reading.switches[1].ports] == [0, 1, 2]
    assert reading.switches[1].ports[2].reading.values[F.DCGM_FI_DEV_NVSWITCH_LINK_STATUS] == 2
    # a GPU field is not asked of a link, nor a link field of a GPU
    assert F.DCGM_FI_DEV_GPU_TEMP not in gpu0.links[0].reading.values
    assert F.DCGM_FI_DEV_NVLINK_GET_STATE not in gpu0.device.values


def test_a_link_that_goes_down_later_is_seen_at_the_next_collection(fake: FakeDcgm, backend: DcgmBackend) -> None:
    backend.collect(REQUEST)
    fake.apply(f"link gpu 0 9 {DOWN}")
    reading = backend.collect(REQUEST)
    assert [link.link for link in reading.gpus[0].links if link.state is LinkState.DOWN] == [9]


def test_a_node_without_switches_serves_gpu_links_only(fake: FakeDcgm) -> None:
    fake.apply(*two_a100s(), f"link gpu 0 0 {UP}")
    reading = DcgmBackend(retry_initial_s=0.0, call_timeout_s=5.0).collect(REQUEST)
    assert reading.switches == ()
    assert [link.link for link in reading.gpus[0].links] == [0]
    # no value in the model: an error of that link's field, not a failed collection
    link = reading.gpus[0].links[0].reading
    assert F.DCGM_FI_DEV_NVLINK_GET_STATE not in link.values
    assert isinstance(link.errors[F.DCGM_FI_DEV_NVLINK_GET_STATE], ReadError)

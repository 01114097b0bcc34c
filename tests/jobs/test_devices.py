"""The job's GPUs: from CUDA_VISIBLE_DEVICES and friends to the UUIDs GPU telemetry carries.

NVML is the fake pynvml of tests/fakenvml (the only hardware stand-in); without it, resolution must still work for
UUIDs and say honestly what it could not resolve.
"""

from __future__ import annotations

import pynvml
import pytest

from gpuscope.jobs.devices import JobGpu, Request, plan
from gpuscope.jobs.reporter import gpu_request, resolve_gpus
from tests.fakenvml import FakeNvml

U0 = "GPU-5e1f0000-7a2b-4c3d-8e9f-a0b0c0d00000"  # the fake's GPU 0
U1 = "GPU-5e1f0001-7a2b-4c3d-8e9f-a0b0c0d00001"
OTHER = "GPU-12345678-90ab-cdef-1234-567890abcdef"
MIG_GI2 = "MIG-2c3d4e5f-2222-6b7c-9d0e-1f2a3b4c5d6e"


def no_nvml() -> FakeNvml:
    fake = FakeNvml("hgx-h100")
    fake.init_error = pynvml.NVML_ERROR_LIBRARY_NOT_FOUND
    return fake


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"CUDA_VISIBLE_DEVICES": "0,1"}, Request("CUDA_VISIBLE_DEVICES", ("0", "1"))),
        ({"CUDA_VISIBLE_DEVICES": "", "NVIDIA_VISIBLE_DEVICES": "all"}, Request("CUDA_VISIBLE_DEVICES")),
        ({"CUDA_VISIBLE_DEVICES": "-1"}, Request("CUDA_VISIBLE_DEVICES")),
        ({"NVIDIA_VISIBLE_DEVICES": "all"}, Request("NVIDIA_VISIBLE_DEVICES", all_gpus=True)),
        ({"NVIDIA_VISIBLE_DEVICES": "void"}, Request("NVIDIA_VISIBLE_DEVICES")),
        ({"NVIDIA_VISIBLE_DEVICES": f"{U0},{U1}"}, Request("NVIDIA_VISIBLE_DEVICES", (U0, U1))),
        ({"SLURM_JOB_GPUS": "2,3"}, Request("SLURM_JOB_GPUS", ("2", "3"))),
        ({"SLURM_STEP_GPUS": "1", "SLURM_JOB_GPUS": "1,2"}, Request("SLURM_STEP_GPUS", ("1",))),
    ],
)
def test_the_environment_says_which_gpus(env: dict[str, str], expected: Request) -> None:
    assert plan(env) == expected


def test_cuda_stops_at_the_first_entry_it_cannot_parse_and_so_do_we() -> None:
    request = plan({"CUDA_VISIBLE_DEVICES": "1,bogus,0"})
    assert request.tokens == ("1",)
    assert "'bogus' is not a GPU" in request.note


def test_nothing_set_means_every_gpu_of_the_node() -> None:
    resolution = resolve_gpus(plan({}), FakeNvml("hgx-h100"))
    assert len(resolution.gpus) == 8 and resolution.gpus[0] == JobGpu(U0, "0") and not resolution.problem


def test_indices_and_uuid_prefixes_are_resolved_through_nvml() -> None:
    resolution = resolve_gpus(plan({"CUDA_VISIBLE_DEVICES": "1,GPU-5e1f0000"}), FakeNvml("hgx-h100"))
    assert resolution.gpus == (JobGpu(U1, "1"), JobGpu(U0, "0"))
    assert resolution.uuids == (U1, U0) and not resolution.problem


def test_a_mig_uuid_becomes_its_parents_uuid_and_gpu_instance() -> None:
    fake = FakeNvml("h100-mig")
    resolution = resolve_gpus(plan({"CUDA_VISIBLE_DEVICES": MIG_GI2}), fake)
    assert resolution.gpus == (JobGpu(fake.devices[0].uuid, "0", "2"),)


def test_pre_r470_mig_names_need_no_nvml() -> None:
    resolution = resolve_gpus(plan({"CUDA_VISIBLE_DEVICES": f"MIG-{U0}/3/0"}), no_nvml())
    assert resolution.gpus == (JobGpu(U0, gpu_instance_id="3"),)


def test_full_uuids_need_no_nvml_at_all() -> None:
    fake = no_nvml()
    resolution = resolve_gpus(plan({"CUDA_VISIBLE_DEVICES": f"{OTHER},{U0}"}), fake)
    assert resolution.gpus == (JobGpu(OTHER), JobGpu(U0)) and not resolution.problem
    assert fake.calls["nvmlInit"] == 0


def test_without_nvml_indices_stay_unresolved_and_the_reason_is_given() -> None:
    resolution = resolve_gpus(plan({"CUDA_VISIBLE_DEVICES": f"0,{OTHER}"}), no_nvml())
    assert resolution.gpus == (JobGpu(device="0"), JobGpu(OTHER))
    assert "GPU(s) 0 from CUDA_VISIBLE_DEVICES not resolved" in resolution.problem
    assert "libnvidia-ml.so.1 not found" in resolution.problem
    assert resolution.gpus[0].labels() == (("device", "0"),)  # no made-up UUID


def test_without_nvml_every_gpu_cannot_be_listed() -> None:
    resolution = resolve_gpus(plan({}), no_nvml())
    assert resolution.gpus == () and "cannot list the node's GPUs" in resolution.problem


def test_an_index_nvml_does_not_have_is_unresolved() -> None:
    resolution = resolve_gpus(plan({"CUDA_VISIBLE_DEVICES": "0,9"}), FakeNvml("a100"))
    assert resolution.gpus[1] == JobGpu(device="9") and "NVML does not list them" in resolution.problem


def test_container_indices_are_the_hosts_and_nvml_sees_exactly_those_gpus() -> None:
    # A container started with NVIDIA_VISIBLE_DEVICES=4,5 sees two GPUs, numbered 0 and 1 by NVML.
    fake = FakeNvml("a100")
    resolution = resolve_gpus(plan({"NVIDIA_VISIBLE_DEVICES": "4,5"}), fake)
    assert [g.uuid for g in resolution.gpus] == [d.uuid for d in fake.devices] and not resolution.problem


def test_a_lost_gpu_is_left_out_and_the_others_resolve() -> None:
    fake = FakeNvml("hgx-h100")
    fake.devices[0].lost = True
    resolution = resolve_gpus(plan({}), fake)
    assert len(resolution.gpus) == 7 and U0 not in resolution.uuids


def test_explicit_gpus_override_the_environment() -> None:
    request = gpu_request([1, U0], {"CUDA_VISIBLE_DEVICES": "3"})
    assert request.tokens == ("1", U0)
    assert gpu_request("none", {"CUDA_VISIBLE_DEVICES": "3"}).tokens == ()
    assert gpu_request("0,1", {}).tokens == ("0", "1")

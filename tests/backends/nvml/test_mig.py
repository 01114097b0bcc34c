"""MIG: GPU instances enumerated past empty slots, labelled like dcgm-exporter, re-read when the layout changes."""

from __future__ import annotations

from collections.abc import Callable

from gpuscope.backends.base import ReadError
from gpuscope.backends.nvml import Timing
from gpuscope.backends.nvml.mig import profile_from_name
from gpuscope.fields.ids import FieldId
from tests.backends.nvml.support import Rig
from tests.support.net import wait_for

MIB = 1048576
FB = {250, 251, 252, 253, 254, FieldId.DCGM_FI_DEV_FB_USED_BYTES}


def test_profile_from_name() -> None:
    assert profile_from_name("NVIDIA H100 80GB HBM3 MIG 1g.10gb") == "1g.10gb"
    assert profile_from_name("NVIDIA A100-SXM4-80GB MIG 1g.10gb+me") == "1g.10gb+me"
    assert profile_from_name("NVIDIA H100 80GB HBM3") == ""


def test_instances_past_empty_slots_one_per_gpu_instance(rig: Callable[..., Rig]) -> None:
    r = rig("h100-mig")
    gpu = r.collect(FB | {203, 150}).gpus[0]
    devices = r.fake.devices[0].desc["mig"]["devices"]
    # Slots 1, 3 and 5 are empty; slot 6 is found anyway. Slots 2 and 4 are two compute instances of GPU
    # instance 2: one series set per GPU instance, named after its first compute instance.
    assert [(i.identity.gpu_instance_id, i.identity.profile, i.identity.uuid) for i in gpu.instances] == [
        (1, "3g.40gb", devices[0]["uuid"]),
        (2, "2g.20gb", devices[1]["uuid"]),
        (9, "1g.10gb", devices[3]["uuid"]),
    ]
    assert gpu.mig_enabled and not r.collect(FB).gpus[1].mig_enabled
    for inst, spec in zip(gpu.instances, (devices[0], devices[1], devices[3]), strict=True):
        mem = spec["memory"]
        free = mem["total"] - mem["reserved"] - mem["used"]
        assert inst.reading.values[250] == mem["total"] // MIB
        assert inst.reading.values[251] == free // MIB
        assert inst.reading.values[252] == mem["used"] // MIB
        assert inst.reading.values[FieldId.DCGM_FI_DEV_FB_USED_BYTES] == mem["used"]
        assert inst.reading.values[254] == mem["used"] / mem["total"]
    # GPU-level: utilization is unavailable under MIG (not even asked), the framebuffer is per instance.
    assert gpu.device.errors[203] is ReadError.NOT_SUPPORTED
    assert not FB & set(gpu.device.values) and gpu.device.values[150] == r.fake.devices[0].desc["temperature"]


def test_layout_change_event_re_enumerates(rig: Callable[..., Rig]) -> None:
    r = rig("h100-mig")
    r.collect(FB | {1002})
    r.collect(FB | {1002})
    new = [
        {
            "slot": 0,
            "gi": 7,
            "ci": 0,
            "profile": "7g.80gb",
            "uuid": "MIG-99999999-7777-4000-8000-000000000007",
            "memory": {"total": 85520809984, "reserved": 0, "used": 1048576},
            "gpm": {2: 50.0},
        }
    ]
    r.fake.set_mig_devices(0, new)  # old MIG handles go stale; a MIG-change event fires

    def relisted() -> bool:
        gpu = r.collect(FB | {1002}, dt=1.0).gpus[0]
        return [i.identity.gpu_instance_id for i in gpu.instances] == [7]

    wait_for(relisted, timeout=10, interval=0.02, what="the new MIG layout")
    gpu = r.collect(FB | {1002}).gpus[0]
    assert gpu.instances[0].identity.profile == "7g.80gb" and gpu.instances[0].reading.values[252] == 1
    assert gpu.instances[0].reading.values[1002] == 0.5


def test_layout_change_without_events_found_by_the_periodic_check(rig: Callable[..., Rig]) -> None:
    r = rig("h100-mig", timing=Timing(reprobe_s=3600.0, mig_check_s=60.0), watch_events=False)
    r.collect(FB)
    devices = r.fake.devices[0].desc["mig"]["devices"]
    r.fake.set_mig_devices(0, devices[:1])
    gpu = r.collect(FB, dt=10.0).gpus[0]
    # The stale handles fail; the layout is re-read on the next collection at the latest.
    gpu = r.collect(FB, dt=10.0).gpus[0]
    assert [i.identity.gpu_instance_id for i in gpu.instances] == [1]
    assert gpu.instances[0].reading.values[252] == devices[0]["memory"]["used"] // MIB


def test_mig_turned_off(rig: Callable[..., Rig]) -> None:
    r = rig("h100-mig", timing=Timing(reprobe_s=3600.0, mig_check_s=60.0), watch_events=False)
    r.collect(FB | {203})
    desc = r.fake.devices[0].desc
    desc["mig_mode"] = [0, 0]
    desc["utilization"] = {"gpu": 5, "memory": 2}
    gpu = r.collect(FB | {203}, dt=61.0).gpus[0]
    assert gpu.instances == () and gpu.device.values[203] == 5
    assert gpu.device.values[252] == desc["memory"]["used"] // MIB


def test_a_transient_failure_keeps_the_known_layout(rig: Callable[..., Rig]) -> None:
    r = rig("h100-mig", timing=Timing(reprobe_s=3600.0, mig_check_s=60.0), watch_events=False)
    r.collect(FB)
    r.fake.devices[0].desc["mig_mode"] = {"error": 999}  # NVML_ERROR_UNKNOWN: not "MIG is off"
    gpu = r.collect(FB, dt=61.0).gpus[0]
    assert [i.identity.gpu_instance_id for i in gpu.instances] == [1, 2, 9]
    assert all(252 in i.reading.values for i in gpu.instances)

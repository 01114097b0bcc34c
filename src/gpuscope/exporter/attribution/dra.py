"""Dynamic Resource Allocation (``--kubernetes-enable-dra``): claimed devices resolved to GPUs and MIG instances.

The kubelet's PodResources ``List`` names each device a container holds through a ResourceClaim by driver, pool
and device name; only the NVIDIA DRA driver's (``gpu.nvidia.com``) are GPUs. What such a device *is* comes from
the node's ResourceSlices, where the driver publishes, per device, the attributes ``type`` (``gpu`` or ``mig``),
``uuid`` (the GPU's ``GPU-…`` or the MIG device's ``MIG-…``), and for MIG ``parentUUID`` and ``profile``
(e.g. ``1g.10gb``). The slices are watched like the pods (one list + watch per node, ``spec.nodeName``).

Labels are dcgm-exporter's: ``dra_claim_name``, ``dra_claim_namespace``, ``dra_driver_name``, ``dra_pool_name``,
``dra_device_name``, and for MIG ``dra_mig_profile`` and ``dra_mig_device_uuid``. A MIG device is placed on its
instance when the reading has it (its ``GPU_I_ID`` joins), else on the parent GPU (a MIG device created on
demand that the reading has not seen yet); a device no slice describes yet is counted as unmatched.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gpuscope.exporter.attribution.resolve import DeviceRef, DraDevice, Workload

if TYPE_CHECKING:  # the watch itself is loaded only when DRA is on (attribution/source.py)
    from gpuscope.kube.reflector import Decoder

NVIDIA_DRIVER = "gpu.nvidia.com"
# Newest first: the API group's versions a reflector tries until one is served.
RESOURCESLICE_PATHS = (
    "/apis/resource.k8s.io/v1/resourceslices",
    "/apis/resource.k8s.io/v1beta2/resourceslices",
    "/apis/resource.k8s.io/v1beta1/resourceslices",
)


@dataclass(frozen=True, slots=True)
class PodClaim:
    """One device a container holds through a ResourceClaim, as the kubelet lists it."""

    namespace: str
    pod: str
    container: str
    claim_name: str
    claim_namespace: str
    driver: str
    pool: str
    device: str


@dataclass(frozen=True, slots=True)
class SliceDevice:
    """What a ResourceSlice says about one device of the NVIDIA driver."""

    kind: str  # "gpu" or "mig"
    uuid: str
    parent_uuid: str = ""
    profile: str = ""


# Slice devices are keyed "<pool>/<device>"; one reflector item is one slice (all its devices).
SliceDevices = Mapping[str, SliceDevice]


def _attribute(attributes: Mapping[str, Any], name: str) -> str:
    """A string attribute, by its bare name or qualified with the driver's domain."""
    for key in (name, f"{NVIDIA_DRIVER}/{name}"):
        value = attributes.get(key)
        if isinstance(value, dict):
            text = value.get("string", value.get("version"))
            if isinstance(text, str):
                return text
    return ""


def slice_decoder() -> Decoder[SliceDevices]:
    """What the ResourceSlice watch keeps of each slice: the NVIDIA driver's devices with a ``uuid``.

    Reads ``spec.devices[].attributes`` (``resource.k8s.io/v1``, ``v1beta2``) and ``spec.devices[].basic.attributes``
    (``v1beta1``).
    """

    def decode(obj: Mapping[str, Any]) -> tuple[str, SliceDevices] | None:
        metadata, spec = obj.get("metadata"), obj.get("spec")
        if not isinstance(metadata, dict) or not isinstance(spec, dict) or spec.get("driver") != NVIDIA_DRIVER:
            return None
        pool = spec.get("pool")
        pool_name = pool.get("name") if isinstance(pool, dict) else None
        name = metadata.get("name")
        if not isinstance(pool_name, str) or not isinstance(name, str):
            return None
        devices: dict[str, SliceDevice] = {}
        for device in spec.get("devices") or ():
            if not isinstance(device, dict) or not isinstance(device.get("name"), str):
                continue
            basic = device.get("basic")
            attributes = device.get("attributes", basic.get("attributes") if isinstance(basic, dict) else None)
            if not isinstance(attributes, dict):
                continue
            kind, uuid = _attribute(attributes, "type"), _attribute(attributes, "uuid")
            if kind not in ("gpu", "mig") or not uuid:
                continue
            devices[f"{pool_name}/{device['name']}"] = SliceDevice(
                kind=kind,
                uuid=uuid,
                parent_uuid=_attribute(attributes, "parentUUID"),
                profile=_attribute(attributes, "profile"),
            )
        return name, devices

    return decode


def claim_devices(claims: Sequence[PodClaim], slices: Mapping[str, SliceDevices]) -> list[DraDevice]:
    """The NVIDIA driver's claimed devices with their labels and the refs that may place them on this node."""
    known: dict[str, SliceDevice] = {}
    for devices in slices.values():
        known.update(devices)
    out: list[DraDevice] = []
    for claim in claims:
        if claim.driver != NVIDIA_DRIVER:
            continue
        labels = [
            ("dra_claim_name", claim.claim_name),
            ("dra_claim_namespace", claim.claim_namespace),
            ("dra_device_name", claim.device),
            ("dra_driver_name", claim.driver),
            ("dra_pool_name", claim.pool),
        ]
        device = known.get(f"{claim.pool}/{claim.device}")
        refs: tuple[DeviceRef, ...] = ()
        if device is not None and device.kind == "gpu":
            refs = (DeviceRef(uuid=device.uuid),)
        elif device is not None:
            labels += [("dra_mig_device_uuid", device.uuid), ("dra_mig_profile", device.profile)]
            refs = (DeviceRef(uuid=device.uuid), DeviceRef(uuid=device.parent_uuid)) if device.parent_uuid else ()
            refs = refs or (DeviceRef(uuid=device.uuid),)
        workload = Workload(claim.namespace, claim.pod, claim.container, dra=tuple(sorted(labels)))
        out.append(DraDevice(workload=workload, refs=refs, name=f"{claim.driver}/{claim.pool}/{claim.device}"))
    return out

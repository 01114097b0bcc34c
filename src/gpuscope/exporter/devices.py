"""``-d/--devices``: which GPUs and GPU instances a node serves, in dcgm-exporter's selector syntax.

``f`` (flex, the default): every GPU, and on a MIG GPU its instances. ``g``: GPUs only (MIG instances are left
out); ``g:0,2-3``: those GPU indices. ``i``: GPU instances only, which needs MIG; ``i:0,2-4``: those GPU-instance
ids. A range is ``<n>-<n>``; at most one ``:`` per selector. A GPU-level value of a MIG parent (temperature, power)
is still served with ``i``, since it describes the instances' hardware.

Combined (dcgm-exporter 4.8.3, PR #711, ``parseDeviceOptions``): ``g[:ids]+i[:ids]`` serves the selected GPUs
and the selected GPU instances; ``f`` combines with nothing, and each letter appears once.

``-s/--switch-devices`` takes the same syntax for NVSwitches (dcgm-exporter parses both with ``parseDeviceOptions``
and reads them in internal/pkg/deviceinfo ``IsSwitchWatched``/``IsLinkWatched``): ``g`` ids are switch ids and
``i`` ids are port (link) indices. ``f``: every switch and port; ``g[:ids]``: those switches and none of their
ports (an empty link range watches no link); ``g[:ids]+i[:ids]``: those switches and those ports of them; ``i``
alone watches no switch, hence nothing. GPU NVLinks follow ``-d``, not ``-s``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import StrEnum

from gpuscope.backends.base import NodeReading
from gpuscope.errors import UsageError

__all__ = ["SWITCH_FLAG", "DeviceSelection", "Selector", "parse_devices"]

_FLAG = "-d/--devices (env DCGM_EXPORTER_DEVICES_STR)"
SWITCH_FLAG = "-s/--switch-devices (env DCGM_EXPORTER_OTHER_DEVICES_STR)"
_FIX = "write f, g, g:0,1, i, i:0,2-4 or g:0+i:1"


class Selector(StrEnum):
    FLEX = "f"
    GPUS = "g"
    INSTANCES = "i"
    BOTH = "g+i"  # combined: ``ids`` are GPU indices, ``instance_ids`` GPU-instance ids


@dataclass(frozen=True, slots=True)
class DeviceSelection:
    """A parsed selector: the kind and, if given, the ids (GPU indices for ``g``, GPU-instance ids for ``i``)."""

    kind: Selector = Selector.FLEX
    ids: frozenset[int] | None = None  # None: all of that kind
    instance_ids: frozenset[int] | None = None  # BOTH only: the GPU instances (None: all)

    @property
    def everything(self) -> bool:
        return self.kind is Selector.FLEX

    def apply(self, reading: NodeReading) -> NodeReading:
        """The reading restricted to the selected devices (pure)."""
        if self.kind is Selector.FLEX:
            return reading
        gpus = []
        for gpu in reading.gpus:
            if self.kind is Selector.BOTH:
                kept = tuple(i for i in gpu.instances if _has(self.instance_ids, i.identity.gpu_instance_id))
                if kept or _has(self.ids, gpu.identity.index):
                    gpus.append(replace(gpu, instances=kept))
            elif self.kind is Selector.GPUS:
                if self.ids is None or gpu.identity.index in self.ids:
                    gpus.append(replace(gpu, instances=()))
            elif gpu.instances:
                kept = tuple(i for i in gpu.instances if self.ids is None or i.identity.gpu_instance_id in self.ids)
                if kept:
                    gpus.append(replace(gpu, instances=kept))
        return replace(reading, gpus=tuple(gpus))

    def apply_switches(self, reading: NodeReading) -> NodeReading:
        """The reading's NVSwitches and ports restricted as ``-s`` selects them (pure)."""
        if self.kind is Selector.FLEX or not reading.switches:
            return reading
        if self.kind is Selector.INSTANCES:
            return replace(reading, switches=())
        ports = self.instance_ids if self.kind is Selector.BOTH else frozenset()
        kept = tuple(
            replace(s, ports=tuple(p for p in s.ports if _has(ports, p.link)))
            for s in reading.switches
            if _has(self.ids, s.switch_id)
        )
        return replace(reading, switches=kept)

    def missing(self, reading: NodeReading) -> list[int]:
        """Ids the selector names that this node does not have (a warning, not an error: GPUs come and go)."""
        gpus = {g.identity.index for g in reading.gpus}
        instances = {i.identity.gpu_instance_id for g in reading.gpus for i in g.instances}
        if self.kind is Selector.BOTH:
            return sorted((self.ids or frozenset()) - gpus) + sorted((self.instance_ids or frozenset()) - instances)
        if self.ids is None:
            return []
        return sorted(self.ids - (gpus if self.kind is Selector.GPUS else instances))

    def check_present(self, inventory: NodeReading, text: str, flag: str = _FLAG) -> None:
        """Refuse a selector naming a GPU or GPU instance the node does not have, as dcgm-exporter refuses it at
        start (``verifyDevicePresence`` in internal/pkg/deviceinfo/device_info.go: "couldn't find requested GPU
        ID"): a typo in ``-d`` would otherwise serve fewer GPUs than asked, silently. ``inventory`` is the
        backend's reading at start; ``text`` the selector as given."""
        gpus = sorted({g.identity.index for g in inventory.gpus})
        instances = sorted({i.identity.gpu_instance_id for g in inventory.gpus for i in g.instances})
        gpu_ids = self.ids if self.kind in (Selector.GPUS, Selector.BOTH) else None
        instance_ids = self.instance_ids if self.kind is Selector.BOTH else None
        if self.kind is Selector.INSTANCES:
            instance_ids = self.ids
        absent = [f"GPU {n}" for n in sorted((gpu_ids or frozenset()) - set(gpus))]
        absent += [f"GPU instance {n}" for n in sorted((instance_ids or frozenset()) - set(instances))]
        if not absent:
            return
        have = f"GPUs {_listed(gpus)} and GPU instances {_listed(instances)}"
        raise UsageError(
            f"{flag} {text!r:.80}: {', '.join(absent[:8])}{' ...' if len(absent) > 8 else ''} not on this node, "
            f"which has {have} (dcgm-exporter exits too); name those, or f for all"
        )


def _listed(ids: list[int]) -> str:
    return ", ".join(map(str, ids)) if ids else "none"


def _has(ids: frozenset[int] | None, value: int) -> bool:
    return ids is None or value in ids


# ASCII digits only, and few of them: ``str.isdigit`` accepts "²", which int() refuses, and int() refuses
# strings of over 4,300 digits; neither may end as a traceback.
_ID = re.compile(r"[0-9]{1,9}")
_MAX_IDS = 4097  # a range of 0-4096 is the largest one accepted


def parse_devices(text: str, flag: str = _FLAG) -> DeviceSelection:
    """Parse a selector; a malformed one is a ``UsageError`` naming the flag and the fix."""
    raw = text.strip()
    if "+" in raw:
        return _combined(raw, text, flag)
    return _single(raw, text, flag)


def _combined(raw: str, text: str, flag: str) -> DeviceSelection:
    parts = [_single(part.strip(), text, flag) for part in raw.split("+")]
    kinds = [p.kind for p in parts]
    if Selector.FLEX in kinds:
        raise UsageError(f"invalid device selector {text!r:.80} for {flag}: f cannot be combined with g or i; {_FIX}")
    if len(kinds) != len(set(kinds)):
        raise UsageError(f"invalid device selector {text!r:.80} for {flag}: each of g and i at most once; {_FIX}")
    gpus = next(p for p in parts if p.kind is Selector.GPUS)
    instances = next(p for p in parts if p.kind is Selector.INSTANCES)
    return DeviceSelection(kind=Selector.BOTH, ids=gpus.ids, instance_ids=instances.ids)


def _single(raw: str, text: str, flag: str) -> DeviceSelection:
    if not raw:
        raise UsageError(f"invalid device selector {text!r:.80} for {flag}: an empty selector; {_FIX}")
    kind_text, sep, rest = raw.partition(":")
    try:
        kind = Selector(kind_text)
        if kind is Selector.BOTH:
            raise ValueError(kind_text)
    except ValueError:
        raise UsageError(
            f"invalid device selector {text!r:.80} for {flag}: {kind_text!r:.40} is not f, g or i; {_FIX}"
        ) from None
    if not sep:
        return DeviceSelection(kind=kind)
    if kind is Selector.FLEX:
        raise UsageError(f"invalid device selector {text!r:.80} for {flag}: f takes no ids; {_FIX}")
    if ":" in rest:
        raise UsageError(f"invalid device selector {text!r:.80} for {flag}: at most one ':'; {_FIX}")
    ids: set[int] = set()
    for part in rest.split(","):
        ids.update(_ids(part.strip(), text, flag))
        if len(ids) > _MAX_IDS:  # many ranges in one long flag must not build an unbounded set
            raise UsageError(f"invalid device selector {text!r:.80} for {flag}: more than {_MAX_IDS} ids; {_FIX}")
    return DeviceSelection(kind=kind, ids=frozenset(ids))


def _ids(part: str, text: str, flag: str) -> range:
    low, dash, high = part.partition("-")
    if not _ID.fullmatch(low) or (dash and not _ID.fullmatch(high)):
        raise UsageError(
            f"invalid device selector {text!r:.80} for {flag}: {part!r:.40} is not an id or a range <n>-<n>; {_FIX}"
        )
    first, last = int(low), int(high) if dash else int(low)
    if last < first:
        raise UsageError(f"invalid device selector {text!r:.80} for {flag}: range {part!r:.40} runs backwards; {_FIX}")
    if last - first >= _MAX_IDS:
        raise UsageError(f"invalid device selector {text!r:.80} for {flag}: range {part!r:.40} is too large; {_FIX}")
    return range(first, last + 1)

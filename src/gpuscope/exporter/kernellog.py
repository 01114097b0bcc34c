"""XIDs and SXids from the kernel log (``--kernel-log``): what the NVIDIA drivers log that DCGM may miss.

The GPU driver logs ``NVRM: Xid (PCI:0000:18:00): 79, pid=..., GPU has fallen off the bus.`` and the NVSwitch driver
``nvidia-nvswitch3: SXid (PCI:0000:05:00.0): 20034, Fatal, Link 12 LTSSM Fault Up``. DCGM keeps only the last XID
of a GPU (field 230) and the last SXid of a switch (856/857), and an NVSwitch in an NVL72 switch tray is not a DCGM
entity of the compute node at all; the kernel log has every event the node saw. dcgm-exporter has no kernel-log
reader (NVIDIA/dcgm-exporter 4.5.3-4.8.2, searched), so the series are gpuscope's own:

- ``gpuscope_kernel_xid_total{pci_bus_id, xid}``: XID lines per GPU (its PCI address as NVML writes it, the join
  key to the GPU series' ``pci_bus_id``) and code;
- ``gpuscope_kernel_sxid_total{nvswitch, pci_bus_id, sxid, severity}``: SXid lines per switch (``nvswitch<N>`` as
  the driver names it), code and ``fatal``/``non-fatal``;
- ``gpuscope_kernel_log_lines_dropped_total{reason}``: lines not counted (``too_long``, ``too_many_series``,
  ``overrun`` when ``/dev/kmsg`` overwrote records before they were read).

Counted from the reader's start (the file's end when it opens), as dcgm-exporter counts XIDs from its own start.
Hostile input is bounded: a line longer than ``MAX_LINE`` is dropped, at most ``MAX_SERIES`` label sets are kept,
a poll reads at most ``MAX_READ`` bytes, and only ASCII digits and hex make it into a label.

The source is ``/dev/kmsg`` (one record per read, non-blocking) or a text file that grows (a journal export such as
``journalctl -kf -o short > file``, or ``/var/log/kern.log``); a file that shrinks was rotated and is read afresh.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from gpuscope.exposition import COUNTER, family, labels, sample

MAX_LINE = 4096  # bytes: a kernel record is at most 1024 (printk), a journal line a little more
MAX_SERIES = 1024  # distinct label sets kept; more are counted as dropped
MAX_READ = 1 << 20  # bytes read per poll

# The PCI address as the drivers print it: [domain:]bus:device[.function], hex.
_PCI = r"(?P<pci>(?:[0-9A-Fa-f]{4,8}:)?[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}(?:\.[0-7])?)"
_XID = re.compile(r"NVRM: Xid \(PCI:" + _PCI + r"\): (?P<code>[0-9]{1,5})\b")
_SXID = re.compile(
    r"nvidia-nvswitch(?P<switch>[0-9]{1,3}): SXid \(PCI:"
    + _PCI
    + r"\): (?P<code>[0-9]{1,6}), (?P<sev>Fatal|Non-fatal)",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Event:
    """One XID (``switch`` None) or SXid line."""

    code: int
    pci_bus_id: str
    switch: int | None = None
    fatal: bool = False


def normalize_pci(text: str) -> str:
    """``0000:18:00`` -> ``00000000:18:00.0``: NVML's form, the one on the GPU series' ``pci_bus_id``."""
    parts = text.split(":")
    domain = parts[0] if len(parts) == 3 else "0"
    bus, rest = parts[-2], parts[-1]
    device, _, function = rest.partition(".")
    return f"{int(domain, 16):08X}:{int(bus, 16):02X}:{int(device, 16):02X}.{int(function or '0', 16)}"


def parse_line(line: str) -> Event | None:
    """The event a kernel log line reports, or ``None`` (pure; any text is safe)."""
    if "Xid" not in line and "xid" not in line.lower():
        return None
    sxid = _SXID.search(line)
    if sxid is not None:
        return Event(
            code=int(sxid["code"]),
            pci_bus_id=normalize_pci(sxid["pci"]),
            switch=int(sxid["switch"]),
            fatal=sxid["sev"].lower() == "fatal",
        )
    xid = _XID.search(line)
    if xid is not None:
        return Event(code=int(xid["code"]), pci_bus_id=normalize_pci(xid["pci"]))
    return None


Key = tuple[str, ...]  # ("xid", pci, code) or ("sxid", switch, pci, code, severity)


@dataclass(frozen=True, slots=True)
class KernelLogView:
    """What ``/metrics`` shows: counts per label set and lines dropped per reason."""

    counts: Mapping[Key, int] = field(default_factory=lambda: MappingProxyType({}))
    dropped: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))


class KernelLogCounts:
    """Bounded counters of kernel log events. Not thread-safe: the collector thread owns it."""

    def __init__(self, max_series: int = MAX_SERIES) -> None:
        self.max_series = max_series
        self.counts: dict[Key, int] = {}
        self.dropped: dict[str, int] = {}

    def drop(self, reason: str, n: int = 1) -> None:
        self.dropped[reason] = self.dropped.get(reason, 0) + n

    def feed(self, line: str) -> None:
        if len(line) > MAX_LINE:
            self.drop("too_long")
            return
        event = parse_line(line)
        if event is None:
            return
        if event.switch is None:
            key: Key = ("xid", event.pci_bus_id, str(event.code))
        else:
            severity = "fatal" if event.fatal else "non-fatal"
            key = ("sxid", f"nvswitch{event.switch}", event.pci_bus_id, str(event.code), severity)
        if key not in self.counts and len(self.counts) >= self.max_series:
            self.drop("too_many_series")
            return
        self.counts[key] = self.counts.get(key, 0) + 1

    def view(self) -> KernelLogView:
        return KernelLogView(MappingProxyType(dict(self.counts)), MappingProxyType(dict(self.dropped)))


class KernelLogReader:
    """Reads new lines of ``/dev/kmsg`` or a growing text file on each ``poll`` (never blocks)."""

    def __init__(self, path: str, counts: KernelLogCounts | None = None) -> None:
        self.path = path
        self.counts = counts or KernelLogCounts()
        self._fd: int | None = None
        self._device = False
        self._offset = 0
        self._partial = b""
        self._skipping = False  # inside a line longer than MAX_LINE
        self.error = ""

    def _open(self) -> bool:
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        except OSError as exc:
            self.error = f"cannot open {self.path}: {exc.strerror or exc}"
            return False
        mode = os.fstat(fd).st_mode
        self._device = stat.S_ISCHR(mode)
        try:
            self._offset = os.lseek(fd, 0, os.SEEK_END)  # /dev/kmsg: skip the records logged before us
        except OSError:
            self._offset = 0
        self._fd, self.error = fd, ""
        return True

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def poll(self) -> KernelLogView:
        """Count what was logged since the last poll; a missing source is retried on the next one."""
        if self._fd is None and not self._open():
            return self.counts.view()
        if self._device:
            self._poll_device()
        else:
            self._poll_file()
        return self.counts.view()

    def _poll_device(self) -> None:
        assert self._fd is not None
        budget = MAX_READ
        while budget > 0:
            try:
                record = os.read(self._fd, 8192)  # one record per read
            except BlockingIOError:
                return
            except OSError as exc:
                if exc.errno == errno.EPIPE:  # records were overwritten before we read them
                    self.counts.drop("overrun")
                    continue
                self.error = f"reading {self.path}: {exc.strerror or exc}"
                self.close()
                return
            if not record:
                return
            budget -= len(record)
            # "<prio>,<seq>,<usec>,<flags>;<message>\n" (+ continuation lines): the message is after ';'
            _, _, message = record.partition(b";")
            self.counts.feed(message.split(b"\n", 1)[0].decode("utf-8", "replace"))

    def _poll_file(self) -> None:
        assert self._fd is not None
        try:
            size = os.fstat(self._fd).st_size
            if size < self._offset:  # truncated or rotated in place: read it afresh
                self._offset, self._partial, self._skipping = 0, b"", False
            os.lseek(self._fd, self._offset, os.SEEK_SET)
            data = os.read(self._fd, MAX_READ)
        except OSError as exc:
            self.error = f"reading {self.path}: {exc.strerror or exc}"
            self.close()
            return
        self._offset += len(data)
        for line in self._lines(data):
            self.counts.feed(line)

    def _lines(self, data: bytes) -> Iterator[str]:
        chunks = data.split(b"\n")
        self._partial += chunks[0]
        for chunk in chunks[1:]:
            line, self._partial = self._partial, chunk
            if self._skipping:
                self._skipping = False
                continue
            yield line.decode("utf-8", "replace")
        if len(self._partial) > MAX_LINE:  # a runaway line: drop it whole, up to its newline
            self.counts.drop("too_long")
            self._partial, self._skipping = b"", True


def render(view: KernelLogView) -> str:
    """The kernel log families (a family with no sample yet is left out, as every family here)."""
    xid = [(k, n) for k, n in sorted(view.counts.items()) if k[0] == "xid"]
    sxid = [(k, n) for k, n in sorted(view.counts.items()) if k[0] == "sxid"]
    x_name, s_name = "gpuscope_kernel_xid_total", "gpuscope_kernel_sxid_total"
    d_name = "gpuscope_kernel_log_lines_dropped_total"
    return "".join(
        (
            family(
                x_name,
                COUNTER,
                "XID lines in the kernel log since the reader started, per GPU (PCI address) and code.",
                [sample(x_name, labels((("pci_bus_id", k[1]), ("xid", k[2]))), str(n)) for k, n in xid],
            ),
            family(
                s_name,
                COUNTER,
                "NVSwitch SXid lines in the kernel log since the reader started, per switch, code and severity.",
                [
                    sample(
                        s_name,
                        labels((("nvswitch", k[1]), ("pci_bus_id", k[2]), ("sxid", k[3]), ("severity", k[4]))),
                        str(n),
                    )
                    for k, n in sxid
                ],
            ),
            family(
                d_name,
                COUNTER,
                "Kernel log lines not counted, per reason (too_long, too_many_series, overrun).",
                [sample(d_name, labels((("reason", r),)), str(n)) for r, n in sorted(view.dropped.items())],
            ),
        )
    )

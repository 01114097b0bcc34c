"""--kernel-log: XID and NVSwitch SXid lines of the kernel log counted per GPU/switch and code, bounded, hostile-input
safe, and served through the runtime beside the GPU series."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpuscope.exporter.kernellog import MAX_LINE, Event, KernelLogCounts, KernelLogReader, parse_line
from tests.support.exporter import RuntimeFactory

# Lines as the drivers write them (the SXid form: ../shared/reference/fabric.md section 5), through /dev/kmsg's
# record prefix and a journal export's.
XID = "NVRM: Xid (PCI:0000:18:00): 79, pid=1234, name=python, GPU has fallen off the bus."
SXID = "nvidia-nvswitch3: SXid (PCI:0000:05:00.0): 20034, Fatal, Link 12 LTSSM Fault Up"
SXID_NON_FATAL = "nvidia-nvswitch0: SXid (PCI:0000:06:00.0): 19084, Non-fatal, Link 3 AN1 Heartbeat Timeout"


def test_xid_and_sxid_lines_parse_with_nvmls_pci_form() -> None:
    assert parse_line(f"Dec 07 12:00:01 node-a kernel: {XID}") == Event(code=79, pci_bus_id="00000000:18:00.0")
    assert parse_line(f"4,1234,5678901,-;{SXID}") == Event(
        code=20034, pci_bus_id="00000000:05:00.0", switch=3, fatal=True
    )
    assert parse_line(SXID_NON_FATAL) == Event(code=19084, pci_bus_id="00000000:06:00.0", switch=0, fatal=False)
    assert parse_line("NVRM: loading NVIDIA UNIX x86_64 Kernel Module  570.133.20") is None
    assert parse_line("NVRM: Xid (PCI:zz:00): 79") is None


def test_counts_are_bounded() -> None:
    counts = KernelLogCounts(max_series=2)
    for bus in (0x18, 0x2A, 0x3A):
        counts.feed(XID.replace("0000:18:00", f"0000:{bus:02x}:00"))
    counts.feed(XID)
    counts.feed(XID + " " + "x" * MAX_LINE)
    view = counts.view()
    assert view.counts == {("xid", "00000000:18:00.0", "79"): 2, ("xid", "00000000:2A:00.0", "79"): 1}
    assert view.dropped == {"too_many_series": 1, "too_long": 1}


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.text(max_size=600))
def test_any_text_is_safe(text: str) -> None:
    counts = KernelLogCounts(max_series=8)
    for line in (text, f"NVRM: Xid (PCI:0000:18:00): {text}", f"nvidia-nvswitch{text}: SXid (PCI:{text}): 1, Fatal"):
        counts.feed(line)
    for key in counts.view().counts:
        # only digits, hex and the fixed words reach a label
        assert all(re.fullmatch(r"[0-9A-Za-z:.\-]*", part) for part in key)


def test_a_growing_file_is_read_from_where_it_was_and_a_rotated_one_afresh(tmp_path: Path) -> None:
    log = tmp_path / "kern.log"
    log.write_text(f"{XID}\n")  # before the reader started: not counted
    reader = KernelLogReader(str(log))
    assert reader.poll().counts == {}
    with log.open("a") as f:
        f.write(f"{XID}\n{SXID}\npartial {SXID[:20]}")
    view = reader.poll()
    assert view.counts == {
        ("xid", "00000000:18:00.0", "79"): 1,
        ("sxid", "nvswitch3", "00000000:05:00.0", "20034", "fatal"): 1,
    }
    log.write_text(f"{SXID_NON_FATAL}\n")  # rotated in place: shorter than what was read
    assert reader.poll().counts[("sxid", "nvswitch0", "00000000:06:00.0", "19084", "non-fatal")] == 1
    runaway = tmp_path / "runaway.log"
    runaway.write_text("")
    r2 = KernelLogReader(str(runaway))
    r2.poll()
    runaway.write_text("y" * (3 * MAX_LINE) + f" {XID}\n{XID}\n")
    assert r2.poll().counts == {("xid", "00000000:18:00.0", "79"): 1}
    assert r2.counts.dropped == {"too_long": 1}


def test_a_missing_source_is_retried_and_the_gpu_series_stay(tmp_path: Path, make: RuntimeFactory) -> None:
    log = tmp_path / "kern.log"
    runtime, _, clock = make(gpus=1, kernel_log=str(log))
    runtime.collect()  # the file is not there yet
    log.write_text("")
    runtime.collect()
    with log.open("a") as f:
        f.write(f"{XID}\n{XID}\n{SXID}\n")
    clock.t += 15
    runtime.collect()
    body = runtime.body(clock.t, gzip=False).decode()
    assert 'gpuscope_kernel_xid_total{pci_bus_id="00000000:18:00.0",xid="79"} 2' in body
    assert (
        'gpuscope_kernel_sxid_total{nvswitch="nvswitch3",pci_bus_id="00000000:05:00.0",sxid="20034",'
        'severity="fatal"} 1' in body
    )
    assert "# TYPE gpuscope_kernel_xid_total counter" in body
    assert re.search(r"^DCGM_FI_DEV_GPU_TEMP\{", body, re.M)


def test_off_by_default(make: RuntimeFactory) -> None:
    runtime, _, clock = make(gpus=1)
    runtime.collect()
    assert "gpuscope_kernel_" not in runtime.body(clock.t, gzip=False).decode()


def test_dev_kmsg_is_read_as_records_from_the_reader_start() -> None:
    reader = KernelLogReader("/dev/kmsg")
    view = reader.poll()
    if reader.error:
        pytest.skip(f"/dev/kmsg is not readable here: {reader.error}")
    assert reader.error == "" and view.counts == {}  # what the kernel logged before the reader started is skipped
    reader.poll()  # no record waiting: a non-blocking read, not a hang
    reader.close()

"""dcgm-exporter 4.10.0's names: its shipped collectors rename the PROF PCIe/NVLink byte rates *_BYTES_PER_SECOND;
a custom CSV that keeps the old names is served under them."""

from __future__ import annotations

from gpuscope.fields.catalog import RENAMED_IN_4_9, RENAMED_IN_4_10, Dialect, resolve
from gpuscope.fields.collectors import load_collectors, parse_collectors


def test_the_built_in_collectors_use_the_new_names_in_4_10_only() -> None:
    names_4_10 = {m.name for m in load_collectors(None, Dialect.DCGM_4_10).metrics}
    names_4_9 = {m.name for m in load_collectors(None, Dialect.DCGM_4_9).metrics}
    assert {"DCGM_FI_PROF_PCIE_TX_BYTES_PER_SECOND", "DCGM_FI_PROF_PCIE_RX_BYTES_PER_SECOND"} <= names_4_10
    assert not {"DCGM_FI_PROF_PCIE_TX_BYTES", "DCGM_FI_PROF_PCIE_RX_BYTES"} & names_4_10
    assert {"DCGM_FI_PROF_PCIE_TX_BYTES", "DCGM_FI_PROF_PCIE_RX_BYTES"} <= names_4_9
    # 4.10 keeps 4.9's renames.
    assert names_4_10 - {RENAMED_IN_4_10.get(n, n) for n in names_4_9} == set()


def test_old_and_new_names_read_the_same_field_and_are_served_as_written() -> None:
    csv = "DCGM_FI_PROF_NVLINK_TX_BYTES, gauge, old\nDCGM_FI_PROF_NVLINK_RX_BYTES_PER_SECOND, gauge, new\n"
    metrics = parse_collectors(csv, "custom.csv", Dialect.DCGM_4_10).metrics
    assert [m.name for m in metrics] == ["DCGM_FI_PROF_NVLINK_TX_BYTES", "DCGM_FI_PROF_NVLINK_RX_BYTES_PER_SECOND"]
    for old, new in RENAMED_IN_4_10.items():
        assert resolve(new, Dialect.DCGM_4_10).field is resolve(old, Dialect.DCGM_4_10).field  # type: ignore[union-attr]
        assert resolve(new, Dialect.DCGM_4_9) is None  # names 4.9 did not know


def test_4_10_applies_the_4_9_renames() -> None:
    for classic, renamed in RENAMED_IN_4_9.items():
        assert resolve(classic, Dialect.DCGM_4_10).emitted_name == renamed  # type: ignore[union-attr]

from __future__ import annotations

from pathlib import Path

import pytest

from gpuscope.errors import SpecError, UsageError
from gpuscope.fields.catalog import Dialect, MetricType
from gpuscope.fields.collectors import CollectorSet, load_collectors, parse_collectors


def parse(text: str, dialect: Dialect = Dialect.CLASSIC) -> CollectorSet:
    return parse_collectors(text, "fields.csv", dialect)


def error_of(text: str) -> str:
    with pytest.raises(SpecError) as info:
        parse(text)
    return str(info.value)


def test_comments_blank_lines_and_trimmed_columns() -> None:
    text = (
        "# header\n\n  \nDCGM_FI_DEV_GPU_TEMP ,  gauge ,  GPU temperature (in C).\n# DCGM_FI_DEV_SM_CLOCK, gauge, x\n"
    )
    result = parse(text)
    assert [(m.name, m.type, m.help, m.line) for m in result.metrics] == [
        ("DCGM_FI_DEV_GPU_TEMP", MetricType.GAUGE, "GPU temperature (in C).", 4)
    ]


def test_quoted_help_may_contain_commas_and_newlines_and_lines_stay_true() -> None:
    text = 'DCGM_FI_DEV_GPU_TEMP, gauge, "temperature, in C"\nDCGM_FI_DEV_SM_CLOCK, gauge, "two\nlines"\nbad row\n'
    assert error_of(text).startswith("fields.csv:4: expected 3 columns")
    good = parse(text.replace("bad row\n", ""))
    assert good.metrics[0].help == "temperature, in C"
    assert good.metrics[1].help == "two\nlines"


def test_label_rows_become_labels() -> None:
    result = parse("DCGM_FI_DEV_GPU_TEMP, gauge, t\nDCGM_FI_DRIVER_VERSION, label, Driver Version\n")
    assert [m.name for m in result.labels] == ["DCGM_FI_DRIVER_VERSION"]
    assert [m.name for m in result.metrics] == ["DCGM_FI_DEV_GPU_TEMP"]


def test_wrong_column_count_names_the_line_and_the_fix() -> None:
    message = error_of("DCGM_FI_DEV_GPU_TEMP, gauge, ok\n\n# c\nDCGM_FI_DEV_SM_CLOCK, gauge, SM clock, in MHz\n")
    assert message.startswith("fields.csv:4: expected 3 columns")
    assert "got 4" in message and "quote" in message
    assert "fields.csv:1: expected 3 columns" in error_of("DCGM_FI_DEV_GPU_TEMP, gauge\n")


def test_unknown_field_suggests_the_closest_name() -> None:
    assert error_of("DCGM_FI_DEV_GPU_TEMP, gauge, x\nDCGM_FI_DEV_GPU_TMEP, gauge, x\n") == (
        "fields.csv:2: unknown field 'DCGM_FI_DEV_GPU_TMEP' (did you mean 'DCGM_FI_DEV_GPU_TEMP'?)"
    )


def test_unknown_type_lists_the_allowed_ones() -> None:
    message = error_of("DCGM_FI_DEV_GPU_TEMP, gaugee, x\n")
    assert message.startswith("fields.csv:1: unknown Prometheus type 'gaugee'")
    assert "gauge, counter, histogram, summary, label" in message


def test_empty_files_are_refused() -> None:
    assert "no metric rows" in error_of("# only a comment\n")
    assert "no metric rows" in error_of("DCGM_FI_DRIVER_VERSION, label, d\n")


def test_exporter_fields_cannot_be_labels() -> None:
    assert "cannot be a label" in error_of("DCGM_EXP_XID_ERRORS_COUNT, label, x\n")


def test_unterminated_quote_is_a_located_error() -> None:
    assert error_of('DCGM_FI_DEV_GPU_TEMP, gauge, "oops\n').startswith("fields.csv:")


def test_4_9_dialect_renames_units_help_and_type() -> None:
    result = parse(
        "DCGM_FI_DEV_SM_CLOCK, gauge, SM clock frequency (in MHz).\n"
        "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL, counter, old help\n"
        "DCGM_FI_DRIVER_VERSION, label, Driver Version\n",
        Dialect.DCGM_4_9,
    )
    clock, nvlink = result.metrics
    assert (clock.name, clock.field.unit, clock.help) == (
        "DCGM_FI_DEV_SM_CLOCK_HERTZ",
        "Hz",
        "SM clock frequency (in Hz).",
    )
    assert (nvlink.name, nvlink.type) == ("DCGM_FI_DEV_NVLINK_THROUGHPUT_TOTAL", MetricType.GAUGE)
    assert result.labels[0].name == "DCGM_FI_SYSTEM_DRIVER_VERSION"


def test_legacy_1x_names_keep_their_spelling() -> None:
    result = parse("dcgm_gpu_temp, gauge, GPU temperature\n", Dialect.DCGM_4_9)
    assert result.metrics[0].name == "dcgm_gpu_temp"
    assert result.metrics[0].field.field_id == 150


def test_load_reports_missing_and_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"does not exist .*-f/--collectors"):
        load_collectors(str(tmp_path / "missing.csv"))
    directory = tmp_path / "dir.csv"
    directory.mkdir()
    with pytest.raises(UsageError, match="cannot read collectors file"):
        load_collectors(str(directory))
    binary = tmp_path / "bin.csv"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(UsageError, match="cannot read collectors file"):
        load_collectors(str(binary))


def test_field_ids_cover_labels_and_metrics() -> None:
    result = parse("DCGM_FI_DEV_GPU_TEMP, gauge, t\nDCGM_FI_DRIVER_VERSION, label, d\n")
    assert result.field_ids() == {150, 1}

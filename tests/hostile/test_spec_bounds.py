"""Items 3, 5 and 13 of the hostile-input audit: YAML bombs, unbounded numbers, lax booleans, device files and
byte-order marks, each one located line and never a traceback, a hang or unbounded memory."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gpuscope.errors import SpecError, UsageError
from gpuscope.fields.collectors import load_collectors
from gpuscope.flagnames import flag_names
from gpuscope.httpd.webconfig import load_web_config
from gpuscope.inputs import MAX_NODES, compose, read_text
from gpuscope.spec.load import load_fleet, parse_fleet
from tests.support.cli import assert_one_line_error, gpuscope
from tests.support.specs import fleet


def bomb(levels: int = 9) -> str:
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"a{i}: &a{i} [{','.join([f'*a{i - 1}'] * 9)}]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


def group(body: str, extra: str = "") -> str:
    return fleet(f"  - name: a\n    node_groups:\n      - {body}\n", extra)


def test_a_billion_laughs_document_is_refused_where_the_budget_runs_out(tmp_path: Path) -> None:
    text = bomb()
    assert len(text.encode()) < 450  # a few hundred bytes that expand to 9**9 strings
    with pytest.raises(SpecError, match=rf"^fleet\.yaml:6:\d+: the document expands to more than {MAX_NODES} nodes"):
        parse_fleet(text, "fleet.yaml", tmp_path)
    web = tmp_path / "web.yml"
    web.write_text(bomb())
    with pytest.raises(SpecError, match=r"web\.yml:6:\d+: the document expands"):
        load_web_config(str(web))


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        ("a: " + "[" * 200 + "]" * 200, "1:67", "nested more than 64 levels deep"),
        ("a: " + "{b: " * 200 + "}" * 200, "1:", "nested more than 64 levels deep"),
        ("base: &b {x: 1}\nname: {<<: *b}\n", "2:8", "merge keys (<<) are not supported"),
        ("? [a, b]\n: 1\n", "1:3", "complex key"),
        ("a: &x [*x]\n", "1:8", "alias *x refers to a node that contains it"),
        ("name: !!python/object:os.system x\n", "1:7", "YAML tag !!python/object:os.system is not supported"),
        ("name: x\x00\n", "1:8", "control character"),
        ("name: 2026-13-45\n", "1:7", "month must be in 1..12"),
        ("name: " + "9" * 5000 + "\n", "1:7", "cannot read"),
        ("2026-01-01: x\n", "1:1", "must be a name, not a date"),
    ],
)
def test_hostile_yaml_is_one_located_error(tmp_path: Path, text: str, where: str, message: str) -> None:
    with pytest.raises(SpecError) as caught:
        parse_fleet(text, "fleet.yaml", tmp_path)
    assert str(caught.value).startswith(f"fleet.yaml:{where}"), caught.value
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_json_nested_beyond_the_depth_is_refused_as_yaml_is() -> None:
    # JSON is YAML: a spec written as JSON meets the same depth limit instead of a RecursionError.
    with pytest.raises(SpecError, match="nested more than 64 levels"):
        compose('{"a": ' + "[" * 5000 + "]" * 5000 + "}", "fleet.json")


@pytest.mark.parametrize(
    ("body", "extra", "message"),
    [
        ("{name: h, gpu_model: h100, nodes: true}", "", "nodes: Input should be a valid integer (got True)"),
        ("{name: h, gpu_model: h100, nodes: 2.5}", "", "nodes: Input should be a valid integer (got 2.5)"),
        ("{name: h, gpu_model: h100, nodes: 1000000000000}", "", "less than or equal to 50000"),
        ("{name: h, gpu_model: h100, nodes: 2, gpus_per_node: 64}", "", "less than or equal to 16"),
        ("{name: h, gpu_model: h100, nodes: 2}", "scrape_interval: 99999999999999999999y", "between 1ms and 100y"),
        ("{name: h, gpu_model: h100, nodes: 2}", "evaluation_interval: 0s", "between 1ms and 100y"),
        ("{name: h, gpu_model: h100, nodes: 2}", "retention: {warm: 5m1h}", "not a Prometheus duration"),
        ("{name: h, gpu_model: h100, nodes: 2}", "speedup: true", "valid integer (got True)"),
        ("{name: h, gpu_model: h100, nodes: 2}", "budget: {remote_write_bytes_per_sample: .nan}", "finite number"),
        ("{name: h, gpu_model: h100, nodes: 2}", "thresholds: {thermal_temperature_celsius: true}", "valid integer"),
    ],
)
def test_numbers_are_bounded_and_booleans_are_not_numbers(tmp_path: Path, body: str, extra: str, message: str) -> None:
    with pytest.raises(SpecError, match=r"^fleet\.yaml:\d+:\d+: ") as caught:
        parse_fleet(group(body, extra), "fleet.yaml", tmp_path)
    assert message in str(caught.value)


def test_the_whole_fleet_is_bounded_too(tmp_path: Path) -> None:
    groups = "".join(f"      - {{name: g{i}, gpu_model: a100, nodes: 50000}}\n" for i in range(5))
    with pytest.raises(SpecError, match="the fleet has 250000 nodes, more than the 200000"):
        parse_fleet(fleet(f"  - name: a\n    node_groups:\n{groups}"), "fleet.yaml", tmp_path)


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_device_files_are_refused_as_every_kind_of_input(device: str, tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=f"{device}.*not a regular file"):
        load_fleet(device)
    with pytest.raises(UsageError, match=f"{device}.*not a regular file"):
        load_collectors(device)
    with pytest.raises(UsageError, match=f"{device}.*not a regular file.*web_config_file") as err:
        load_web_config(device)
    assert err.value.worded(flag_names("exporter")).endswith("(--web-config-file)")
    web = tmp_path / "web.yml"
    web.write_text(f"tls_server_config:\n  cert_file: {device}\n  key_file: {device}\n")
    with pytest.raises(UsageError, match=f"cert_file: .*{device}.*not a regular file"):
        load_web_config(str(web))


def test_a_fifo_does_not_block_and_a_big_file_is_refused_by_size(tmp_path: Path) -> None:
    fifo = tmp_path / "fleet.yaml"
    os.mkfifo(fifo)
    with pytest.raises(UsageError, match="not a regular file"):
        read_text(str(fifo), "fleet spec")  # no writer: a plain open() would wait forever
    big = tmp_path / "big.csv"
    with big.open("wb") as f:
        f.truncate(5 * 1024 * 1024)  # sparse: costs no disk
    with pytest.raises(UsageError, match=r"big\.csv.*5242880 bytes, more than the 4 MiB allowed"):
        load_collectors(str(big))


def test_the_cli_reports_a_device_file_as_one_line() -> None:
    assert_one_line_error(gpuscope("generate", "/dev/zero", "-o", "/nonexistent/out"), "/dev/zero", "regular file")


def test_a_byte_order_mark_is_not_part_of_the_first_field(tmp_path: Path) -> None:
    csv = tmp_path / "counters.csv"
    csv.write_bytes(
        b"\xef\xbb\xbfDCGM_FI_DEV_GPU_TEMP, gauge, temperature\r\nDCGM_FI_DEV_POWER_USAGE, gauge, power\r\n"
    )
    collectors = load_collectors(str(csv))
    assert [m.name for m in collectors.metrics] == ["DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_POWER_USAGE"]
    spec = tmp_path / "fleet.yaml"
    spec.write_bytes(b"\xef\xbb\xbf" + group("{name: h, gpu_model: h100, nodes: 2}").encode())
    assert load_fleet(str(spec)).spec.name == "test-fleet"


def test_text_that_is_not_utf8_names_the_line(tmp_path: Path) -> None:
    spec = tmp_path / "fleet.yaml"
    spec.write_bytes(b"name: a\nregion: caf\xe9\n")
    with pytest.raises(UsageError, match=r"fleet\.yaml': line 2 is not UTF-8 text"):
        load_fleet(str(spec))


def test_exporter_numbers_are_bounded_on_the_command_line() -> None:
    assert_one_line_error(gpuscope("exporter", "-c", "99999999999999999999999"), "--collect-interval", "3600000")
    assert_one_line_error(gpuscope("sim", "-c", "99999999999999999999999"), "--collect-interval", "3600000")
    assert_one_line_error(gpuscope("exporter", "-x", "99999999999999999999"), "--xid-count-window-size")

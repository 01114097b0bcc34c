"""Property tests: random and hostile text given to the collectors CSV parser, the fleet-spec loader, the
web-config loader and the flag and request parsers (``-d`` device selectors, ``-m`` ConfigMap references, the
report's times and prices, the console's time ranges) either parses or raises one of our error types, one line
each; never another exception, a hang (pytest-timeout) or a blow-up (the YAML budget; the bombs are among the
generated inputs).

Deterministic for CI: ``derandomize`` picks the same examples every run and no example database is kept.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpuscope.cli.report import parse_costs, parse_time
from gpuscope.console.timerange import parse_duration_ms, parse_range
from gpuscope.errors import UsageError
from gpuscope.exporter.configmap import parse_configmap_ref
from gpuscope.exporter.devices import parse_devices
from gpuscope.fields.collectors import parse_collectors
from gpuscope.httpd.webconfig import load_web_config
from gpuscope.spec.load import parse_fleet
from tests.support.specs import ONE, fleet

pytestmark = pytest.mark.timeout(120)

FUZZ = settings(
    max_examples=500,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# Pieces of YAML that change what a document means: anchors and aliases, merge and complex keys, tags, flow
# collections, quotes, block scalars, documents, directives, control characters, a byte-order mark.
YAML_TOKENS = st.sampled_from(
    [
        "&a ", "*a", "&b [*a, *a, *a]", "<<: ", "? ", ": ", "- ", "!!python/object ", "!!binary ", "!!int ",
        "!foo ", "{", "}", "[", "]", ",", '"', "'", "\\", "|", ">", "#", "---\n", "...\n", "%YAML 1.1\n", "\n",
        "  ", "\t", "\x00", "\x85", "\ufeff", "2026-13-45", "1e999", "0x", "~", "true", "nodes", "name",
        "clusters", "node_groups", "gpu_model", "h100", "9" * 30,
    ]
)  # fmt: skip
CSV_TOKENS = st.sampled_from(
    [
        "DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_SM_CLOCK", "DCGM_FI_DEV_POWER_USAGE", "gauge", "counter", "label",
        ",", ", ", '"', '""', "#", "\n", "\r\n", "\r", "\ufeff", "\x00", " ", "help, with comma", "DCGM_FI_",
    ]
)  # fmt: skip


def _bomb(levels: int) -> str:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


def _yaml_documents() -> st.SearchStrategy[str]:
    scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=20))
    data = st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
        max_leaves=30,
    )
    valid = fleet(ONE)
    return st.one_of(
        st.text(max_size=300),
        st.lists(YAML_TOKENS, max_size=60).map("".join),
        data.map(lambda d: yaml.safe_dump(d, default_flow_style=None)),
        st.builds(lambda n: _bomb(n), st.integers(1, 12)),
        # the valid spec with a few tokens spliced in at one place: hostile input that is nearly right
        st.tuples(st.integers(0, len(valid)), st.lists(YAML_TOKENS, max_size=6).map("".join)).map(
            lambda cut: valid[: cut[0]] + cut[1] + valid[cut[0] :]
        ),
    )


def _assert_one_line(exc: UsageError) -> None:
    assert str(exc) and "\n" not in str(exc), repr(str(exc))
    assert len(str(exc)) < 2000, "a long input is not echoed whole"


@FUZZ
@given(st.one_of(st.text(max_size=300), st.lists(CSV_TOKENS, max_size=40).map("".join)))
def test_the_collectors_parser_never_raises_anything_else(text: str) -> None:
    try:
        parse_collectors(text, "fuzz.csv")
    except UsageError as exc:
        _assert_one_line(exc)


@FUZZ
@given(_yaml_documents())
def test_the_spec_loader_never_raises_anything_else(text: str) -> None:
    try:
        parse_fleet(text, "fuzz.yaml", Path("/nonexistent"))
    except UsageError as exc:
        _assert_one_line(exc)


_WEB_KEYS = st.sampled_from(
    [
        "tls_server_config", "basic_auth_users", "http_server_config", "rate_limit", "auth_excluded_paths",
        "cert_file", "key_file", "client_ca_file", "client_auth_type", "min_version", "headers", "interval",
        "burst", "http2", "/dev/zero", "/nonexistent", "$2b$10$" + "a" * 53, "RequireAndVerifyClientCert",
        "X-Frame-Options", "TLS13", "10s", "-1",
    ]
)  # fmt: skip


@FUZZ
@given(
    st.one_of(
        _yaml_documents(),
        st.lists(st.one_of(_WEB_KEYS, YAML_TOKENS), max_size=40).map("".join),
        st.dictionaries(_WEB_KEYS, st.one_of(_WEB_KEYS, st.dictionaries(_WEB_KEYS, _WEB_KEYS, max_size=3))).map(
            lambda d: yaml.safe_dump(d)
        ),
    )
)
def test_the_web_config_loader_never_raises_anything_else(text: str) -> None:
    with tempfile.TemporaryDirectory(prefix="gpuscope-fuzz-") as tmp:
        path = Path(tmp) / "web.yml"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        try:
            load_web_config(str(path))
        except UsageError as exc:
            _assert_one_line(exc)


SELECTOR_TOKENS = st.sampled_from(
    ["f", "g", "i", ":", ",", "-", "0", "7", "4096", "9" * 12, "9" * 5000, "\u00b2", "\u0663", " ", "\x00", "\n"]
)  # digits Python's int() refuses (superscripts, over 4,300 of them) as well as ones it takes (Arabic-Indic)


@FUZZ
@given(st.one_of(st.text(max_size=200), st.lists(SELECTOR_TOKENS, max_size=40).map("".join)))
def test_the_device_selector_never_raises_anything_else(text: str) -> None:
    try:
        selection = parse_devices(text)
    except UsageError as exc:
        _assert_one_line(exc)
    else:
        assert selection.ids is None or len(selection.ids) <= 4097


@FUZZ
@given(
    st.one_of(
        st.text(max_size=300),
        st.lists(st.sampled_from(["gpu-operator", ":", "none", "a", "-", ".", "A"]), max_size=30).map("".join),
    )
)
def test_the_configmap_reference_never_raises_anything_else(text: str) -> None:
    try:
        parse_configmap_ref(text)
    except UsageError as exc:
        _assert_one_line(exc)


TIME_TOKENS = st.sampled_from(
    ["now", "-", "7", "d", "h", "9" * 5000, "1e999", "nan", "inf", "2026-11-01", "T12:00", "Z", "+05:00", "\u00b2", "="]
)


@FUZZ
@given(st.one_of(st.text(max_size=100), st.lists(TIME_TOKENS, max_size=12).map("".join)))
def test_report_times_and_prices_never_raise_anything_else(text: str) -> None:
    try:
        parse_time(text, "--from", 1.7e9)
    except UsageError as exc:
        _assert_one_line(exc)
    try:
        parse_costs([text, f"NVIDIA H100 80GB HBM3={text}"])
    except UsageError as exc:
        _assert_one_line(exc)


@FUZZ
@given(st.one_of(st.text(max_size=100), st.lists(TIME_TOKENS, max_size=12).map("".join)))
def test_console_time_ranges_never_raise_anything_else(text: str) -> None:
    for run in (lambda: parse_range(text, "now", 1_700_000_000_000), lambda: parse_duration_ms(text)):
        try:
            run()
        except UsageError as exc:
            _assert_one_line(exc)

"""``gpuscope.exposition``, the one writer of the text format: the bytes every body is made of, pinned.

Byte compatibility with dcgm-exporter is tested here once (escaping, headers, number formats); the exporter's own
tests check what its families contain. prometheus_client's parser, the reference reader, reads the pieces back.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from gpuscope import exposition as x

SRC = Path(__file__).resolve().parents[1] / "src" / "gpuscope"


@pytest.mark.parametrize(
    ("raw", "escaped"),
    [
        ("plain", "plain"),
        ("back\\slash", "back\\\\slash"),
        ('say "hi"', 'say \\"hi\\"'),
        ("two\nlines", "two\\nlines"),
        ('\\"\n', '\\\\\\"\\n'),  # the backslash first: an escaped quote is not escaped again
        ("\\n", "\\\\n"),  # a literal backslash-n stays two characters
        ("tab\there\r", "tab\there\r"),  # the text format escapes nothing else
        ("GPU ü 世界", "GPU ü 世界"),
        ("", ""),
    ],
)
def test_label_values_escape_backslash_quote_and_newline_only(raw: str, escaped: str) -> None:
    assert x.escape(raw) == escaped
    line = x.sample("m", x.label("v", raw), "1")
    assert line == f'm{{v="{escaped}"}} 1\n'
    (fam,) = text_string_to_metric_families(line)
    assert fam.samples[0].labels == {"v": raw}  # the reference parser reads back the value itself


def test_label_text_and_samples() -> None:
    pairs = (("b", "2"), ("a", 'x"y'))
    assert x.labels(pairs) == 'b="2",a="x\\"y"'  # in the order given, never sorted here
    assert x.label_suffix(pairs) == ',b="2",a="x\\"y"'
    assert x.labels(()) == "" and x.label_suffix(()) == ""
    assert x.sample("up", "", "1") == "up 1\n"  # no braces without labels
    assert x.sample("up", 'job="a"', "0") == 'up{job="a"} 0\n'


def test_a_family_is_its_header_then_its_samples_in_order_and_nothing_when_empty() -> None:
    lines = [x.sample("m", 'i="2"', "2"), x.sample("m", 'i="1"', "1")]
    assert x.family("m", x.GAUGE, "Help text, as given: no \\ escape.", lines) == (
        '# HELP m Help text, as given: no \\ escape.\n# TYPE m gauge\nm{i="2"} 2\nm{i="1"} 1\n'
    )
    assert x.family("m", x.COUNTER, "h", []) == ""
    assert x.family("m", x.COUNTER, "h", iter([])) == ""
    assert x.family("m", x.COUNTER, "h", (s for s in lines)).startswith("# HELP m h\n# TYPE m counter\n")
    assert x.header("m", "counter", "h") == "# HELP m h\n# TYPE m counter\n"


def test_families_keep_first_seen_order_and_one_header_each() -> None:
    out = x.Families()
    for pod in ("p1", "p2"):  # walked by object, as the simulated cAdvisor walks pods
        out.add("b_total", x.COUNTER, "B.", x.label("pod", pod), "1")
        out.add("a", x.GAUGE, "A.", x.label("pod", pod), "2")
    assert out.text() == (
        "# HELP b_total B.\n# TYPE b_total counter\n"
        'b_total{pod="p1"} 1\nb_total{pod="p2"} 1\n'
        "# HELP a A.\n# TYPE a gauge\n"
        'a{pod="p1"} 2\na{pod="p2"} 2\n'
    )
    assert x.Families().text() == ""
    names = [f.name for f in text_string_to_metric_families(out.text())]
    assert names == ["b", "a"]  # the parser drops _total from counter family names


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0, "0"),
        (True, "1"),
        (-3, "-3"),
        (2**63, "9223372036854775808"),
        (10**20, "100000000000000000000"),
        (7.9, "7"),  # %d of a double truncates toward zero
        (-7.9, "-7"),
        (-0.0, "0"),
        (math.nan, "NaN"),
        (math.inf, "+Inf"),
        (-math.inf, "-Inf"),
    ],
)
def test_integer(value: float, text: str) -> None:
    assert x.integer(value) == text


@pytest.mark.parametrize(
    ("value", "digits", "text"),
    [
        (1.5, 6, "1.500000"),  # dcgm-exporter's %f for doubles
        (0, 6, "0.000000"),
        (-0.0, 6, "-0.000000"),  # Go's %f keeps the sign of zero too
        (1e20, 6, "100000000000000000000.000000"),
        (1e-7, 6, "0.000000"),
        (1_800_000_000.12345, 3, "1800000000.123"),  # timestamps: milliseconds
        (0.005, 2, "0.01"),
        (2.675, 2, "2.67"),  # binary rounding, as Go's strconv rounds it
        (math.nan, 3, "NaN"),
        (math.inf, 6, "+Inf"),
        (-math.inf, 6, "-Inf"),
    ],
)
def test_fixed(value: float, digits: int, text: str) -> None:
    assert x.fixed(value, digits) == text


@pytest.mark.parametrize(
    ("value", "digits", "text"),
    [
        (15.0, 6, "15"),
        (0.5, 6, "0.5"),
        (-0.0, 6, "-0"),
        (1e16, 6, "1e+16"),
        (123456789.0, 6, "1.23457e+08"),
        (123456789.0, 10, "123456789"),
        (1099511627776, 10, "1.099511628e+12"),
        (1e-5, 6, "1e-05"),
        (math.nan, 10, "NaN"),
        (math.inf, 6, "+Inf"),
    ],
)
def test_general(value: float, digits: int, text: str) -> None:
    assert x.general(value, digits) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1, "1.0"),
        (0.1, "0.1"),
        (-0.0, "-0.0"),
        (1700000000.5, "1700000000.5"),
        (10**20, "1e+20"),
        (1e22, "1e+22"),
        (1e-7, "1e-07"),
        (2**53 + 1, "9007199254740992.0"),  # a double's precision, not the integer's
        (math.nan, "NaN"),
        (math.inf, "+Inf"),
        (-math.inf, "-Inf"),
    ],
)
def test_shortest(value: float, text: str) -> None:
    assert x.shortest(value) == text
    assert text == "NaN" or float(text) == float(value)


def test_every_number_format_reads_back_with_the_reference_parser() -> None:
    values = (0.0, -0.0, 1.5, 1e22, math.nan, math.inf, -math.inf)
    body = x.family(
        "m",
        x.GAUGE,
        "h",
        [
            x.sample("m", x.labels((("f", fmt.__name__), ("i", str(i)))), fmt(v))
            for i, v in enumerate(values)
            for fmt in (x.fixed, x.general, x.shortest)
        ],
    )
    (fam,) = text_string_to_metric_families(body)
    for s in fam.samples:
        want = values[int(s.labels["i"])]
        assert (math.isnan(s.value) and math.isnan(want)) or s.value == pytest.approx(want, rel=1e-6)


def test_no_other_module_writes_exposition_headers() -> None:
    """One writer: a ``# HELP``/``# TYPE`` line written anywhere else is a second one (with its own escaping)."""
    offenders = [
        str(path.relative_to(SRC))
        for path in sorted(SRC.rglob("*.py"))
        if path.name != "exposition.py" or path.parent != SRC
        if re.search(r"[\"'](# (HELP|TYPE) )", path.read_text(encoding="utf-8"))
    ]
    assert offenders == []


def test_encode_replaces_only_what_utf8_cannot_carry() -> None:
    assert x.encode('a{pod="é"} 1\n') == 'a{pod="é"} 1\n'.encode()
    # A lone surrogate (JSON's "\ud800", a file name's undecodable byte): that character alone becomes U+FFFD.
    assert x.encode('a{pod="x\ud800y\udcff"} 1\n') == 'a{pod="x\ufffdy\ufffd"} 1\n'.encode()

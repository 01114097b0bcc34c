"""gpuscope.durations: each grammar on its own, by example and by property (hypothesis): what it reads back from
what it writes, what it refuses, and that any text at all is a number or one ``ValueError``, never another error."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gpuscope.durations import (
    GRAFANA_UNITS_MS,
    MAX_GO_SECONDS,
    dhms_seconds,
    go_seconds,
    go_text,
    grafana_ms,
    grafana_relative_ms,
    grafana_text,
    prometheus_seconds,
    prometheus_text,
)

LONG = "9" * 70 + "s"
PROM_UNITS = (("y", 31_536_000), ("w", 604_800), ("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1), ("ms", 0.001))


@st.composite
def prometheus_durations(draw: st.DrawFn) -> tuple[str, float]:
    """A Prometheus duration as model.ParseDuration takes it, with its seconds: some units, in order, each once."""
    chosen = draw(st.lists(st.sampled_from(range(len(PROM_UNITS))), min_size=1, max_size=7, unique=True))
    text, total = "", 0.0
    for index in sorted(chosen):
        unit, size = PROM_UNITS[index]
        n = draw(st.integers(0, 99))  # 99 of every unit stays under the 292-year cap
        text += f"{n}{unit}"
        total += n * size
    return text, total


@given(prometheus_durations())
def test_prometheus_reads_every_duration_of_its_grammar(case: tuple[str, float]) -> None:
    text, total = case
    assert prometheus_seconds(text) == pytest.approx(total)


@given(st.integers(0, 10**12))
def test_prometheus_reads_back_what_it_writes(ms: int) -> None:
    assert round(prometheus_seconds(prometheus_text(ms / 1000)) * 1000) == ms


@pytest.mark.parametrize(
    "text",
    ["", "5", "1m1m", "30s1m", "5m30", "1.5h", "-1m", " 5m", "5m ", "5 m", "1M", "ms", "1h\n", "\u0661m", LONG],
)
def test_prometheus_refuses_what_its_parser_refuses(text: str) -> None:
    # Before, the spec's seconds, prom's duration_s and the rules' to_seconds summed any number-and-unit pairs
    # they found: "1m1m" was 2 minutes, "5m30" 5 minutes, "" 0. Each is now one ValueError, named.
    with pytest.raises(ValueError, match="is not a Prometheus duration"):
        prometheus_seconds(text)


def test_prometheus_takes_a_bare_zero_and_refuses_more_than_292_years() -> None:
    assert prometheus_seconds("0") == 0.0 == prometheus_seconds("0s")
    with pytest.raises(ValueError, match="292 years"):
        prometheus_seconds("300y")
    assert prometheus_text(5400) == "90m" and prometheus_text(90) == "90s" and prometheus_text(1.5) == "1500ms"


@given(st.text(max_size=40))
def test_every_parser_answers_any_text_with_a_number_or_a_value_error(text: str) -> None:
    for parse in (prometheus_seconds, go_seconds, grafana_ms, grafana_relative_ms, dhms_seconds):
        try:
            value = parse(text)
        except ValueError:
            continue
        assert isinstance(value, int | float)


@given(st.integers(-(10**15), 10**15))
def test_go_reads_back_what_it_writes(ns: int) -> None:
    assert go_seconds(go_text(ns / 1e9)) == pytest.approx(ns / 1e9, abs=1e-9)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("1h30m", 5400.0), ("1m0s", 60.0), ("300ms", 0.3), ("1.5h", 5400.0), ("0", 0.0), ("-2s", -2.0), ("1µs", 1e-6)],
)
def test_go_reads_time_parse_duration_forms(text: str, seconds: float) -> None:
    assert go_seconds(text) == pytest.approx(seconds)


@pytest.mark.parametrize("text", ["", "1", "1d", "1h 30m", ".s", "1e3s", "3000000h"])
def test_go_refuses_what_time_parse_duration_refuses(text: str) -> None:
    with pytest.raises(ValueError, match="invalid duration"):
        go_seconds(text)
    assert MAX_GO_SECONDS < 3_000_000 * 3600


@given(st.integers(1, 10**12 - 1))  # at most 12 digits: a browser sends anything
def test_grafana_reads_back_what_it_writes(ms: int) -> None:
    assert grafana_ms(grafana_text(ms)) == ms


@given(st.integers(0, 10**12 - 1), st.sampled_from(sorted(GRAFANA_UNITS_MS)))
def test_grafana_relative_times_count_back_from_now(amount: int, unit: str) -> None:
    assert grafana_relative_ms(f"now-{amount}{unit}") == amount * GRAFANA_UNITS_MS[unit]
    assert grafana_relative_ms("now") == 0


@pytest.mark.parametrize("text", ["now-1.5h", "now+1h", "now-", "now-6", "later", "now-1000000000000h"])
def test_grafana_relative_times_refuse_the_rest(text: str) -> None:
    with pytest.raises(ValueError, match="expected now or now-"):
        grafana_relative_ms(text)


@pytest.mark.parametrize(("text", "seconds"), [("90", 90.0), ("90s", 90.0), ("1h30m", 5400.0), ("2d", 172800.0)])
def test_dhms_reads_job_durations(text: str, seconds: float) -> None:
    assert dhms_seconds(text) == seconds


@pytest.mark.parametrize("text", ["", "1m1h", "1.5h", "1w", "h"])
def test_dhms_refuses_the_rest(text: str) -> None:
    with pytest.raises(ValueError, match=r"write e\.g\. 90s"):
        dhms_seconds(text)


def test_the_rules_config_refuses_a_scrape_interval_prometheus_would_not_parse() -> None:
    # Its pattern takes any run of number-and-unit pairs; the lenient sum read 15s15s as 30 s.
    from pydantic import ValidationError

    from gpuscope.ruleconfig.config import RulesConfig

    with pytest.raises(ValidationError, match="'15s15s' is not a Prometheus duration"):
        RulesConfig(scrape_interval="15s15s")

"""Interval and variable resolution, checked against Grafana's documented rules for a Prometheus data source."""

from __future__ import annotations

import pytest

from gpuscope.console.frames import build_table, series_name, sort_rows, transform
from gpuscope.console.timerange import (
    interval_values,
    intervals,
    parse_range,
    round_interval,
)
from gpuscope.console.variables import (
    ALL,
    LabelValues,
    QueryResult,
    Selection,
    Variable,
    apply_regex,
    choose,
    interpolate,
    parse_query,
    query_result_lines,
    sort_options,
)
from gpuscope.durations import grafana_text
from gpuscope.errors import UsageError
from gpuscope.prom import Sample

NOW = 1_700_000_000_000
HOUR = 3_600_000


def test_relative_ranges_from_15_minutes_to_7_days() -> None:
    assert parse_range("now-15m", "now", NOW).span_ms == 15 * 60_000
    assert parse_range("now-7d", "now", NOW).span_ms == 7 * 24 * HOUR
    assert parse_range("now-2d", "now-1d", NOW).to_ms == NOW - 24 * HOUR
    assert parse_range("1000", "2000", NOW).span_ms == 1000
    with pytest.raises(UsageError, match="now-<number>"):
        parse_range("yesterday", "now", NOW)
    with pytest.raises(UsageError, match="before the end"):
        parse_range("now", "now-1h", NOW)


@pytest.mark.parametrize(
    ("raw_ms", "nice_ms"),
    [
        (3_600, 5_000),
        (12_000, 10_000),
        (16_000, 15_000),
        (40_000, 30_000),
        (604_800, 600_000),
        (86_400_000, 86_400_000),
    ],
)
def test_interval_rounds_to_grafanas_nice_intervals(raw_ms: int, nice_ms: int) -> None:
    assert round_interval(raw_ms) == nice_ms


def test_interval_is_range_over_width_never_below_the_scrape_interval() -> None:
    one_hour = parse_range("now-1h", "now", NOW)
    # 1h over 1,000 px is 3.6 s, rounded to 5 s, then raised to the 15 s scrape interval
    assert intervals(one_hour, data_points=1000, scrape_ms=15_000).interval_ms == 15_000
    # with 1 s scrapes the rounded 5 s stands
    assert intervals(one_hour, data_points=1000, scrape_ms=1_000).interval_ms == 5_000
    # a panel's own min interval replaces the scrape interval as the lower limit
    assert intervals(one_hour, data_points=1000, scrape_ms=1_000, min_interval_ms=30_000).interval_ms == 30_000
    week = parse_range("now-7d", "now", NOW)
    assert grafana_text(intervals(week, data_points=1000).interval_ms) == "10m"


def test_rate_interval_is_max_of_interval_plus_scrape_and_four_scrapes() -> None:
    day = parse_range("now-24h", "now", NOW)
    iv = intervals(day, data_points=1000, scrape_ms=15_000)  # 86.4 s -> 1m
    assert iv.interval_ms == 60_000
    assert interval_values(iv)["__rate_interval"] == "75s"  # 1m + 15s beats 4 x 15s
    short = intervals(parse_range("now-15m", "now", NOW), data_points=1000, scrape_ms=15_000)
    assert interval_values(short)["__rate_interval"] == "1m"  # 4 x 15s beats 15s + 15s


def test_range_variables_and_step_cap() -> None:
    iv = intervals(parse_range("now-3h", "now", NOW), data_points=1000, scrape_ms=1_000)
    values = interval_values(iv)
    assert values["__range"] == "10800s" and values["__range_s"] == "10800" and values["__range_ms"] == "10800000"
    assert values["__interval"] == "10s" and values["__interval_ms"] == "10000"
    # a point per pixel over a week would pass Prometheus' 11,000 points: the step grows to stay under it
    week = intervals(parse_range("now-7d", "now", NOW), data_points=100_000, scrape_ms=1_000)
    assert 7 * 24 * 3600 / week.step_s <= 11_000


def test_variable_queries_parse() -> None:
    assert parse_query('label_values(up{job="dcgm-exporter"}, cluster)') == LabelValues(
        label="cluster", selector='up{job="dcgm-exporter"}'
    )
    assert parse_query("label_values(Hostname)") == LabelValues(label="Hostname", selector=None)
    assert parse_query("query_result(topk(3, sum by (UUID) (x)))") == QueryResult(expr="topk(3, sum by (UUID) (x))")
    with pytest.raises(UsageError, match="label_values"):
        parse_query("metrics(DCGM_.*)")


def test_query_result_lines_and_regex_capture() -> None:
    lines = query_result_lines((Sample({"__name__": "m", "UUID": "GPU-1", "a": "x"}, 3.0),), 10.5)
    assert lines == ['m{UUID="GPU-1",a="x"} 3 10500']
    # values as Prometheus writes them, so a regex over the line sees what Grafana's sees
    odd = (Sample({}, 0.5), Sample({}, 1e-7), Sample({}, float("inf")), Sample({}, float("nan")))
    assert [line.split()[1] for line in query_result_lines(odd, 0)] == ["0.5", "0.0000001", "+Inf", "NaN"]
    assert apply_regex(lines, '/UUID="([^"]+)"/') == ["GPU-1"]
    assert apply_regex(["gpu-a-1", "gpu-b-2", "cpu"], "/gpu-(?<value>[ab])/".replace("?<", "?P<")) == ["a", "b"]
    assert apply_regex(["gpu-a", "cpu"], "gpu") == ["gpu-a"]
    with pytest.raises(UsageError, match="regex"):
        apply_regex(["x"], "/(/")


def test_sorting_codes() -> None:
    values = ["n10", "n9", "N1", "n9"]
    assert sort_options(values, 0) == ["n10", "n9", "N1"]
    assert sort_options(values, 1) == ["N1", "n10", "n9"]
    assert sort_options(values, 3) == ["N1", "n9", "n10"]
    assert sort_options(values, 7) == ["N1", "n9", "n10"]
    assert sort_options(values, 8) == ["n10", "n9", "N1"]


CLUSTER = Variable(name="cluster", type="query", query="", multi=True, include_all=True, all_value=".*")
NODE = Variable(name="node", type="query", query="")
GPU = Variable(name="gpu", type="query", query="", multi=True, include_all=True)  # All without allValue


def test_current_value_falls_back_as_grafana_does() -> None:
    opts = ["gpu-a", "gpu-b"]
    assert choose(CLUSTER, opts, []) == Selection(values=(ALL,), all=True, options=("gpu-a", "gpu-b"))
    assert choose(CLUSTER, opts, [ALL]).all
    assert choose(CLUSTER, opts, ["gpu-b", "gone"]).values == ("gpu-b",)
    assert choose(CLUSTER, opts, ["gone"]).all  # nothing valid asked: All
    assert choose(NODE, ["n1", "n2"], ["n2"]).values == ("n2",)
    assert choose(NODE, ["n1", "n2"], ["gone"]).values == ("n1",)  # no All: the first option
    assert choose(NODE, ["n1", "n2"], ["n1", "n2"]).values == ("n1",)  # single-value keeps one
    assert choose(NODE, [], ["n1"]).values == ()


def test_interpolation_formats() -> None:
    variables = {v.name: v for v in (CLUSTER, NODE, GPU)}
    sel = {
        "cluster": Selection(values=("gpu-a", "gpu.b"), options=("gpu-a", "gpu.b", "c")),
        "node": Selection(values=('we"ird\\host',), options=()),
        "gpu": Selection(values=(ALL,), all=True, options=("GPU-1", "GPU-2")),
    }
    expr = 'x{cluster=~"$cluster",Hostname="${node}",UUID=~"[[gpu]]"}[$__rate_interval]'
    out = interpolate(expr, variables, sel, {"__rate_interval": "1m"})
    # multi-value: regex-escaped (inside a PromQL string, so the backslash doubles) and alternated
    assert out == 'x{cluster=~"(gpu-a|gpu\\\\.b)",Hostname="we\\"ird\\\\host",UUID=~"(GPU-1|GPU-2)"}[1m]'
    all_clusters = {**sel, "cluster": Selection(values=(ALL,), all=True, options=("gpu-a",))}
    assert interpolate('{cluster=~"$cluster"}', variables, all_clusters) == '{cluster=~".*"}'  # allValue as is
    assert interpolate("${cluster:queryparam}", variables, all_clusters) == "var-cluster=%24__all"
    assert interpolate("${cluster:queryparam}", variables, sel) == "var-cluster=gpu-a&var-cluster=gpu.b"
    assert interpolate("${cluster:pipe} ${cluster:csv} ${gpu:text}", variables, sel) == "gpu-a|gpu.b gpu-a,gpu.b All"
    # label_replace's "$1" and unknown names stay as they are
    assert interpolate('label_replace(x, "f", "$1", "l", "(.+)") $nope', variables, sel).count("$1") == 1
    with pytest.raises(UsageError, match="format"):
        interpolate("${cluster:bogus}", variables, sel)


def test_chained_variables_see_the_ones_before() -> None:
    variables = {v.name: v for v in (CLUSTER, NODE)}
    query = 'label_values(DCGM_FI_DEV_GPU_TEMP{cluster=~"$cluster",Hostname="$node"}, UUID)'
    sel = {"cluster": Selection(values=("gpu-b",), options=("gpu-a", "gpu-b")), "node": Selection(values=("n1",))}
    assert parse_query(interpolate(query, variables, sel)) == LabelValues(
        label="UUID", selector='DCGM_FI_DEV_GPU_TEMP{cluster=~"gpu-b",Hostname="n1"}'
    )


def test_legend_format_and_default_names() -> None:
    labels = {"__name__": "DCGM_FI_DEV_GPU_TEMP", "Hostname": "h1", "gpu": "3"}
    assert series_name(labels, "{{Hostname}} GPU {{ gpu }}") == "h1 GPU 3"
    assert series_name(labels, None) == 'DCGM_FI_DEV_GPU_TEMP{Hostname="h1", gpu="3"}'
    assert series_name({"cluster": "a"}, "__auto") == '{cluster="a"}'


def test_table_merge_organize_and_matrix() -> None:
    a = (Sample({"Hostname": "h2"}, 8.0), Sample({"Hostname": "h1"}, 7.0))
    b = (Sample({"Hostname": "h1"}, 0.5),)
    tables = build_table([("A", a), ("B", b)], at_s=1, many=True)
    merged = transform(
        tables,
        [
            {"id": "merge", "options": {}},
            {"id": "organize", "options": {"excludeByName": {"Time": True}, "renameByName": {"Value #A": "gpus"}}},
        ],
    )
    assert merged.columns == ["Hostname", "gpus", "Value #B"]
    assert merged.rows == [["h1", 7.0, 0.5], ["h2", 8.0, None]]
    cells = tuple(Sample({"Hostname": h, "gpu": g}, v) for h, g, v in [("h1", "10", 2.0), ("h1", "9", 0.0)])
    matrix = transform(
        build_table([("A", cells)], at_s=1, many=False),
        [{"id": "groupingToMatrix", "options": {"rowField": "Hostname", "columnField": "gpu", "valueField": "Value"}}],
    )
    assert matrix.columns == ["Hostname\\gpu", "9", "10"] and matrix.rows == [["h1", 0.0, 2.0]]


def test_a_table_of_gpus_is_in_index_order_not_uuid_order() -> None:
    """L3's "GPUs on this node": the UUIDs' order is no order a person reads; the index is, as a number."""
    gpus = tuple(Sample({"Hostname": "h1", "UUID": f"GPU-{9 - i}", "gpu": str(i)}, float(i)) for i in (10, 2, 0, 9, 1))
    table = transform(build_table([("A", gpus)], at_s=1, many=False), [])
    assert [row[3] for row in table.rows] == ["0", "1", "2", "9", "10"]
    # a panel's sortBy, numbers in text as numbers, descending where asked
    assert [row[3] for row in sort_rows(table, [{"displayName": "gpu", "desc": True}]).rows] == [
        "10",
        "9",
        "2",
        "1",
        "0",
    ]
    assert sort_rows(table, [{"displayName": "no such column"}]) == table


def test_a_label_empty_on_every_row_is_no_column() -> None:
    """A whole GPU's GPU_I_ID / GPU_I_PROFILE as an empty value (VictoriaMetrics' answer) makes no empty column."""
    rows = (Sample({"pod": "a", "GPU_I_ID": "", "GPU_I_PROFILE": ""}, 1.0), Sample({"pod": "b", "GPU_I_ID": ""}, 2.0))
    assert build_table([("A", rows)], at_s=1, many=False)[0].columns == ["Time", "pod", "Value"]
    mig = (Sample({"pod": "a", "GPU_I_ID": "1"}, 1.0), Sample({"pod": "b", "GPU_I_ID": ""}, 2.0))
    assert build_table([("A", mig)], at_s=1, many=False)[0].columns == ["Time", "GPU_I_ID", "pod", "Value"]

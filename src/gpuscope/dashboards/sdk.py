"""Our thin builder over grafana-foundation-sdk: the only module that imports it.

It turns a finalised dashboard (``defaults.Final``) into Grafana's dashboard JSON model through the SDK's typed
builders, and encodes it with the SDK's encoder. A version bump of the SDK is a change here and nowhere else.
The SDK emits a DeprecationWarning at import ("prefer dashboard v2"); we target the v1 JSON model on purpose,
because file provisioning and ``/api/dashboards/db`` take it on every Grafana from 10 to 12.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator, Mapping
from typing import Any

from gpuscope.dashboards import styles, units
from gpuscope.dashboards.defaults import Final, Placed
from gpuscope.dashboards.model import Panel, Query, Steps, ValueText

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from grafana_foundation_sdk.builders import bargauge, heatmap, prometheus, stat, statushistory, table, timeseries
    from grafana_foundation_sdk.builders import common as common_b
    from grafana_foundation_sdk.builders import dashboard as dash_b
    from grafana_foundation_sdk.cog import plugins
    from grafana_foundation_sdk.cog.encoder import JSONEncoder
    from grafana_foundation_sdk.models import common, dashboard
    from grafana_foundation_sdk.models import heatmap as heatmap_model
    from grafana_foundation_sdk.models import prometheus as prometheus_model

DATASOURCE_VAR = "datasource"
HEATMAP_COLOR_STEPS = 64
_DS = common.DataSourceRef(type_val="prometheus", uid=f"${{{DATASOURCE_VAR}}}")
_HIDDEN_COLUMNS = ("Time", "__name__", "job", "__replica__", "replica")
_PanelBuilder = Any  # the SDK's per-kind Panel builders share methods but no common type


def ref_id(index: int) -> str:
    """A, B, ..., Z, AA, AB, ...: Grafana's own naming of targets."""
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def _target(query: Query, index: int, kind: str) -> prometheus.Dataquery:
    target = prometheus.Dataquery().expr(query.expr).ref_id(ref_id(index)).datasource(_DS)
    if query.legend:
        target = target.legend_format(query.legend)
    # Tables show one row per series: an instant query. Stats and bar gauges reduce a range to its last value.
    if kind == "table" or query.instant:
        target = target.instant()
    if kind == "table":
        target = target.format(prometheus_model.PromQueryFormat.TABLE)
    elif kind == "heatmap":
        target = target.format(prometheus_model.PromQueryFormat.TIME_SERIES)
    return target


def _thresholds(steps: Steps) -> dash_b.ThresholdsConfig:
    return (
        dash_b.ThresholdsConfig()
        .mode(dashboard.ThresholdsMode.ABSOLUTE)
        .steps(
            [dashboard.Threshold(value=None, color=steps.base)]
            + [dashboard.Threshold(value=v, color=c) for v, c in steps.steps]
        )
    )


def _builder(panel: Panel) -> _PanelBuilder:
    if panel.kind == "timeseries":
        b = (
            timeseries.Panel()
            .legend(
                # a table: one line per series, its name and last value, never cut off behind a scroll strip
                common_b.VizLegendOptions()
                .show_legend(True)
                .display_mode(common.LegendDisplayMode.TABLE)
                .placement(common.LegendPlacement.BOTTOM)
                .calcs(["lastNotNull"])
            )
            .tooltip(
                common_b.VizTooltipOptions().mode(common.TooltipDisplayMode.MULTI).sort(common.SortOrder.DESCENDING)
            )
            .fill_opacity(10)
            .line_width(1)
        )
        if panel.steps:
            b = b.thresholds_style(common_b.GraphThresholdsStyleConfig().mode(common.GraphThresholdsStyleMode.DASHED))
        return b
    if panel.kind == "stat":
        return (
            stat.Panel()
            .reduce_options(common_b.ReduceDataOptions().calcs(["lastNotNull"]).values(False))
            .color_mode(common.BigValueColorMode.VALUE)
            .graph_mode(common.BigValueGraphMode.AREA)
        )
    if panel.kind == "bargauge":
        return (
            bargauge.Panel()
            .reduce_options(common_b.ReduceDataOptions().calcs(["lastNotNull"]).values(False))
            .orientation(common.VizOrientation.HORIZONTAL)
            .display_mode(common.BarGaugeDisplayMode.GRADIENT)
        )
    if panel.kind == "heatmap":
        return (
            heatmap.Panel()
            .calculate(True)
            .y_axis(heatmap.YAxisConfig().unit(panel.unit))
            .color(
                # Grafana's schema allows 2-128 colour steps; the SDK writes 0 when none is set.
                heatmap.HeatmapColorOptions()
                .mode(heatmap_model.HeatmapColorMode.SCHEME)
                .scheme("Oranges")
                .steps(HEATMAP_COLOR_STEPS)
            )
        )
    if panel.kind == "statushistory":
        return statushistory.Panel().show_value(common.VisibilityMode.NEVER)
    return _table(panel)


def _table(panel: Panel) -> table.Panel:
    b = table.Panel().show_header(True).filterable(True)
    if panel.sort_by:
        b = b.sort_by([common_b.TableSortByFieldState().display_name(panel.sort_by)])
    if panel.mappings:
        # A status grid: every cell is a state, coloured at a glance.
        b = b.cell_options(common.TableColoredBackgroundCellOptions())
    return b


def _transforms(panel: Panel) -> list[dashboard.DataTransformerConfig]:
    out = [dashboard.DataTransformerConfig(id_val=t.id, options=dict(t.options)) for t in panel.transforms]
    if panel.kind != "table":
        return out
    if len(panel.queries) > 1 and not any(t.id == "merge" for t in panel.transforms):
        out.insert(0, dashboard.DataTransformerConfig(id_val="merge", options={}))
    renames = {_value_column(panel, i): _column(panel, i) for i in range(len(panel.queries))}
    options = {
        "excludeByName": dict.fromkeys(_HIDDEN_COLUMNS, True),
        "renameByName": {raw: name for raw, name in renames.items() if raw != name},
    }
    out.append(dashboard.DataTransformerConfig(id_val="organize", options=options))
    return out


def _value_column(panel: Panel, index: int) -> str:
    """What Grafana calls a table query's value column: "Value", or "Value #B" once several queries merge."""
    return "Value" if len(panel.queries) == 1 else f"Value #{ref_id(index)}"


def _column(panel: Panel, index: int) -> str:
    """The value column's name as shown: the query's legend when it is a plain name ("power")."""
    legend = panel.queries[index].legend
    return legend if legend and "{{" not in legend else _value_column(panel, index)


def _column_overrides(b: _PanelBuilder, panel: Panel) -> _PanelBuilder:
    """A table column's own unit and threshold colours (a panel-wide threshold would colour every column)."""
    for i, q in enumerate(panel.queries):
        steps = q.steps or (panel.steps if len(panel.queries) == 1 and not panel.mappings else None)
        props = [dashboard.DynamicConfigValue(id_val="unit", value=q.unit)] if q.unit else []
        if steps:
            thresholds = {
                "mode": "absolute",
                "steps": [{"color": steps.base, "value": None}] + [{"color": c, "value": v} for v, c in steps.steps],
            }
            props += [
                dashboard.DynamicConfigValue(id_val="thresholds", value=thresholds),
                dashboard.DynamicConfigValue(id_val="custom.cellOptions", value={"type": "color-background"}),
            ]
        if q.zero:
            # a failure signal's column: its 0 reads "none" in green (zeros.py), its label columns stay plain
            props.append(dashboard.DynamicConfigValue(id_val="mappings", value=[_value_map(styles.NONE)]))
            if not steps:  # a column with thresholds keeps its coloured background
                props.append(dashboard.DynamicConfigValue(id_val="custom.cellOptions", value={"type": "color-text"}))
        if props:
            b = b.override_by_name(_column(panel, i), props)
    return b


def _axis(b: _PanelBuilder, panel: Panel) -> _PanelBuilder:
    """The panel's own bounds; else, on a time series, 0 under a quantity that cannot be negative and a soft
    maximum over a ratio (``units.NON_NEGATIVE``, ``units.SOFT_MAX``): the same rule for every dashboard."""
    low = panel.min
    if low is None and panel.kind == "timeseries" and panel.unit in units.NON_NEGATIVE:
        low = 0
    if low is not None:
        b = b.min(low)
    if panel.max is not None:
        b = b.max(panel.max)
    elif panel.kind == "timeseries" and panel.unit in units.SOFT_MAX:
        b = b.axis_soft_max(units.SOFT_MAX[panel.unit])
    return b


def _value_map(m: ValueText) -> dict[str, Any]:
    return {"type": "value", "options": {m.value: {"text": m.text, "color": m.color, "index": 0}}}


def _panel(item: Placed) -> _PanelBuilder:
    panel = item.panel
    assert panel is not None
    b = (
        _builder(panel)
        .id(item.id)
        .title(panel.title)
        .datasource(_DS)
        .grid_pos(dashboard.GridPos(h=item.h, w=item.w, x=item.x, y=item.y))
        .unit(panel.unit)
        .targets([_target(q, i, panel.kind) for i, q in enumerate(panel.queries)])
    )
    if panel.description:
        b = b.description(panel.description)
    b = _axis(b, panel)
    decimals = units.DECIMALS.get(panel.unit)
    if decimals is not None:
        b = b.decimals(decimals)
    if panel.steps:
        b = b.thresholds(_thresholds(panel.steps))
    if panel.mappings:
        options = {
            m.value: dashboard.ValueMappingResult(text=m.text, color=m.color, index=i)
            for i, m in enumerate(panel.mappings)
        }
        b = b.mappings([dashboard.ValueMap(options=options)])
    if item.links:
        b = b.data_links([dash_b.DashboardLink(title).url(url) for title, url in item.links])
    transforms = _transforms(panel)
    if transforms:
        b = b.transformations(transforms)
    return _column_overrides(b, panel) if panel.kind == "table" else b


def _variables(final: Final) -> list[Any]:
    out: list[Any] = [dash_b.DatasourceVariable(DATASOURCE_VAR).label("Data source").type("prometheus")]
    for v in final.dashboard.variables:
        b = (
            dash_b.QueryVariable(v.name)
            .label(v.label)
            .datasource(_DS)
            .query({"query": v.query, "refId": f"{v.name}-variable"})
            .definition(v.query)
            .refresh(dashboard.VariableRefresh.ON_TIME_RANGE_CHANGED)
            .sort(dashboard.VariableSort.ALPHABETICAL_ASC)
            .multi(v.multi)
        )
        if v.include_all:
            b = b.include_all(True).all_value(".*")
        out.append(b)
    return out


def to_json(final: Final, refresh: str = "1m", time_from: str = "now-3h") -> dict[str, Any]:
    """The dashboard JSON model, as provisioning files and the HTTP API take it."""
    d = final.dashboard
    b = (
        dash_b.Dashboard(final.title)
        .uid(final.uid)
        .description(d.description)
        .tags(list(final.tags))
        .refresh(refresh)
        .time(time_from, "now")
        .timezone("browser")
        .tooltip(dashboard.DashboardCursorSync.CROSSHAIR)
        .readonly()
        .variables(_variables(final))
        .links(
            [
                dash_b.DashboardLink(title)
                .type(dashboard.DashboardLinkType.LINK)
                .url(f"/d/{uid}")
                .include_vars(True)
                .keep_time(True)
                .icon("dashboard")
                for title, uid in final.top_links
            ]
        )
    )
    for item in final.items:
        if item.panel is None:
            row = dash_b.Row(item.title).id(item.id).grid_pos(dashboard.GridPos(h=1, w=24, x=0, y=item.y))
            b = b.with_row(row)
        else:
            b = b.with_panel(_panel(item))
    model: dict[str, Any] = json.loads(JSONEncoder(sort_keys=True).encode(b.build()))
    # Provisioned and API-posted dashboards are matched by uid; a numeric id would belong to one Grafana.
    model["id"] = None
    return model


def schema_problems(model: Mapping[str, Any]) -> list[str]:
    """Where ``model`` changes in a round trip through the SDK's typed dashboard model.

    The SDK's models are generated from Grafana's own schemas (dashboard, each panel kind's options and field
    config, the Prometheus query) and drop what they do not know, so a key the schemas lack, or a value of
    another shape, shows up as a difference. The installed SDK ships no JSON schema file; this is its schema in
    executable form.
    """
    plugins.register_default_plugins()  # typed panel options and queries (a registry: idempotent)
    decoded = dashboard.Dashboard.from_json(dict(model))
    back = json.loads(JSONEncoder(sort_keys=True).encode(decoded))
    back["id"] = model.get("id")
    return list(_differences(model, back, ""))


def _differences(a: Any, b: Any, path: str) -> Iterator[str]:
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for key in sorted(set(a) | set(b)):
            if key not in b:
                yield f"{path}/{key}: not in the schema"
            elif key not in a:
                continue  # a default the model fills in
            else:
                yield from _differences(a[key], b[key], f"{path}/{key}")
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            yield from _differences(x, y, f"{path}[{i}]")
    elif a != b:
        yield f"{path}: {a!r} comes back as {b!r}"

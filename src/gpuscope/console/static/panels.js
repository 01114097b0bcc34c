// One renderer per panel type the generator emits. Each draws the data the server shaped for the panel and
// marks the panel's state (data, empty, error) on its element, which the page and the browser tests read.
// Time series and the stat sparklines are uPlot charts. uPlot has no heatmap, status-history or bar-gauge series
// type, so those three are grids of coloured HTML cells: no canvas drawing of our own beyond threshold lines.
import { PALETTE, color, display, fieldConfig, formatValue, lastNotNull, reduce, thresholdColor, tickLabels } from "./format.js";

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null) continue;
    if (k === "class") node.className = v;
    else if (k === "style") Object.assign(node.style, v);
    else if (k.startsWith("data-")) node.setAttribute(k, v);
    else node[k] = v;
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}
export { el };

function seriesColor(cfg, index) {
  if (cfg.color && cfg.color.mode === "fixed" && cfg.color.fixedColor) return color(cfg.color.fixedColor);
  return PALETTE[index % PALETTE.length];
}

function alpha(hex, opacity) {
  const h = hex.replace("#", "");
  if (h.length !== 6) return hex;
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));
  return `rgba(${r},${g},${b},${opacity})`;
}

function hasThresholdColours(cfg) {
  return cfg.thresholds && cfg.thresholds.steps && cfg.thresholds.steps.length > 1;
}

// Cumulative sums for stacked series (Grafana's "normal" stacking; "percent" scales each point to 100%).
export function stack(values, mode) {
  const out = values.map((v) => v.slice());
  for (let i = 1; i < out.length; i += 1) {
    for (let j = 0; j < out[i].length; j += 1) {
      if (out[i][j] !== null && out[i - 1][j] !== null) out[i][j] += out[i - 1][j];
    }
  }
  if (mode === "percent" && out.length) {
    const total = out[out.length - 1];
    return out.map((row) => row.map((v, j) => (v === null || !total[j] ? v : v / total[j])));
  }
  return out;
}

// The y axis: the panel's hard bounds, then its soft ones (Grafana's axisSoftMin/axisSoftMax: reached unless the
// data goes further), and a flat line gets room around it, never below a hard or soft minimum (an all-zero chart of
// a non-negative quantity is drawn from 0, not from -1).
export function yRange(base, isBool, lo, hi) {
  if (isBool) return [base.min ?? 0, base.max ?? 1];
  const custom = base.custom || {};
  let min = lo;
  let max = hi;
  if (custom.axisSoftMin !== undefined && custom.axisSoftMin !== null) min = Math.min(min, custom.axisSoftMin);
  if (custom.axisSoftMax !== undefined && custom.axisSoftMax !== null) max = Math.max(max, custom.axisSoftMax);
  if (base.min !== undefined && base.min !== null) min = base.min;
  if (base.max !== undefined && base.max !== null) max = base.max;
  if (min === max) {
    const floor = base.min ?? custom.axisSoftMin;
    if (floor !== undefined && floor !== null && min <= floor) max = min + 1;
    else { min -= 1; max += 1; }
  }
  return [min, max];
}

function timeseries(body, panel, data, ctx) {
  const series = data.series;
  const cfgs = series.map((s) => fieldConfig(panel, s.name));
  const base = fieldConfig(panel, "");
  const stacking = (base.custom.stacking && base.custom.stacking.mode) || "none";
  const values = stacking === "none" ? series.map((s) => s.values) : stack(series.map((s) => s.values), stacking);
  const unit = stacking === "percent" ? "percentunit" : base.unit;
  const legendOpts = (panel.options && panel.options.legend) || {};
  const isBool = String(unit || "").startsWith("bool");
  const chart = el("div", { class: "chart" });
  const legend = el("div", { class: legendOpts.displayMode === "table" ? "legend legend-table" : "legend" });
  const tip = el("div", { class: "tooltip" });
  body.append(chart, tip);
  if (legendOpts.showLegend !== false) body.append(legend);
  series.forEach((s, i) => {
    const last = lastNotNull(s.values);
    const cfg = cfgs[i];
    const shown = display(cfg, last);
    const lastColor = hasThresholdColours(cfg) ? thresholdColor(cfg, last) : null;
    legend.append(el("span", { class: "legend-item", "data-series": s.name, "data-last": last ?? "" },
      el("i", { class: "swatch", style: { background: seriesColor(cfg, i) } }),
      el("span", { class: "legend-name" }, s.name),
      el("b", { class: "legend-last", style: lastColor ? { color: lastColor } : {}, "data-color": lastColor || "" },
        shown.text)));
  });
  const thresholdsStyle = (base.custom.thresholdsStyle && base.custom.thresholdsStyle.mode) || "off";
  const steps = (base.thresholds && base.thresholds.steps) || [];
  const fillOpacity = (base.custom.fillOpacity ?? 0) / 100;
  const opts = {
    width: Math.max(100, body.clientWidth - 8),
    height: Math.max(60, body.clientHeight - (legendOpts.showLegend !== false ? legend.offsetHeight + 8 : 4)),
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: true }, y: { range: (u, lo, hi) => yRange(base, isBool, lo, hi) } },
    axes: [
      { stroke: "#9fa7b3", grid: { stroke: "#2a2f38" }, ticks: { stroke: "#2a2f38" } },
      // wide enough for its longest label ("42.9 GPU-eq"), so none is cut at the left
      { stroke: "#9fa7b3", grid: { stroke: "#2a2f38" }, ticks: { stroke: "#2a2f38" },
        size: (u, labels) => Math.max(50, ...(labels || []).map((l) => String(l).length * 7 + 16)),
        values: (u, ticks) => (isBool ? ticks.map((t) => (t !== 0 && t !== 1 ? "" : formatValue(t, unit))) : tickLabels(ticks, unit, base.decimals)) },
    ],
    series: [{}, ...series.map((s, i) => {
      const col = seriesColor(cfgs[i], i);
      return { label: s.name, stroke: col, width: cfgs[i].custom.lineWidth ?? 1,
        fill: fillOpacity > 0 ? alpha(col, fillOpacity) : undefined, spanGaps: false, points: { show: false } };
    })],
    hooks: {
      draw: [(u) => {
        if (thresholdsStyle === "off") return;
        const c = u.ctx;
        c.save();
        c.lineWidth = 1;
        if (thresholdsStyle === "dashed" || thresholdsStyle === "line+area" || thresholdsStyle === "dashed+area") c.setLineDash([6, 4]);
        for (const step of steps) {
          if (step.value === null || step.value === undefined) continue;
          const y = u.valToPos(step.value, "y", true);
          if (y < u.bbox.top || y > u.bbox.top + u.bbox.height) continue;
          c.strokeStyle = color(step.color);
          c.beginPath();
          c.moveTo(u.bbox.left, y);
          c.lineTo(u.bbox.left + u.bbox.width, y);
          c.stroke();
        }
        c.restore();
      }],
      setCursor: [(u) => {
        const idx = u.cursor.idx;
        if (idx === null || idx === undefined || u.cursor.left < 0) {
          tip.style.display = "none";
          return;
        }
        const when = new Date(u.data[0][idx] * 1000).toLocaleTimeString();
        const rows = series.map((s, i) => ({ name: s.name, v: s.values[idx], c: seriesColor(cfgs[i], i), cfg: cfgs[i] }))
          .filter((r) => r.v !== null && r.v !== undefined)
          .sort((a, b) => b.v - a.v).slice(0, 12);
        tip.replaceChildren(el("div", { class: "tip-time" }, when),
          ...rows.map((r) => el("div", {}, el("i", { class: "swatch", style: { background: r.c } }),
            `${r.name}: ${display(r.cfg, r.v).text}`)));
        tip.style.display = "block";
        tip.style.left = `${Math.min(u.cursor.left + 60, body.clientWidth - 220)}px`;
        tip.style.top = `${Math.max(0, u.cursor.top - 10)}px`;
      }],
    },
  };
  const plot = new uPlot(opts, [data.times.map((t) => t / 1000), ...values], chart);
  ctx.charts.push(plot);
}

// Grafana's stat "area" graph: the series drawn faintly behind its value, in the value's colour.
function sparkline(holder, times, values, col, ctx) {
  if (values.filter((v) => v !== null).length < 2) return;
  const opts = {
    width: Math.max(40, holder.clientWidth), height: Math.max(20, Math.round(holder.clientHeight * 0.45)),
    legend: { show: false }, cursor: { show: false }, select: { show: false },
    axes: [{ show: false }, { show: false }], scales: { x: { time: false } },
    series: [{}, { stroke: alpha(col, 0.6), fill: alpha(col, 0.15), width: 1, points: { show: false } }],
  };
  const spot = el("div", { class: "sparkline" });
  holder.append(spot);
  ctx.charts.push(new uPlot(opts, [times.map((t) => t / 1000), values], spot));
}

function statPanel(body, panel, data, ctx) {
  const calc = ((panel.options && panel.options.reduceOptions && panel.options.reduceOptions.calcs) || ["lastNotNull"])[0];
  const mode = (panel.options && panel.options.colorMode) || "value";
  const graph = (panel.options && panel.options.graphMode) || "none";
  const box = el("div", { class: "stats" });
  body.append(box);
  for (const s of data.series) {
    const cfg = fieldConfig(panel, s.name);
    const value = reduce(s.values, calc);
    const shown = display(cfg, value);
    const style = mode === "background" && shown.color ? { background: shown.color, color: "#111" }
      : mode === "none" ? {} : { color: shown.color || undefined };
    const cell = el("div", { class: "stat", "data-value": value ?? "", "data-color": shown.color || "" },
      el("div", { class: "stat-value", style }, shown.text),
      data.series.length > 1 ? el("div", { class: "stat-name" }, s.name) : null);
    box.append(cell);
    if (graph === "area" && data.times && s.values.length === data.times.length) {
      sparkline(cell, data.times, s.values, shown.color && mode !== "background" ? shown.color : PALETTE[5], ctx);
    }
  }
}

function barGauge(body, panel, data) {
  const calc = ((panel.options && panel.options.reduceOptions && panel.options.reduceOptions.calcs) || ["lastNotNull"])[0];
  const items = data.series.map((s) => ({ s, cfg: fieldConfig(panel, s.name), v: reduce(s.values, calc) }));
  const top = items.reduce((m, i) => Math.max(m, i.v ?? 0), 0);
  const list = el("div", { class: "bars" });
  for (const { s, cfg, v } of items) {
    const min = cfg.min ?? 0;
    const max = cfg.max ?? (top || 1);
    const shown = display(cfg, v, min, max);
    const pct = v === null ? 0 : Math.max(0, Math.min(100, ((v - min) / (max - min || 1)) * 100));
    list.append(el("div", { class: "bar-row", "data-value": v ?? "" },
      el("span", { class: "bar-name", title: s.name }, s.name),
      el("span", { class: "bar-track" }, el("span", { class: "bar-fill", style: { width: `${pct}%`, background: shown.color || PALETTE[0] } })),
      el("span", { class: "bar-value", style: { color: shown.color || undefined } }, shown.text)));
  }
  body.append(list);
}

function statusHistory(body, panel, data) {
  const grid = el("div", { class: "status-history" });
  const times = data.times;
  data.series.forEach((s, si) => {
    const cfg = fieldConfig(panel, s.name);
    const cells = el("span", { class: "sh-cells" });
    let prev;
    let cell = null;
    s.values.forEach((v, i) => {
      const key = v === null ? null : v;
      if (cell && key === prev) {
        cell.style.flexGrow = String(Number(cell.style.flexGrow) + 1);
        return;
      }
      prev = key;
      const shown = v === null ? { text: "", color: null } : display(cfg, v);
      const col = v === null ? "transparent" : shown.color || PALETTE[si % PALETTE.length];
      cell = el("span", { class: "sh-cell", title: v === null ? "" : `${s.name}: ${shown.text} at ${new Date(times[i]).toLocaleTimeString()}`,
        style: { background: col, flexGrow: "1" } });
      cells.append(cell);
    });
    grid.append(el("div", { class: "sh-row", "data-series": s.name }, el("span", { class: "sh-name", title: s.name }, s.name), cells));
  });
  body.append(grid);
}

function heatmap(body, panel, data) {
  // Grafana's "calculate" heatmap: at each time, how many series fall into each value bucket.
  // (a loop, not Math.min(...values): thousands of series overflow the argument list)
  let low = Infinity;
  let high = -Infinity;
  for (const s of data.series) {
    for (const v of s.values) {
      if (v === null) continue;
      if (v < low) low = v;
      if (v > high) high = v;
    }
  }
  const cfg = fieldConfig(panel, "");
  const unit = (panel.options && panel.options.yAxis && panel.options.yAxis.unit) || cfg.unit;
  const lo = cfg.min ?? (unit === "percentunit" ? 0 : low);
  const hi = cfg.max ?? (unit === "percentunit" ? 1 : high);
  const buckets = 10;
  const columns = Math.min(data.times.length, 60);
  const per = data.times.length / columns;
  const counts = Array.from({ length: columns }, () => new Array(buckets).fill(0));
  for (const s of data.series) {
    s.values.forEach((v, i) => {
      if (v === null) return;
      const col = Math.min(columns - 1, Math.floor(i / per));
      const b = hi === lo ? 0 : Math.min(buckets - 1, Math.max(0, Math.floor(((v - lo) / (hi - lo)) * buckets)));
      counts[col][b] += 1 / per;
    });
  }
  const peak = counts.flat().reduce((m, n) => Math.max(m, n), 1e-9);
  const grid = el("div", { class: "heatmap", style: { gridTemplateColumns: `4.5em repeat(${columns}, 1fr)` } });
  for (let b = buckets - 1; b >= 0; b -= 1) {
    grid.append(el("span", { class: "hm-axis" }, formatValue(lo + ((hi - lo) * b) / buckets, unit)));
    for (let c = 0; c < columns; c += 1) {
      const n = counts[c][b];
      grid.append(el("span", { class: "hm-cell", title: `${formatValue(lo + ((hi - lo) * b) / buckets, unit)}–${formatValue(lo + ((hi - lo) * (b + 1)) / buckets, unit)}: ${n.toFixed(1)} series`,
        style: { background: n > 0 ? `rgba(255,120,10,${0.15 + 0.85 * (n / peak)})` : "transparent" } }));
    }
  }
  body.append(grid);
}

function tablePanel(body, panel, data, ctx) {
  const { columns, rows } = data.table;
  const cfgs = columns.map((c) => fieldConfig(panel, c));
  const table = el("table", { class: "grid-table" });
  table.append(el("thead", {}, el("tr", {}, ...columns.map((c) => el("th", {}, c)))));
  const tbody = el("tbody");
  for (const row of rows) {
    const fields = Object.fromEntries(columns.map((c, i) => [c, row[i]]));
    const tr = el("tr");
    row.forEach((v, i) => {
      const cfg = cfgs[i];
      const isNumber = typeof v === "number";
      let text;
      let col = null;
      if (columns[i] === "Time" && isNumber) text = new Date(v).toLocaleString();
      else if (isNumber || v === null) ({ text, color: col } = display(cfg, v));
      else {
        const mapped = display(cfg, v);
        text = cfg.mappings && cfg.mappings.length ? mapped.text : v;
        col = cfg.mappings && cfg.mappings.length ? mapped.color : null;
        if (text === "No value") text = v;
      }
      if (v === null && text === "No value") text = "";  // a missing cell is empty, as in Grafana
      const cell = (cfg.custom && cfg.custom.cellOptions && cfg.custom.cellOptions.type) || "auto";
      const style = {};
      if (col && cell === "color-background" && v !== null) { style.background = col; style.color = "#111"; }
      else if (col && cell === "color-text") style.color = col;
      const links = cfg.links || [];
      const content = links.length
        ? el("a", { href: ctx.link(links[0].url, { fields, value: v }), title: links[0].title || "", class: "data-link" }, text)
        : text;
      tr.append(el("td", { style, "data-value": v ?? "", "data-color": style.background || style.color || "" }, content));
    });
    tbody.append(tr);
  }
  table.append(tbody);
  body.append(el("div", { class: "table-wrap" }, table));
}

const RENDERERS = { timeseries, stat: statPanel, bargauge: barGauge, "status-history": statusHistory, heatmap, table: tablePanel };

export function hasData(data) {
  if (data.table) return data.table.rows.length > 0;
  return (data.series || []).some((s) => s.values.some((v) => v !== null));
}

// Draw a panel's data into its body; returns the state the panel is in.
export function renderPanel(body, panel, data, ctx) {
  body.replaceChildren();
  const render = RENDERERS[panel.type];
  if (!render) {
    body.append(el("div", { class: "panel-message error" }, `panel type ${panel.type} is not supported by the console`));
    return "error";
  }
  if (!hasData(data)) {
    if (data.errors && data.errors.length) return "error";
    body.append(el("div", { class: "panel-message" }, "No data"));
    return "empty";
  }
  render(body, panel, data, ctx);
  return data.errors && data.errors.length ? "error" : "data";
}

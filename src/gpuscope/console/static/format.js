// Field display, as Grafana does it: units, decimals, thresholds and their colours, value mappings, overrides.

// Grafana's named colours (its default theme's shades), so a threshold "red" is the red a Grafana user knows.
const NAMED = {
  green: "#73BF69", "dark-green": "#37872D", "semi-dark-green": "#56A64B", "light-green": "#96D98D",
  red: "#F2495C", "dark-red": "#C4162A", "semi-dark-red": "#E02F44", "light-red": "#FF7383",
  orange: "#FF9830", "dark-orange": "#FA6400", "semi-dark-orange": "#FF780A", "light-orange": "#FFB357",
  yellow: "#FADE2A", "dark-yellow": "#E0B400", "semi-dark-yellow": "#F2CC0C", "light-yellow": "#FFEE52",
  blue: "#5794F2", "dark-blue": "#1F60C4", "semi-dark-blue": "#3274D9", "light-blue": "#8AB8FF",
  purple: "#B877D9", "dark-purple": "#8F3BB8", "semi-dark-purple": "#A352CC", "light-purple": "#CA95E5",
  text: "#CCCCDC", transparent: "transparent",
};
// Grafana's classic palette, for series without a colour of their own.
export const PALETTE = ["#73BF69", "#F2CC0C", "#8AB8FF", "#FF780A", "#F2495C", "#5794F2", "#B877D9", "#705DA0",
  "#37872D", "#FADE2A", "#447EBC", "#C15C17", "#890F02", "#0A437C", "#6D1F62", "#584477"];

export function color(name) {
  if (!name) return NAMED.text;
  return NAMED[name] || name;
}

const SI = ["", " k", " M", " G", " T", " P"];
const IEC = [" B", " KiB", " MiB", " GiB", " TiB", " PiB"];

function trim(text) {
  return text.includes(".") ? text.replace(/\.?0+$/, "") : text;
}

function fixed(value, decimals) {
  if (decimals !== undefined && decimals !== null) return value.toFixed(decimals);
  const abs = Math.abs(value);
  const auto = abs === 0 ? 0 : abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : Math.min(6, 2 - Math.floor(Math.log10(abs)));
  return trim(value.toFixed(auto));
}

function scaled(value, base, suffixes, decimals, unit) {
  let i = 0;
  let v = value;
  while (Math.abs(v) >= base && i < suffixes.length - 1) {
    v /= base;
    i += 1;
  }
  return fixed(v, decimals) + suffixes[i] + unit;
}

function duration(value, decimals) {
  const abs = Math.abs(value);
  if (abs === 0) return "0 s";
  if (abs < 1e-3) return fixed(value * 1e6, decimals) + " µs";
  if (abs < 1) return fixed(value * 1e3, decimals) + " ms";
  if (abs < 60) return fixed(value, decimals) + " s";
  if (abs < 3600) return fixed(value / 60, decimals) + " min";
  if (abs < 86400) return fixed(value / 3600, decimals) + " hour";
  return fixed(value / 86400, decimals) + " day";
}

// A number in the panel's unit: "42.5 °C", "1.5 GiB", "73%".
export function formatValue(value, unit, decimals) {
  if (value === null || value === undefined || Number.isNaN(value)) return "No value";
  if (typeof value !== "number") return String(value);
  switch (unit) {
    case "percentunit": return fixed(value * 100, decimals) + "%";
    case "percent": return fixed(value, decimals) + "%";
    case "celsius": return fixed(value, decimals) + " °C";
    case "watt": return scaled(value, 1000, SI, decimals, "W");
    case "kwatt": return scaled(value * 1000, 1000, SI, decimals, "W");
    case "joule": return scaled(value, 1000, SI, decimals, "J");
    case "hertz": return scaled(value, 1000, SI, decimals, "Hz");
    case "bytes": return scaled(value, 1024, IEC, decimals, "");
    case "decbytes": return scaled(value, 1000, SI, decimals, "B");
    case "Bps": return scaled(value, 1000, SI, decimals, "B/s");
    case "binBps": return scaled(value, 1024, IEC, decimals, "/s");
    case "s": return duration(value, decimals);
    case "ms": return duration(value / 1000, decimals);
    case "dateTimeAsIso": return new Date(value).toISOString().replace("T", " ").slice(0, 19);
    case "bool_yes_no": return value ? "Yes" : "No";
    case "bool_on_off": return value ? "On" : "Off";
    case "short": return scaled(value, 1000, ["", " K", " Mil", " Bil", " Tri"], decimals, "");
    default:
      // Grafana's custom units: "suffix:<text>" after the number, "prefix:<text>" before it
      if (typeof unit === "string" && unit.startsWith("suffix:")) return fixed(value, decimals) + unit.slice(7);
      if (typeof unit === "string" && unit.startsWith("prefix:")) return unit.slice(7) + fixed(value, decimals);
      return fixed(value, decimals);
  }
}

// Axis tick labels: the panel's decimals, else the fewest that tell every tick apart (five ticks between 47.80 and
// 47.84 GiB are not five times "47.8 GiB"), as Grafana derives them from the tick step.
export function tickLabels(ticks, unit, decimals) {
  if (decimals !== undefined && decimals !== null) return ticks.map((t) => formatValue(t, unit, decimals));
  let labels = ticks.map((t) => formatValue(t, unit));
  for (let d = 1; d <= 6 && new Set(labels).size < ticks.length; d += 1) labels = ticks.map((t) => formatValue(t, unit, d));
  return labels;
}

// The config a field is drawn with: the panel's defaults, then each override whose matcher names the field.
export function fieldConfig(panel, name) {
  const base = (panel.fieldConfig && panel.fieldConfig.defaults) || {};
  const out = { ...base, custom: { ...(base.custom || {}) } };
  for (const override of (panel.fieldConfig && panel.fieldConfig.overrides) || []) {
    const m = override.matcher || {};
    const hit = (m.id === "byName" && m.options === name)
      || (m.id === "byRegexp" && new RegExp(m.options).test(name));
    if (!hit) continue;
    for (const prop of override.properties || []) {
      if (prop.id.startsWith("custom.")) out.custom[prop.id.slice(7)] = prop.value;
      else if (prop.id === "color") out.color = prop.value;
      else out[prop.id] = prop.value;
    }
  }
  return out;
}

// The threshold step a value falls in (absolute, or percentage of min..max).
export function thresholdColor(cfg, value, min, max) {
  const t = cfg.thresholds;
  if (!t || !t.steps || !t.steps.length || value === null || value === undefined) return null;
  let v = value;
  if (t.mode === "percentage") {
    const lo = cfg.min ?? min ?? 0;
    const hi = cfg.max ?? max ?? 100;
    v = hi === lo ? 0 : ((value - lo) / (hi - lo)) * 100;
  }
  let picked = t.steps[0];
  for (const step of t.steps) {
    if (step.value === null || step.value === undefined || v >= step.value) picked = step;
  }
  return color(picked.color);
}

// A value mapping's text and colour for a value, if one applies.
export function mapValue(cfg, value) {
  for (const mapping of cfg.mappings || []) {
    const o = mapping.options || {};
    if (mapping.type === "value" && value !== null && value !== undefined) {
      const hit = o[String(value)];
      if (hit) return hit;
    } else if (mapping.type === "range" && value !== null && value !== undefined) {
      if ((o.from === null || o.from === undefined || value >= o.from) && (o.to === null || o.to === undefined || value <= o.to)) return o.result;
    } else if (mapping.type === "special" && (value === null || value === undefined || Number.isNaN(value))) {
      if (o.match === "null" || o.match === "nan" || o.match === "null+nan") return o.result;
    }
  }
  return null;
}

// Text and colour of one value under a field's config: mapping first, then thresholds; fixed colour last.
export function display(cfg, value, min, max) {
  const mapped = mapValue(cfg, value);
  const text = mapped && mapped.text !== undefined ? mapped.text : formatValue(value, cfg.unit, cfg.decimals);
  let col = mapped && mapped.color ? color(mapped.color) : null;
  if (!col && cfg.color && cfg.color.mode === "fixed") col = color(cfg.color.fixedColor);
  if (!col) col = thresholdColor(cfg, value, min, max);
  return { text, color: col };
}

export function lastNotNull(values) {
  for (let i = values.length - 1; i >= 0; i -= 1) {
    if (values[i] !== null && values[i] !== undefined) return values[i];
  }
  return null;
}

// Grafana's reducers for stat and bar gauge panels.
export function reduce(values, calc) {
  const nums = values.filter((v) => v !== null && v !== undefined);
  if (!nums.length) return null;
  switch (calc) {
    case "mean": return nums.reduce((a, b) => a + b, 0) / nums.length;
    case "max": return Math.max(...nums);
    case "min": return Math.min(...nums);
    case "sum": return nums.reduce((a, b) => a + b, 0);
    case "first": case "firstNotNull": return nums[0];
    case "last": return values[values.length - 1];
    default: return nums[nums.length - 1];
  }
}

// Field display in the page (units, decimals, thresholds, mappings, overrides), run by node's test runner from
// tests/console/test_format.py against the very module the console serves.
import assert from "node:assert/strict";
import { test } from "node:test";
import { display, fieldConfig, formatValue, reduce, thresholdColor, tickLabels } from "../../src/gpuscope/console/static/format.js";
import { yRange } from "../../src/gpuscope/console/static/panels.js";

test("units", () => {
  assert.equal(formatValue(0.734, "percentunit"), "73.4%");
  assert.equal(formatValue(87, "celsius"), "87 °C");
  assert.equal(formatValue(1536, "bytes"), "1.5 KiB");
  assert.equal(formatValue(85899345920, "bytes"), "80 GiB");
  assert.equal(formatValue(2.5e9, "hertz"), "2.5 GHz");
  assert.equal(formatValue(33200, "watt"), "33.2 kW");
  assert.equal(formatValue(1.2e9, "Bps"), "1.2 GB/s");
  assert.equal(formatValue(0.004, "s"), "4 ms");
  assert.equal(formatValue(5400, "s"), "1.5 hour");
  assert.equal(formatValue(1, "bool_yes_no"), "Yes");
  assert.equal(formatValue(48, "none"), "48");
  assert.equal(formatValue(null, "none"), "No value");
  assert.equal(formatValue("gpu-a", "none"), "gpu-a");
});

test("decimals are the panel's when set", () => {
  assert.equal(formatValue(3.14159, "none", 1), "3.1");
  assert.equal(formatValue(0.5, "percentunit", 0), "50%");
});

const temperature = {
  fieldConfig: {
    defaults: {
      unit: "celsius",
      thresholds: { mode: "absolute", steps: [{ color: "green", value: null }, { color: "orange", value: 80 }, { color: "red", value: 85 }] },
    },
    overrides: [{ matcher: { id: "byName", options: "power" }, properties: [{ id: "unit", value: "watt" }, { id: "decimals", value: 0 }] }],
  },
};

test("thresholds pick the last step at or below the value, in Grafana's colours", () => {
  const cfg = fieldConfig(temperature, "GPU_TEMP");
  assert.equal(thresholdColor(cfg, 40), "#73BF69");
  assert.equal(thresholdColor(cfg, 80), "#FF9830");
  assert.equal(thresholdColor(cfg, 89), "#F2495C");
  const pct = { thresholds: { mode: "percentage", steps: [{ color: "green", value: null }, { color: "red", value: 90 }] }, min: 0, max: 200 };
  assert.equal(thresholdColor(pct, 170), "#73BF69");
  assert.equal(thresholdColor(pct, 190), "#F2495C");
});

test("overrides by name replace the defaults for that field only", () => {
  assert.equal(fieldConfig(temperature, "power").unit, "watt");
  assert.equal(display(fieldConfig(temperature, "power"), 412.6).text, "413W");
  assert.equal(fieldConfig(temperature, "other").unit, "celsius");
});

test("value mappings win over thresholds", () => {
  const cfg = {
    mappings: [
      { type: "value", options: { 0: { text: "OK", color: "green" }, 2: { text: "page", color: "red" } } },
      { type: "range", options: { from: 10, to: 20, result: { text: "teen" } } },
      { type: "special", options: { match: "null", result: { text: "gone", color: "purple" } } },
    ],
    thresholds: { mode: "absolute", steps: [{ color: "blue", value: null }] },
  };
  assert.deepEqual(display(cfg, 2), { text: "page", color: "#F2495C" });
  assert.deepEqual(display(cfg, 15), { text: "teen", color: "#5794F2" });
  assert.deepEqual(display(cfg, null), { text: "gone", color: "#B877D9" });
  assert.equal(display(cfg, 5).text, "5");
});

test("reducers", () => {
  assert.equal(reduce([1, null, 3, null], "lastNotNull"), 3);
  assert.equal(reduce([1, 2, 6], "mean"), 3);
  assert.equal(reduce([null, null], "lastNotNull"), null);
});

test("stacking adds each series onto the ones before it; percent scales to the total", async () => {
  const { stack } = await import("../../src/gpuscope/console/static/panels.js");
  assert.deepEqual(stack([[1, 2, null], [3, 4, 5]], "normal"), [[1, 2, null], [4, 6, 5]]);
  assert.deepEqual(stack([[1, 3], [3, 1]], "percent"), [[0.25, 0.75], [1, 1]]);
});

test("custom units: a fractional GPU count says it is in GPU-equivalents", () => {
  assert.equal(formatValue(42.93, "suffix: GPU-eq", 1), "42.9 GPU-eq");
  assert.equal(formatValue(3, "prefix:$", 0), "$3");
});

test("axis ticks are told apart: never five times the same label", () => {
  const gib = 1024 ** 3;
  const ticks = [47.80, 47.81, 47.82, 47.83, 47.84].map((t) => t * gib);
  const labels = tickLabels(ticks, "bytes");
  assert.equal(new Set(labels).size, 5, labels.join(" | "));
  assert.deepEqual(tickLabels([0, 0.5, 1], "percentunit"), ["0%", "50%", "100%"]);
  assert.deepEqual(tickLabels([0, 0.5], "percentunit", 1), ["0.0%", "50.0%"]);  // the panel's decimals win
});

test("the y axis of a non-negative quantity starts at 0, a ratio reaches 100 %", () => {
  const bytes = { min: 0, custom: {} };
  assert.deepEqual(yRange(bytes, false, 0, 0), [0, 1]);  // all zero: 0 to 1, never -1 B
  assert.deepEqual(yRange(bytes, false, 5, 9), [0, 9]);
  const ratio = { min: 0, custom: { axisSoftMax: 1 } };
  assert.deepEqual(yRange(ratio, false, 0, 0), [0, 1]);  // never -100 % to 100 %
  assert.deepEqual(yRange(ratio, false, 0.02, 0.03), [0, 1]);
  assert.deepEqual(yRange(ratio, false, 0.5, 1.4), [0, 1.4]);  // soft: the data may go further
  assert.deepEqual(yRange({ custom: {} }, false, 40, 40), [39, 41]);  // no bounds: room around a flat line
  assert.deepEqual(yRange({ custom: {} }, true, 0, 0), [0, 1]);
});

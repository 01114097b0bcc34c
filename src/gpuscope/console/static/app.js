// The console page: a dashboard (variables, time picker, auto-refresh, panels on Grafana's 24-column grid,
// links that carry variables and time), the alerts page, or the list of dashboards. Its state lives in the URL,
// as Grafana's does (/d/<uid>?from=now-3h&to=now&var-cluster=gpu-a&refresh=1m), so a view can be shared.
import { el, renderPanel } from "./panels.js";
import { renderAlerts } from "./alerts.js";

const TIME_OPTIONS = [
  ["now-15m", "Last 15 minutes"], ["now-30m", "Last 30 minutes"], ["now-1h", "Last 1 hour"],
  ["now-3h", "Last 3 hours"], ["now-6h", "Last 6 hours"], ["now-12h", "Last 12 hours"],
  ["now-24h", "Last 24 hours"], ["now-2d", "Last 2 days"], ["now-7d", "Last 7 days"],
];
const REFRESH_OPTIONS = ["off", "5s", "10s", "30s", "1m", "5m", "15m"];
const ALL = "$__all";
const CELL = 30;
const MARGIN = 8;

// The token the server put in the page: every POST carries it back (a page elsewhere cannot read it).
const TOKEN = document.querySelector('meta[name="gpuscope-token"]')?.content || "";
// Names this page's loads: every panel request of one load carries PAGE:generation, and the server ends them all
// by one deadline (the browser sends six at a time: against a hung Prometheus, one timeout per six panels).
const PAGE = Math.random().toString(36).slice(2, 12);

async function api(path, body) {
  const response = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json", "X-Gpuscope-Token": TOKEN }, body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error || `${path}: HTTP ${response.status}`);
  return answer;
}
export { api };

// The page has settled: the tests and the benchmark wait for this, never for wall-clock time.
export function settled() {
  document.body.dataset.readyMs = String(Math.round(performance.now()));  // since navigation started
  document.body.dataset.loads = String(Number(document.body.dataset.loads || 0) + 1);
  document.body.dataset.state = "ready";
}

function durationMs(text) {
  const m = /^(\d+)(s|m|h|d)$/.exec(text || "");
  return m ? Number(m[1]) * { s: 1e3, m: 6e4, h: 36e5, d: 864e5 }[m[2]] : 0;
}

const state = {
  uid: null, model: null, from: "now-1h", to: "now", refresh: "off",
  requested: {}, variables: [], timer: null, generation: 0, expanded: new Set(), charts: [],
};

function readUrl() {
  const params = new URLSearchParams(location.search);
  const requested = {};
  for (const [key, value] of params) {
    if (key.startsWith("var-")) (requested[key.slice(4)] ||= []).push(value);
  }
  return { params, requested };
}

function viewQuery(extra = {}) {
  const q = new URLSearchParams();
  q.set("from", state.from);
  q.set("to", state.to);
  if (state.refresh !== "off") q.set("refresh", state.refresh);
  for (const v of state.variables) {
    for (const value of v.all ? [ALL] : v.current) q.append(`var-${v.name}`, value);
  }
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  return q;
}

function pushUrl() {
  history.replaceState(null, "", `${location.pathname}?${viewQuery()}`);
}

function selections() {
  const out = {};
  for (const v of state.variables) out[v.name] = { values: v.current, all: v.all, options: v.options };
  return out;
}

function varText(v, fmt) {
  const values = v.all ? v.options : v.current;
  if (fmt === "queryparam") return (v.all ? [ALL] : v.current).map((x) => `var-${encodeURIComponent(v.name)}=${encodeURIComponent(x)}`).join("&");
  if (fmt === "text") return v.all ? "All" : values.join(" + ");
  return values.join(",");
}

// Links and drill-downs: ${__data.fields.X}, ${__value.raw}, ${__url_time_range}, ${var:queryparam}, $var.
function interpolateLink(url, scope = {}) {
  const byName = Object.fromEntries(state.variables.map((v) => [v.name, v]));
  return url.replace(/\$\{([^}]+)\}|\$(\w+)/g, (whole, braced, bare) => {
    const expr = braced || bare;
    if (expr === "__url_time_range") return `from=${encodeURIComponent(state.from)}&to=${encodeURIComponent(state.to)}`;
    const field = /^__data\.fields(?:\.([\w]+)|\["([^"]+)"\])$/.exec(expr);
    if (field) {
      const value = (scope.fields || {})[field[1] || field[2]];
      return encodeURIComponent(value ?? "");
    }
    if (expr === "__value.raw" || expr === "__value.text") return encodeURIComponent(scope.value ?? "");
    const [name, fmt] = expr.split(":");
    if (byName[name]) return varText(byName[name], fmt);
    return whole;
  });
}

function dashboardHref(link) {
  const [path, query = ""] = link.url.split("?");
  const q = new URLSearchParams(interpolateLink(query));
  if (link.keepTime) { q.set("from", state.from); q.set("to", state.to); }
  if (link.includeVars) {
    for (const v of state.variables) {
      if (q.has(`var-${v.name}`)) continue;
      for (const value of v.all ? [ALL] : v.current) q.append(`var-${v.name}`, value);
    }
  }
  return `${path}?${q}`;
}

function navBar(index) {
  const nav = el("nav", { class: "topnav" }, el("a", { href: "/", class: "brand" }, "gpuscope console"));
  for (const d of index.dashboards) {
    nav.append(el("a", { href: `/d/${d.uid}`, class: d.uid === state.uid ? "active" : "" }, d.title.replace(/^GPU /, "")));
  }
  nav.append(el("a", { href: "/alerts", class: location.pathname === "/alerts" ? "active" : "" }, "Alerts"));
  return nav;
}

function problemBanner(text) {
  return el("div", { class: "banner error", "data-problem": "1" }, text);
}

function home(root, index) {
  document.title = "gpuscope console";
  const list = el("div", { class: "home" }, el("h1", {}, "Dashboards"));
  if (index.problem) list.append(problemBanner(index.problem));
  for (const d of index.dashboards) {
    list.append(el("a", { class: "card", href: `/d/${d.uid}` }, el("b", {}, d.title), el("p", {}, d.description || d.file)));
  }
  list.append(el("p", { class: "muted" }, `Prometheus: ${index.prometheus}`));
  root.append(list);
  settled();
}

function variableControl(v) {
  const label = el("label", { class: "var" }, v.hide === 1 ? null : el("span", {}, v.label));
  const choices = [...(v.includeAll ? [[ALL, "All"]] : []), ...v.options.map((o) => [o, o])];
  if (v.multi) {
    const summary = el("summary", {}, v.all ? "All" : v.current.join(" + ") || "none");
    const box = el("details", { class: "multi", id: `var-${v.name}`, "data-var": v.name }, summary);
    const menu = el("div", { class: "multi-menu" });
    for (const [value, text] of choices) {
      const checked = value === ALL ? v.all : !v.all && v.current.includes(value);
      const input = el("input", { type: "checkbox", value, checked });
      input.addEventListener("change", () => {
        let next;
        if (value === ALL) next = input.checked ? [ALL] : [];
        else {
          const picked = [...menu.querySelectorAll("input:checked")].map((i) => i.value).filter((x) => x !== ALL);
          next = picked;
        }
        changeVariable(v.name, next);
      });
      menu.append(el("label", { class: "multi-option" }, input, text));
    }
    box.append(menu);
    label.append(box);
  } else {
    const select = el("select", { id: `var-${v.name}`, "data-var": v.name });
    for (const [value, text] of choices) {
      select.append(el("option", { value, selected: value === ALL ? v.all : !v.all && v.current[0] === value }, text));
    }
    select.addEventListener("change", () => changeVariable(v.name, [select.value]));
    label.append(select);
  }
  if (v.error) label.append(el("span", { class: "var-error", title: v.error }, "⚠"));
  if (v.hide === 2) label.style.display = "none";
  return label;
}

async function resolveVariables() {
  const answer = await api("/api/variables", { uid: state.uid, from: state.from, to: state.to, vars: state.requested });
  state.variables = answer.variables;
  state.requested = Object.fromEntries(state.variables.map((v) => [v.name, v.all ? [ALL] : v.current]));
  const bar = document.getElementById("variables");
  bar.replaceChildren(...state.variables.filter((v) => v.type !== "constant").map(variableControl));
  for (const v of state.variables) {
    if (v.error) console.warn(`variable ${v.name}: ${v.error}`);
  }
  pushUrl();
  renderLinks();
}

async function changeVariable(name, values) {
  state.requested[name] = values;
  await resolveVariables();
  await loadPanels();
}

function renderLinks() {
  const box = document.getElementById("dash-links");
  if (!box) return;
  box.replaceChildren(...(state.model.links || []).filter((l) => l.type === "link" && l.url)
    .map((l) => el("a", { class: "dash-link", href: dashboardHref(l), title: l.tooltip || "" }, `↗ ${l.title}`)));
}

function layoutPanels() {
  const out = [];
  for (const p of state.model.panels || []) {
    out.push(p);
    if (p.type === "row" && p.collapsed && state.expanded.has(p.id)) out.push(...(p.panels || []));
  }
  return out;
}

function panelShell(p) {
  const g = p.gridPos || { x: 0, y: 0, w: 12, h: 8 };
  const style = {
    left: `calc(${(g.x / 24) * 100}% + ${MARGIN / 2}px)`, width: `calc(${(g.w / 24) * 100}% - ${MARGIN}px)`,
    top: `${g.y * (CELL + MARGIN)}px`, height: `${g.h * CELL + (g.h - 1) * MARGIN}px`,
  };
  if (p.type === "row") {
    const header = el("div", { class: "row-header", style: { ...style, height: `${CELL}px` }, "data-row": p.title },
      p.collapsed ? (state.expanded.has(p.id) ? "▾ " : "▸ ") : "", p.title || "");
    if (p.collapsed) {
      header.addEventListener("click", () => {
        if (state.expanded.has(p.id)) state.expanded.delete(p.id); else state.expanded.add(p.id);
        drawGrid();
        loadPanels();
      });
    }
    return header;
  }
  const title = el("div", { class: "panel-title" }, el("span", { class: "panel-name" }, p.title || ""));
  if (p.description) title.append(el("span", { class: "info", tabIndex: 0, title: p.description, "data-description": p.description }, "i"));
  const status = el("span", { class: "panel-status" });
  title.append(status);
  const body = el("div", { class: "panel-body" });
  return el("section", { class: "panel", style, "data-panel-id": p.id, "data-title": p.title || "", "data-type": p.type, "data-state": "loading" },
    title, body);
}

function drawGrid() {
  const grid = document.getElementById("grid");
  for (const c of state.charts) c.destroy();
  state.charts = [];
  const panels = layoutPanels();
  grid.replaceChildren(...panels.map(panelShell));
  const bottom = Math.max(0, ...panels.map((p) => (p.gridPos ? p.gridPos.y + (p.type === "row" ? 1 : p.gridPos.h) : 0)));
  grid.style.height = `${bottom * (CELL + MARGIN)}px`;
}

async function loadPanel(section, panel, generation) {
  const body = section.querySelector(".panel-body");
  const status = section.querySelector(".panel-status");
  let data;
  try {
    data = await api("/api/panel", {
      uid: state.uid, panel: panel.id, from: state.from, to: state.to, vars: selections(), width: Math.round(body.clientWidth),
      load: `${PAGE}:${generation}`,
    });
  } catch (err) {
    data = { errors: [String(err.message || err)], series: [] };
  }
  if (generation !== state.generation) return;
  const ctx = { charts: state.charts, link: interpolateLink };
  let result;
  try {
    result = renderPanel(body, panel, data, ctx);
  } catch (err) {
    data.errors = [...(data.errors || []), `could not draw: ${err.message}`];
    result = "error";
  }
  status.replaceChildren();
  if (data.errors && data.errors.length) {
    const text = data.errors.join("\n");
    status.append(el("span", { class: "panel-error", title: text }, "⚠"));
    if (result === "error" && !body.querySelector(".chart, table, .stats, .bars, .heatmap, .status-history")) {
      body.replaceChildren(el("div", { class: "panel-message error" }, text));
    }
  }
  section.dataset.state = result;
  section.dataset.errors = (data.errors || []).join("\n");
  section.dataset.queries = (data.queries || []).length;
  section.dataset.serverMs = data.elapsed_ms ?? "";
}

async function loadPanels() {
  state.generation += 1;
  const generation = state.generation;
  const started = performance.now();
  document.body.dataset.state = "loading";
  const byId = new Map();
  for (const p of layoutPanels()) byId.set(String(p.id), p);
  const sections = [...document.querySelectorAll("#grid section.panel")];
  for (const s of sections) s.dataset.state = "loading";
  await Promise.all(sections.map((s) => loadPanel(s, byId.get(s.dataset.panelId), generation)));
  if (generation !== state.generation) return;
  document.body.dataset.loadMs = String(Math.round(performance.now() - started));
  settled();
}

function setRefresh() {
  if (state.timer) clearInterval(state.timer);
  state.timer = null;
  const ms = durationMs(state.refresh);
  if (ms) state.timer = setInterval(() => { if (document.body.dataset.state === "ready") loadPanels(); }, ms);
}

function timeControls() {
  const range = el("select", { id: "time-range", title: "Time range" });
  const known = TIME_OPTIONS.some(([v]) => v === state.from) || state.to !== "now";
  // an epoch start (a young local stack opens on its whole life) reads as a clock time, not 13 digits
  const since = /^[0-9]+$/.test(state.from) && state.to === "now" ? `Since ${new Date(Number(state.from)).toLocaleTimeString()}` : null;
  if (!known) range.append(el("option", { value: state.from, selected: true }, since || `${state.from} to ${state.to}`));
  for (const [value, text] of TIME_OPTIONS) range.append(el("option", { value, selected: value === state.from && state.to === "now" }, text));
  range.addEventListener("change", async () => {
    state.from = range.value;
    state.to = "now";
    await resolveVariables();
    await loadPanels();
  });
  const refresh = el("select", { id: "refresh", title: "Auto-refresh" });
  for (const value of REFRESH_OPTIONS) refresh.append(el("option", { value, selected: value === state.refresh }, value === "off" ? "Refresh off" : `Every ${value}`));
  refresh.addEventListener("change", () => { state.refresh = refresh.value; setRefresh(); pushUrl(); });
  const now = el("button", { id: "refresh-now", title: "Refresh now" }, "⟳");
  now.addEventListener("click", () => loadPanels());
  return el("div", { class: "time" }, range, refresh, now);
}

async function dashboardPage(root, index, uid) {
  const meta = index.dashboards.find((d) => d.uid === uid);
  if (!meta) {
    root.append(problemBanner(`no dashboard ${uid} in the bundle (dashboards: ${index.dashboards.map((d) => d.uid).join(", ") || "none"})`));
    settled();
    return;
  }
  state.model = await api(`/api/dashboards/${encodeURIComponent(uid)}`);
  const { params, requested } = readUrl();
  const time = state.model.time || {};
  state.from = params.get("from") || time.from || "now-1h";
  state.to = params.get("to") || time.to || "now";
  state.refresh = params.get("refresh") || state.model.refresh || "off";
  if (!REFRESH_OPTIONS.includes(state.refresh)) state.refresh = "off";
  state.requested = requested;
  document.title = `${state.model.title} · gpuscope console`;
  root.append(
    el("header", { class: "dash-header" },
      el("h1", { title: state.model.description || "" }, state.model.title),
      el("div", { id: "dash-links", class: "dash-links" }), timeControls()),
    el("div", { id: "variables", class: "variables" }),
    el("div", { id: "grid", class: "grid" }),
  );
  await resolveVariables();
  drawGrid();
  setRefresh();
  await loadPanels();
}

async function main() {
  const root = document.getElementById("app");
  document.body.dataset.state = "loading";
  let index;
  try {
    index = await api("/api/dashboards");
  } catch (err) {
    root.append(problemBanner(`the console server did not answer: ${err.message}`));
    settled();
    return;
  }
  const match = /^\/d\/([^/]+)/.exec(location.pathname);
  state.uid = match ? decodeURIComponent(match[1]) : null;
  document.body.prepend(navBar(index));
  if (index.problem && state.uid) root.append(problemBanner(index.problem));
  if (location.pathname === "/alerts") await renderAlerts(root, index);
  else if (state.uid) await dashboardPage(root, index, state.uid);
  else home(root, index);
}

window.addEventListener("resize", () => { if (state.model) { drawGrid(); loadPanels(); } });
main();

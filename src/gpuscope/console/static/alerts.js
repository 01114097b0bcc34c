// The alerts page: Alertmanager's active alerts grouped by owner and severity, with their runbooks; in the local
// stack also the notification log (what the receivers got) and buttons for the faults `gpuscope inject` offers.
import { api, settled } from "./app.js";
import { el } from "./panels.js";

// An http(s) URL by the browser's own parser (relative ones resolve against the console), else null: a runbook_url
// of javascript:, data: or any other scheme is shown as text, never made a link.
function httpUrl(text) {
  try {
    const url = new URL(text, location.href);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

function runbook(a) {
  const href = a.runbook_url ? httpUrl(a.runbook_url) : null;
  if (href) return el("a", { href, target: "_blank", rel: "noopener noreferrer", class: "runbook" }, "runbook");
  const text = a.runbook_url || a.runbook_text;
  return text ? el("span", { class: "runbook-text muted", title: "not an http(s) link" }, text) : "";
}

function alertRow(a) {
  const where = Object.entries(a.where).map(([k, v]) => `${k}=${v}`).join(" ");
  return el("tr", { class: "alert", "data-alertname": a.alertname, "data-state": a.state },
    el("td", {}, el("b", {}, a.alertname)),
    el("td", { class: "muted" }, where),
    el("td", {}, a.summary),
    el("td", {}, a.state + (a.inhibitedBy.length ? " (inhibited)" : "")),
    el("td", {}, new Date(a.startsAt).toLocaleTimeString()),
    el("td", {}, runbook(a)));
}

async function drawAlerts(box) {
  const answer = await api("/api/alerts");
  box.replaceChildren();
  if (answer.error) box.append(el("div", { class: "banner error" }, answer.error));
  if (!answer.groups.length && !answer.error) box.append(el("p", { class: "muted", id: "no-alerts" }, "No alerts firing."));
  for (const g of answer.groups) {
    box.append(el("section", { class: "alert-group", "data-owner": g.owner, "data-severity": g.severity },
      el("h2", {}, el("span", { class: `sev sev-${g.severity}` }, g.severity), ` ${g.owner} · ${g.alerts.length}`),
      el("table", { class: "grid-table" }, el("tbody", {}, ...g.alerts.map(alertRow)))));
  }
}

async function drawNotifications(box) {
  const answer = await api("/api/notifications");
  box.replaceChildren(el("h2", {}, "Notification log"));
  if (answer.error) box.append(el("div", { class: "banner error" }, answer.error));
  const rows = answer.notifications.map((n) => el("tr", { class: "notification" },
    el("td", {}, new Date(n.received_at * 1000).toLocaleTimeString()),
    el("td", {}, n.receiver), el("td", {}, n.status),
    el("td", {}, [...new Set((n.alerts || []).map((a) => a.labels.alertname))].join(", "))));
  box.append(rows.length ? el("table", { class: "grid-table" }, el("tbody", {}, ...rows)) : el("p", { class: "muted" }, "No notifications yet."));
}

async function faultForm(box) {
  const { faults } = await api("/api/faults");
  const kind = el("select", { id: "fault-kind" }, ...Object.entries(faults).map(([k, text]) => el("option", { value: k, title: text }, k)));
  const field = (id, placeholder, value = "") => el("input", { id, placeholder, value, size: 8 });
  const cluster = field("fault-cluster", "cluster");
  const node = field("fault-node", "node", "0");
  const gpu = field("fault-gpu", "GPU");
  const replica = field("fault-replica", "replica", "a");
  const message = el("span", { id: "fault-message", class: "muted" });
  const send = async (body) => {
    try {
      const answer = await api("/api/faults", body);
      message.textContent = answer.message;
    } catch (err) {
      message.textContent = err.message;
    }
  };
  const inject = el("button", { id: "fault-inject" }, "Inject");
  inject.addEventListener("click", () => send({
    fault: kind.value, cluster: cluster.value || null, node: node.value || null,
    gpu: gpu.value === "" ? null : Number(gpu.value), replica: replica.value || "a",
  }));
  const clear = el("button", { id: "fault-clear" }, "Clear all faults");
  clear.addEventListener("click", () => send({ fault: "clear" }));
  // every box says what it is: a visible label around it (a placeholder vanishes once the box holds a value)
  const labelled = (text, control) => el("label", { class: "field" }, el("span", { class: "field-name" }, text), control);
  box.append(el("h2", {}, "Inject a fault"), el("div", { class: "faults" },
    labelled("Fault", kind), labelled("Cluster", cluster), labelled("Node (index)", node), labelled("GPU (index)", gpu),
    labelled("Replica", replica), inject, clear, message));
}

export async function renderAlerts(root, index) {
  document.title = "Alerts · gpuscope console";
  const alerts = el("div", { id: "alerts" });
  root.append(el("header", { class: "dash-header" }, el("h1", {}, "Alerts"),
    el("span", { class: "muted" }, index.alertmanager ? `from ${index.alertmanager}` : "")), alerts);
  const local = index.local_stack;
  const notes = el("div", { id: "notifications" });
  const faults = el("div", { id: "faults" });
  if (local) root.append(faults, notes);
  const refresh = async () => {
    await drawAlerts(alerts);
    if (local) await drawNotifications(notes);
    settled();
  };
  if (local) await faultForm(faults);
  await refresh();
  setInterval(refresh, 5000);
}

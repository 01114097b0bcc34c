"""The console in a real headless Chromium against a real ``gpuscope up --fast`` stack.

One stack, one console (the one ``gpuscope up`` starts) and one browser for the whole module; the tests run in
file order: healthy-stack checks first, then a thermal fault is injected and followed to the L4 panel and the
alerts page. Every wait is for a condition in the page.
"""

from __future__ import annotations

import contextlib
import json
import math
import shlex
from collections.abc import Iterator
from functools import partial
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from gpuscope.runner.view import tour
from tests.support.browser import WORKLOAD_PANELS, errors, loaded, panels, running_chromium, wait
from tests.support.dashboards import panels as model_panels
from tests.support.net import wait_for
from tests.support.upstack import UpStack, cli, running_stack

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(600)]

DASHBOARDS = (
    "local-l1-fleet",
    "local-l2-cluster",
    "local-l3-node",
    "local-l4-gpu",
    "local-l5-workload",
    "local-pipeline",
    "local-efficiency",
    "local-fabric",
)
# L2's health-event tables list faults, of which there are none yet: each says "none" (0), not "No data".
NONE_WHEN_HEALTHY = (
    "Last XID per GPU",
    "ECC and row-remap events",
    "Lost GPUs",
    "Thermal events",
    "Profiling metrics stale",
)
# The workload half (who holds which GPU, and how well they use it), per dashboard: None is every panel.
H100 = "NVIDIA H100 80GB HBM3"
RED = "rgb(242, 73, 92)"  # Grafana's "red", the L4 temperature panel's top threshold colour
HOT = ("gpu-b", "1", "3")  # cluster, node, GPU of the thermal fault (distinct from test_up's)


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[UpStack]:
    with running_stack(tmp_path_factory.mktemp("console") / "data") as s:
        yield s


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    with running_chromium() as driver:
        yield driver


def open_page(browser: webdriver.Chrome, url: str) -> None:
    browser.get(url)
    wait(browser, loaded, what=f"{url} to finish loading")


def console(stack: UpStack) -> str:
    return stack.url("console")


def test_up_reports_the_console_url(stack: UpStack) -> None:
    assert stack.status()["urls"]["console"] == console(stack)


def test_every_dashboard_loads_without_javascript_errors(stack: UpStack, browser: webdriver.Chrome) -> None:
    wait(browser, lambda _: stack.status().get("floor_green_after_seconds") is not None, what="the Phase 1 floor")
    errors(browser)  # start from an empty log
    for uid in DASHBOARDS:
        open_page(browser, f"{console(stack)}/d/{uid}")
        found = panels(browser)
        assert found, f"{uid}: no panels drawn"
        failed = [p for p in found if p["state"] not in ("data", "empty")]
        assert not failed, f"{uid}: {failed}"
        assert errors(browser) == [], uid
    open_page(browser, f"{console(stack)}/alerts")
    assert errors(browser) == []


def test_every_l2_panel_shows_data(stack: UpStack, browser: webdriver.Chrome) -> None:
    def stat(driver: webdriver.Chrome, title: str) -> float:
        value = driver.execute_script(
            f"const s = document.querySelector(`section.panel[data-title='{title}'] .stat`);"
            " return s ? s.dataset.value : null"
        )
        return float(value) if value not in (None, "") else float("nan")

    # rate and 5m-average rules need a few evaluations before they have points, and the recorded node and GPU
    # counts a few more on a loaded machine: reload until every panel has its data and the fleet is all there
    def all_there(driver: webdriver.Chrome) -> list[dict[str, Any]] | None:
        driver.get(f"{console(stack)}/d/local-l2-cluster?from=now-15m&to=now")
        wait(driver, loaded)
        found = panels(driver)
        missing = [p for p in found if p["state"] != "data"]
        complete = stat(driver, "GPUs reporting") == 48 and stat(driver, "Nodes reporting") == 6
        # the node table's 5 m columns come from rules evaluated once a (sped-up) minute, after the GPU counts
        filled = driver.execute_script(
            "const t = document.querySelector(`section.panel[data-title='Nodes'] table`); if (!t) return false;"
            " const cols = [...t.querySelectorAll('th')].map(h => h.textContent);"
            " const want = [cols.indexOf('activity'), cols.indexOf('power')];"
            " const rows = [...t.querySelectorAll('tbody tr')];"
            " return rows.length === 6 && rows.every(r => want.every(i => i >= 0 && r.children[i].textContent !== ''))"
        )
        return None if missing or not complete or not filled else found

    found = wait(browser, all_there, timeout=120, what="every L2 panel with data, 48 GPUs on 6 nodes")
    model = json.loads((stack.data_dir / "bundle/grafana/dashboards/l2-cluster.json").read_text())
    assert sorted(p["id"] for p in found) == sorted(p["id"] for p in model["panels"] if p["type"] != "row")
    nones = browser.execute_script(
        "return Object.fromEntries(arguments[0].map(s => [s, [...document.querySelectorAll("
        "`section.panel[data-title='${s}'] tbody td`)].map(c => c.textContent).filter(t => t)]))",
        list(NONE_WHEN_HEALTHY),
    )
    assert nones == {title: ["none"] for title in NONE_WHEN_HEALTHY}, nones
    # tables: per-column units from the overrides, value mappings with their colours as cell backgrounds
    table = browser.execute_script(
        "const t = s => document.querySelector(`section.panel[data-title='${s}'] table`);"
        " const cols = x => [...t(x).querySelectorAll('th')].map(h => h.textContent);"
        " const cells = x => [...t(x).querySelectorAll('tbody tr')].map(r => [...r.children].map(c =>"
        " [c.textContent, getComputedStyle(c).backgroundColor]));"
        " return {nodes: [cols('Nodes'), cells('Nodes')], status: [cols('GPU status (node x GPU)'),"
        " cells('GPU status (node x GPU)')]};"
    )
    columns, rows = table["nodes"]
    assert len(rows) == 6
    activity, power = columns.index("activity"), columns.index("power")
    assert all(r[activity][0].endswith("%") and r[power][0].endswith("W") for r in rows), rows
    columns, rows = table["status"]
    assert columns[1:] == [str(g) for g in range(8)] and len(rows) == 6
    assert {c[0] for r in rows for c in r[1:]} == {"OK"}  # the mapping's text for 0
    assert {c[1] for r in rows for c in r[1:]} == {"rgb(115, 191, 105)"}  # and its colour: Grafana's green
    assert errors(browser) == []


def test_the_workload_half_has_data_and_the_report_bills_the_teams(
    stack: UpStack, browser: webdriver.Chrome, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Simulated kubelets and Slurm job-mapping directories tell the exporters who holds which GPU: L1's allocation,
    L5's pods and jobs, every Efficiency panel and `gpuscope report`'s team table have data on a healthy stack."""
    for uid, titles in WORKLOAD_PANELS.items():

        def filled(driver: webdriver.Chrome, uid: str = uid, titles: tuple[str, ...] | None = titles) -> bool:
            driver.get(f"{console(stack)}/d/{uid}?from=now-15m&to=now")
            wait(driver, loaded)
            found = [p for p in panels(driver) if titles is None or p["title"] in titles]
            return bool(found) and all(p["state"] == "data" for p in found)

        wait(browser, filled, timeout=180, what=f"{uid}: the workload panels with data")
    # the live view's tour names the report command for this stack: run it as shown, as JSON
    step = next(line for line in tour(stack.status()).splitlines() if line.startswith("4. gpuscope report"))
    shown = shlex.split(step.removeprefix("4. ").split("   ")[0])
    out = tmp_path_factory.mktemp("report") / "report.json"

    def reported() -> bool:
        done = cli(*shown[1:], "-o", str(out), "--format", "json", "--gpu-hour-cost", f"{H100}=4")
        # a stack younger than one step has no step with data yet: the report says so, exit 2
        assert done.returncode in (0, 2), done.stderr
        return done.returncode == 0

    wait_for(reported, timeout=60, interval=2, what="`gpuscope report` as the tour shows it")
    report = json.loads(out.read_text())
    groups = {g["group"]: g for g in report["groups"]}
    # the teams mix: ml busy, vision holding GPUs it does not use, a notebook sitting on memory
    assert {"ml", "vision", "notebooks", "serving", "research"} <= set(groups), sorted(groups)
    assert all(g["gpu_hours_held"] > 0 for g in groups.values())
    assert groups["ml"]["efficiency"] > 0.5
    for idle in ("vision", "notebooks"):
        assert groups[idle]["efficiency"] < 0.05 and groups[idle]["idle_cost"] > 0, groups[idle]
    held = sum(g["gpu_hours_held"] for g in groups.values())
    gpus = sum(report["capacity_by_model"].values())
    assert not math.isnan(held) and held <= gpus * 15 / 60 + 1e-6  # never more than the GPUs could be held
    assert errors(browser) == []


def _explained(driver: webdriver.Chrome, url: str, says_why: set[int]) -> bool:
    return not _unexplained(driver, url, says_why)


def _unexplained(driver: webdriver.Chrome, url: str, says_why: set[int]) -> list[dict[str, Any]]:
    """The panels of the page at ``url`` without data whose description does not say when they are empty."""
    driver.get(url)
    wait(driver, loaded)
    return [p for p in panels(driver) if p["state"] != "data" and not (p["state"] == "empty" and p["id"] in says_why)]


def test_every_panel_has_data_or_says_why_it_is_empty(stack: UpStack, browser: webdriver.Chrome) -> None:
    """On a healthy stack every panel of every dashboard has data, or its description says when it is empty (a
    table of faults while there are none, InfiniBand without an HCA)."""
    described = {}
    for path in (stack.data_dir / "bundle/grafana/dashboards").glob("*.json"):
        model = json.loads(path.read_text())
        described[model["uid"]] = {p["id"]: p.get("description", "") for p in model_panels(model)}
    for uid in DASHBOARDS:
        url = f"{console(stack)}/d/{uid}?from=now-15m&to=now"
        says_why = {i for i, text in described[uid].items() if "Empty" in text}
        with contextlib.suppress(TimeoutException):
            wait(browser, partial(_explained, url=url, says_why=says_why), timeout=90, what=uid)
        assert _unexplained(browser, url, says_why) == [], f"{uid}: panels without data or a reason"
    assert errors(browser) == []


def test_drill_down_from_l2_lands_on_l3_with_the_node_set(stack: UpStack, browser: webdriver.Chrome) -> None:
    open_page(browser, f"{console(stack)}/d/local-l2-cluster?from=now-30m&to=now&var-cluster=gpu-b")
    link = browser.find_element(By.CSS_SELECTOR, "section.panel[data-title=Nodes] td a.data-link")
    host = link.text
    assert host.startswith("gpu-b-")
    link.click()
    wait(browser, lambda d: urlparse(d.current_url).path == "/d/local-l3-node" and loaded(d), what="L3 to load")
    query = parse_qs(urlparse(browser.current_url).query)
    assert query["from"] == ["now-30m"] and query["var-cluster"] == ["gpu-b"] and query["var-node"] == [host]
    assert Select(browser.find_element(By.ID, "var-node")).first_selected_option.get_attribute("value") == host
    assert all(p["state"] in ("data", "empty") for p in panels(browser))
    assert errors(browser) == []


def _options(browser: webdriver.Chrome, name: str) -> list[str]:
    return [o.get_attribute("value") or "" for o in Select(browser.find_element(By.ID, f"var-{name}")).options]


def test_variables_chain_cluster_node_gpu(stack: UpStack, browser: webdriver.Chrome) -> None:
    open_page(browser, f"{console(stack)}/d/local-l4-gpu")
    assert any(n.startswith("gpu-a-") for n in _options(browser, "node"))
    # pick one cluster in the multi-value picker: the node list narrows to it, the GPU list to the node
    browser.find_element(By.CSS_SELECTOR, "#var-cluster summary").click()
    browser.find_element(By.CSS_SELECTOR, "#var-cluster input[value='gpu-b']").click()
    wait(browser, lambda d: "var-cluster=gpu-b" in d.current_url and loaded(d, 2), what="L4 for gpu-b")
    nodes = _options(browser, "node")
    assert nodes == ["gpu-b-a100-00", "gpu-b-a100-01"]
    expected = {
        r["metric"]["UUID"]
        for r in stack.query("global", 'DCGM_FI_DEV_GPU_TEMP{cluster="gpu-b",Hostname="gpu-b-a100-00"}')
    }
    assert set(_options(browser, "gpu")) == expected and len(expected) == 8
    assert "var-node=gpu-b-a100-00" in browser.current_url


def _hot_uuid(stack: UpStack) -> str:
    cluster, node, gpu = HOT
    host = f"{cluster}-a100-{int(node):02d}"
    result = stack.query("global", f'DCGM_FI_DEV_GPU_TEMP{{cluster="{cluster}",Hostname="{host}",gpu="{gpu}"}}')
    return str(result[0]["metric"]["UUID"])


def test_thermal_fault_turns_the_l4_temperature_red(stack: UpStack, browser: webdriver.Chrome) -> None:
    cluster, node, gpu = HOT
    uuid = _hot_uuid(stack)
    host = f"{cluster}-a100-{int(node):02d}"
    stack.inject("thermal", "--cluster", cluster, "--node", node, "--gpu", gpu)
    open_page(
        browser,
        f"{console(stack)}/d/local-l4-gpu?from=now-15m&to=now&refresh=5s"
        f"&var-cluster={cluster}&var-node={host}&var-gpu={uuid}",
    )
    legend = "section.panel[data-title=Temperature] .legend-item[data-series=GPU_TEMP]"
    # one script reads the value and its colour together: auto-refresh redraws the legend every 5 s
    read = (
        f"const i = document.querySelector({json.dumps(legend)}); if (!i) return null;"
        " const v = i.querySelector('.legend-last');"
        " return [i.dataset.last, getComputedStyle(v).color, v.textContent];"
    )

    def hot(driver: webdriver.Chrome) -> list[str] | None:
        shown = driver.execute_script(read)
        return shown if shown and shown[0] and float(shown[0]) >= 85 else None

    last, colour, text = wait(browser, hot, timeout=120, what="the GPU temperature to cross 85 °C on L4")
    assert colour == RED, (last, colour)
    assert text.endswith("°C")
    assert errors(browser) == []


def test_alerts_page_lists_the_injected_alert(stack: UpStack, browser: webdriver.Chrome) -> None:
    def firing() -> bool:
        return any(
            a["labels"]["alertname"] == "GPUThermalThrottling" and a["labels"].get("Hostname") == "gpu-b-a100-01"
            for a in stack.am_alerts()
        )

    # the page reads Alertmanager on load and every 5 s: open it once Alertmanager has the alert
    wait_for(firing, timeout=120, interval=0.2, what="GPUThermalThrottling in Alertmanager")
    open_page(browser, f"{console(stack)}/alerts")
    row = "section.alert-group[data-owner=infra][data-severity=ticket] tr[data-alertname=GPUThermalThrottling]"
    # read in one script: the page redraws its alert list every 5 s
    read = (
        f"const r = document.querySelector({json.dumps(row)}); if (!r) return null;"
        " const a = r.querySelector('a.runbook'); return [r.textContent, a ? a.href : ''];"
    )
    text, runbook = wait(browser, lambda d: d.execute_script(read), timeout=30, what="GPUThermalThrottling listed")
    assert "Hostname=gpu-b-a100-01" in text and "gpu=3" in text
    assert runbook.startswith("http")
    # the local stack's fault buttons reach the stack, as `gpuscope inject` does; every box says what it is
    unlabelled = browser.execute_script(
        "return [...document.querySelectorAll('.faults input, .faults select')]"
        ".filter(c => !(c.labels.length && c.labels[0].textContent.trim())).map(c => c.id)"
    )
    assert unlabelled == []
    Select(browser.find_element(By.ID, "fault-kind")).select_by_value("xid")
    for field, value in (("fault-cluster", "gpu-a"), ("fault-node", "2"), ("fault-gpu", "5")):
        box = browser.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)
    browser.find_element(By.ID, "fault-inject").click()
    message = "xid injected on gpu-a-h100-02 GPU 5"
    wait(browser, lambda d: d.find_element(By.ID, "fault-message").text == message, timeout=30, what=message)
    assert errors(browser) == []

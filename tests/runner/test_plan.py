"""The local plan: a production spec rewritten to run on loopback without ever reaching production."""

from __future__ import annotations

import socket
from pathlib import Path

import yaml
from rich.console import Console

from gpuscope.bundle import write_bundle
from gpuscope.generate.compose import generate_bundle
from gpuscope.runner.children import build_children
from gpuscope.runner.plan import LocalPlan, PortPlanner, _above_ephemeral, builtin_spec_text, plan_stack
from gpuscope.runner.view import render
from gpuscope.spec.load import LoadedSpec, load_fleet, parse_fleet
from tests.support.specs import ONE, fleet


def _load(text: str) -> LoadedSpec:
    return parse_fleet(text, "<test>", Path.cwd())


def test_builtin_fleet_is_two_clusters_with_a_mig_node() -> None:
    plan = plan_stack(_load(builtin_spec_text()).spec, fast=False)
    assert [(n.cluster, n.config.model.key, n.config.gpus, bool(n.config.mig_layout)) for n in plan.nodes] == [
        ("gpu-a", "h100", 8, True),
        ("gpu-a", "h100", 8, False),
        ("gpu-a", "h100", 8, False),
        ("gpu-a", "h100", 8, False),
        ("gpu-b", "a100", 8, False),
        ("gpu-b", "a100", 8, False),
    ]
    assert plan.global_kind == "victoriametrics" and "real store" in plan.global_name
    ports: list[int | None] = [*plan.prometheus.values(), plan.global_port, plan.alertmanager_port]
    ports += plan.pushgateway.values()
    ports.append(plan.vmalert_port)
    assert len(set(ports)) == len(ports) == 9
    # each cluster scrapes a gateway of its own: one two clusters scraped would list every pushed job twice
    gateways = [c.endpoints.pushgateway for c in plan.spec.clusters]
    assert gateways == [f"127.0.0.1:{plan.pushgateway[c.name]}" for c in plan.spec.clusters]
    assert len(set(gateways)) == len(plan.spec.clusters)
    assert len({n.target for n in plan.nodes}) == 6  # one address per node, so targets stay distinct


def test_the_example_nvl72_rack_runs_as_18_trays_of_one_nvlink_domain() -> None:
    """docs/examples/nvl72-rack.yaml: the trays of a rack share one NVLink domain (the simulator gives them one
    cluster UUID and clique); the built-in fleet's nodes stay each their own domain (test above)."""
    example = Path(__file__).resolve().parents[2] / "docs" / "examples" / "nvl72-rack.yaml"
    plan = plan_stack(load_fleet(str(example)).spec, fast=False)
    assert [(n.config.model.key, n.config.gpus) for n in plan.nodes] == [("gb200", 4)] * 18
    assert {n.config.rack for n in plan.nodes} == {"nvl72-rack-a"}
    assert {n.config.rack for n in plan_stack(_load(builtin_spec_text()).spec, fast=False).nodes} == {""}


def test_production_receivers_and_endpoints_are_replaced() -> None:
    loaded = _load(fleet(ONE))
    plan = plan_stack(loaded.spec, fast=False)
    bundle = generate_bundle(plan.spec, loaded.collectors, loaded.collectors_csv)
    am = yaml.safe_load(bundle.files["alertmanager/alertmanager.yml"])
    configs = [k for r in am["receivers"] for k in r if k != "name"]
    assert set(configs) == {"webhook_configs"}, "a demo must never page anyone"
    urls = {c["url"] for r in am["receivers"] for c in r.get("webhook_configs", [])}
    assert urls == {f"http://127.0.0.1:{plan.control_port}/webhook/{o}" for o in ("infra", "platform", "workload")}
    prom = yaml.safe_load(bundle.files["clusters/gpu-a/prometheus-a.yml"])
    targets = [t for sc in prom["scrape_configs"] for s in sc.get("static_configs", []) for t in s["targets"]]
    assert all(t.startswith("127.") for t in targets), targets
    assert [a["static_configs"][0]["targets"] for a in prom["alerting"]["alertmanagers"]] == [
        [f"127.0.0.1:{plan.alertmanager_port}"]
    ]


def test_fast_compresses_time_and_thanos_falls_back_to_federation() -> None:
    loaded = _load(fleet(ONE, "long_term_store: thanos\n"))
    slow, fast = plan_stack(loaded.spec, fast=False), plan_stack(loaded.spec, fast=True)
    assert fast.global_kind == slow.global_kind == "federation"
    assert (slow.interval_s, fast.interval_s) == (15.0, 1.0)
    rules = {
        plan.fast: generate_bundle(plan.spec, loaded.collectors, loaded.collectors_csv).files[
            "clusters/gpu-a/rules/gpuscope-alerts.yaml"
        ]
        for plan in (slow, fast)
    }
    assert "for: 5m" in rules[False] and "for: 5m" not in rules[True] and "for: 20s" in rules[True]


def test_a_mimir_spec_keeps_the_receiver_stand_in_named_as_such() -> None:
    plan = plan_stack(_load(fleet(ONE, "long_term_store: mimir\n")).spec, fast=True)
    assert plan.global_kind == "receiver" and plan.vmalert_port is None and "vmalert" not in plan.urls()
    assert plan.global_name == "Prometheus remote-write receiver (a stand-in for Mimir)"


def test_victoriametrics_runs_on_loopback_with_the_bundle_flags(tmp_path: Path) -> None:
    loaded = _load(fleet(ONE, "long_term_store: victoriametrics\nvictoriametrics: {cluster: {vmstorage: 3}}\n"))
    plan = plan_stack(loaded.spec, fast=True)
    bundle = generate_bundle(plan.spec, loaded.collectors, loaded.collectors_csv)
    write_bundle(bundle, str(tmp_path / "bundle"))
    children = build_children(plan, tmp_path, tmp_path / "bundle", tmp_path / "logs")
    server, vmalert = (list(children[n].argv[1:]) for n in ("global", "vmalert"))
    # a cluster version in the spec runs as one node locally; the bundle's flags, moved to loopback and the data dir
    assert f"-httpListenAddr=127.0.0.1:{plan.global_port}" in server and "-dedup.minScrapeInterval=1s" in server
    assert f"-storageDataPath={tmp_path / 'global' / 'victoria-metrics'}" in server
    assert f"-relabelConfig={tmp_path / 'bundle' / 'global' / 'victoriametrics' / 'relabel.yml'}" in server
    assert f"-datasource.url=http://127.0.0.1:{plan.global_port}" in vmalert
    assert f"-notifier.url=http://127.0.0.1:{plan.alertmanager_port}" in vmalert
    assert f"-httpListenAddr=127.0.0.1:{plan.vmalert_port}" in vmalert


def test_the_live_view_names_the_global_store() -> None:
    plan = plan_stack(_load(fleet(ONE, "long_term_store: mimir\n")).spec, fast=True)
    console = Console(width=160, record=True)
    console.print(render({"global_store": plan.global_name, "urls": plan.urls()}))
    text = console.export_text()
    assert "global store" in text and "Prometheus remote-write receiver (a stand-in for Mimir)" in text


def test_one_real_node_exporter_is_labelled_with_every_simulated_node(tmp_path: Path) -> None:
    plan = plan_stack(_load(builtin_spec_text()).spec, fast=True)
    assert plan.node_exporter_port and plan.urls()["node-exporter"] == f"http://127.0.0.1:{plan.node_exporter_port}"
    hs = plan.spec.host_signals
    assert not hs.node_exporter_alerts  # it reports this machine, not a GPU node
    assert (hs.cadvisor_scheme, hs.cadvisor_port, hs.kube_state_metrics_path) == (
        "http",
        plan.nodes[0].port,
        "/sim/kube-state-metrics",
    )
    bundle = tmp_path / "bundle"
    loaded = _load(builtin_spec_text())
    write_bundle(generate_bundle(plan.spec, loaded.collectors, loaded.collectors_csv), str(bundle))
    groups = yaml.safe_load((bundle / "clusters/gpu-b/targets/node-exporter.json").read_text())
    assert groups == [
        {"targets": [f"127.0.0.1:{plan.node_exporter_port}"], "labels": {"Hostname": n.config.hostname}}
        for n in plan.nodes_of("gpu-b")
    ]
    gpu_a = yaml.safe_load((bundle / "clusters/gpu-a/prometheus-a.yml").read_text())
    ksm = next(j for j in gpu_a["scrape_configs"] if j["job_name"] == "kube-state-metrics")
    assert ksm["static_configs"] == [{"targets": [plan.nodes_of("gpu-a")[0].target]}]
    children = build_children(plan, tmp_path, bundle, tmp_path / "logs")
    argv = children["node-exporter"].argv
    assert f"--web.listen-address=127.0.0.1:{plan.node_exporter_port}" in argv and "--collector.infiniband" in argv
    console = Console(width=200, record=True)
    console.print(render({"urls": plan.urls()}))
    text = console.export_text()
    assert "node-exporter is real" in text and "kube-state-metrics and the kubelets' cAdvisor are simulated" in text


def test_the_live_view_tours_the_workload_half_with_the_stacks_own_urls() -> None:
    plan = plan_stack(_load(builtin_spec_text()).spec, fast=True)
    urls = plan.urls()
    console = Console(width=400, record=True)
    console.print(render({"urls": urls, "fleet": plan.spec.name}))
    text = console.export_text()
    for uid in ("local-l1-fleet", "local-l5-workload", "local-efficiency"):
        assert f"{urls['console']}/d/{uid}" in text
    assert f"gpuscope report --prometheus {urls['global']} --from now-15m" in text
    assert "GPUAllocatedButIdle" in text and "job-mapping directory" in text


def _planned_ports(plan: LocalPlan) -> set[int]:
    ports = {*plan.prometheus.values(), plan.global_port, plan.alertmanager_port, *plan.pushgateway.values()}
    ports |= {plan.control_port, plan.console_port, plan.node_exporter_port, plan.remediate_port, plan.nodes[0].port}
    return ports | ({plan.vmalert_port} if plan.vmalert_port else set())


def test_two_stacks_planned_at_once_cannot_collide(tmp_path: Path) -> None:
    """Two ``gpuscope up`` planning together, before either has bound anything, and from the same starting port
    (two planners' random offsets that met): the second skips every port the first reserved."""
    spec = _load(builtin_spec_text()).spec
    first, second = PortPlanner(start=0, directory=tmp_path), PortPlanner(start=0, directory=tmp_path)
    try:
        one = plan_stack(spec, fast=True, port=first)
        two = plan_stack(spec, fast=True, port=second)
        assert len(_planned_ports(one)) == len(_planned_ports(two)) == 14
        assert not _planned_ports(one) & _planned_ports(two)
        # a stack that stopped (or whose process ended) gives its ports back
        first.release()
        three = plan_stack(spec, fast=True, port=PortPlanner(start=0, directory=tmp_path))
        assert _planned_ports(three) & _planned_ports(one)
    finally:
        first.release()
        second.release()


def test_the_exporter_port_is_free_on_every_simulated_nodes_address(tmp_path: Path) -> None:
    """Something listening on 127.20.0.1 only (a simulated node of another stack) leaves 127.0.0.1's port bindable:
    the planner tests the addresses the nodes will listen on."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        planner = PortPlanner(directory=tmp_path)
        port = planner()  # a port free everywhere, then given back for the node to hold
        planner.release()
        taken.bind(("127.20.0.1", port))
        taken.listen()
        start = list(_above_ephemeral()).index(port)
        planner = PortPlanner(start=start, directory=tmp_path)
        try:
            plan = plan_stack(_load(builtin_spec_text()).spec, fast=True, port=planner)
        finally:
            planner.release()
    assert plan.nodes[0].port != port

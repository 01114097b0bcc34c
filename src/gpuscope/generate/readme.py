"""The bundle's README: what each file is, how to apply it, and the budget report (also used by ``budget``)."""

from __future__ import annotations

from gpuscope.generate.budget_report import BudgetReport
from gpuscope.generate.storage import (
    MIMIR_MIN_VERSION,
    THANOS_GRPC_PORT,
    THANOS_HTTP_PORT,
    THANOS_QUERY_HOST,
    mimir_tenants,
)
from gpuscope.spec.fleet import FleetSpec

_DESCRIPTIONS = (
    ("clusters/", "per cluster: Prometheus replica A and B configs, rules, file_sd targets"),
    ("alertmanager/", "routing by owner and severity, inhibitions"),
    ("kubernetes/", "per Kubernetes cluster: exporter DaemonSet, Service, ServiceMonitor, PrometheusRule, ConfigMap"),
    ("global/", "the long-term store of the chosen topology"),
    ("slurm/", "per Slurm cluster: the job-mapping prolog/epilog; with remediation, its systemd unit and policy"),
    ("remediation/", "the remediation policy of every cluster (gpuscope remediate --policy)"),
    ("runbooks/", "one page per alert, linked from its runbook_url"),
    ("grafana/", "dashboards, provisioning, and `dashboards/.lint`: the dashboard-linter rules they skip, and why"),
    ("budget.json", "the budget report below, for automation"),
)


def _human(n: float) -> str:
    for unit, size in (("M", 1e6), ("k", 1e3)):
        if abs(n) >= size:
            return f"{n / size:.1f}{unit}"
    return f"{n:.0f}"


def _mib(n: float) -> str:
    return f"{n / 1048576:.0f} MiB" if n < 1024**3 else f"{n / 1024**3:.1f} GiB"


BUDGET_COLUMNS = (
    "cluster",
    "nodes",
    "GPUs",
    "exporter",
    "workload",
    "node-exporter",
    "rules+scrape+self",
    "head series",
    "of budget",
    "samples/s",
    "head memory",
    "remote write",
    "verdict",
)


def budget_rows(report: BudgetReport) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    for c in report.clusters:
        rows.append(
            (
                c.cluster,
                str(c.nodes),
                str(c.gpus),
                _human(c.exporter_series),
                _human(c.workload_series),
                _human(c.node_exporter_series),
                _human(c.recording_series + c.scrape_series + c.prometheus_series),
                _human(c.head_series),
                f"{c.head_series / report.budget_head_series:.0%}",
                _human(c.samples_per_second),
                _mib(c.head_memory_bytes),
                f"{_human(c.remote_write_samples_per_second)}/s, {_human(c.remote_write_bytes_per_second)}B/s",
                c.verdict,
            )
        )
    return rows


def budget_markdown(report: BudgetReport) -> str:
    lines = ["| " + " | ".join(BUDGET_COLUMNS) + " |", "|" + "---|" * len(BUDGET_COLUMNS)]
    lines += ["| " + " | ".join(row) + " |" for row in budget_rows(report)]
    groups = ["", "| cluster | node group | nodes | GPUs | exporter series per node |", "|---|---|---|---|---|"]
    groups += [
        f"| {g.cluster} | {g.node_group} | {g.nodes} | {g.gpus} | {g.exporter_series_per_node:.0f} |"
        for g in report.node_groups
    ]
    notes = [
        "",
        f"Head memory is Prometheus's RSS at {report.bytes_per_head_series} bytes per head series (measured: ~3 kB of "
        "head data plus Go's GC headroom); remote-write bandwidth assumes "
        f"{report.remote_write_bytes_per_sample:g} bytes per sample on the wire (remote-write 1.0 sends each "
        "sample with its labels); both are `budget:` settings of the fleet spec. Exporter series are counted from "
        "a simulated node of each group rendered by the exporter itself; workload series include pod churn over the "
        "2 h head window.",
        f"Into the long-term store: {_human(report.long_term_samples_per_second)} samples/s, "
        f"{_human(report.long_term_series)} series.",
        "",
        "Mimir tenants against Mimir's default limits:",
        "",
        *(f"- {name}: {verdict}" for name, verdict in report.mimir_verdicts),
    ]
    return "\n".join(lines + groups + notes) + "\n"


# The architecture's decision matrix (what `long_term_store: auto` follows), plus VictoriaMetrics, which auto never
# picks: it is a choice of operations, not of fleet shape.
STORE_MATRIX = (
    ("federation", "fewer than 5 clusters", "no new infrastructure; the global view holds rollups and the floor only"),
    ("thanos", "5 to 10 clusters, Prometheus everywhere", "object storage; sidecar, querier and compactor to run"),
    ("mimir", "more than 10 clusters, or tenants", "per-tenant limits and isolation; the most components to run"),
    (
        "victoriametrics",
        "one platform team, no tenants; up to about a million samples/s on one node",
        "one binary and vmalert; the HA pair stored once (dedup); the cluster version (vmstorage/vminsert/vmselect) "
        "beyond one node",
    ),
)


def store_matrix(chosen: str) -> list[str]:
    lines = ["| store | pick it when | what it costs and gives |", "|---|---|---|"]
    for store, when, cost in STORE_MATRIX:
        name = f"**{store}** (chosen)" if store == chosen else store
        lines.append(f"| {name} | {when} | {cost} |")
    return lines


def _victoriametrics(spec: FleetSpec) -> list[str]:
    if spec.victoriametrics.cluster is None:
        run = [
            "VictoriaMetrics: run the single-node server with `global/victoriametrics/single-node.args` (copy "
            "`relabel.yml` to the path it names) and vmalert with `global/victoriametrics/vmalert.args` (the fleet "
            "rules at `global/rules/gpuscope-fleet.yaml`):",
            "",
            "```sh",
            "victoria-metrics $(cat global/victoriametrics/single-node.args)",
            "vmalert $(cat global/victoriametrics/vmalert.args)",
            "```",
        ]
    else:
        run = [
            "VictoriaMetrics cluster version: plain vmstorage (StatefulSet), vminsert and vmselect (Deployments) and "
            "vmalert objects, no operator needed:",
            "",
            "```sh",
            "kubectl apply -k global/victoriametrics/cluster",
            "```",
        ]
    return [
        *run,
        "",
        "Both replicas of each cluster remote-write every sample; the store drops their `replica` label on "
        "ingestion and keeps one sample per scrape interval (`-dedup.minScrapeInterval`), so the pair is stored "
        "once and either replica alone leaves no gap. Tenants are Mimir's: VictoriaMetrics keeps clusters apart "
        "by their `cluster` label.",
        "",
    ]


# The churn bench of docs/benchmarks.md: 100 nodes x 8 GPUs, inference pods restarting every minute.
_CHURN_HEAD_SERIES = {"info": "99,129", "labels": "980,569"}


def _attribution(mode: str) -> list[str]:
    """Why the DaemonSet sets ``GPUSCOPE_WORKLOAD_LABELS``, and how to switch (docs/kubernetes-attribution.md)."""
    intro = {
        "info": "`info`: each allocation is one `gpuscope_gpu_workload_info` series, joined to the GPU series at "
        "query time, which this bundle's rules and dashboards do. With a pod label on every GPU series instead, each "
        "pod restart copies every series of its GPU: in gpuscope's churn bench (100 nodes x 8 GPUs, pods restarting "
        f"every minute) Prometheus held {_CHURN_HEAD_SERIES['info']} head series in `info` mode and "
        f"{_CHURN_HEAD_SERIES['labels']} in `labels` mode.",
        "labels": "`labels`, as dcgm-exporter: `namespace`, `pod` and `container` on every series of an allocated "
        "GPU, for clients that query dcgm-exporter's series by pod (OpenCost, KEDA, prometheus-adapter). It costs "
        f"a copy of a GPU's series per pod that holds it: {_CHURN_HEAD_SERIES['labels']} head series against "
        f"{_CHURN_HEAD_SERIES['info']} in `info` mode in gpuscope's churn bench (100 nodes x 8 GPUs, pods "
        "restarting every minute).",
        "off": "`off`: the exporter asks the kubelet nothing and attributes no GPU.",
    }[mode]
    return [
        "Pod attribution: the exporter DaemonSet sets `GPUSCOPE_WORKLOAD_LABELS` explicitly (`exporter."
        f"workload_labels` in the fleet spec), here {intro}",
        "",
        "Without it, an exporter started as the GPU Operator starts dcgm-exporter (`DCGM_EXPORTER_KUBERNETES=true`, "
        "the image's `dcgm-exporter` command) writes dcgm-exporter's pod labels (`labels`). To switch, set "
        "`exporter.workload_labels: info|labels|off` and regenerate; the rules, dashboards and budget follow. Its "
        "log's `attribution:` line at start says which mode is in force and why.",
        "",
    ]


def bundle_readme(spec: FleetSpec, report: BudgetReport, store: str, reason: str, paths: list[str]) -> str:
    present = [(p, d) for p, d in _DESCRIPTIONS if any(x.startswith(p) for x in paths)]
    k8s = [c.name for c in spec.clusters if c.kind == "kubernetes"]
    lines = [
        f"# Monitoring bundle for fleet `{spec.name}`",
        "",
        "Generated by `gpuscope generate` from the fleet spec: regenerate rather than edit (the same spec gives the "
        "same bytes).",
        "",
        "## Files",
        "",
        *(f"- `{p}` — {d}" for p, d in present),
        "",
        f"## Long-term store: {store}",
        "",
        f"Chosen because {reason}.",
        "",
        *store_matrix(store),
        "",
        "## Apply",
        "",
        "Each cluster runs an HA pair; the two configs differ only in their replica label:",
        "",
        "```sh",
        "prometheus --config.file=clusters/<cluster>/prometheus-a.yml --web.enable-lifecycle",
        "prometheus --config.file=clusters/<cluster>/prometheus-b.yml --web.enable-lifecycle",
        "alertmanager --config.file=alertmanager/alertmanager.yml   # list every Alertmanager as a peer",
        "```",
        "",
    ]
    if k8s:
        lines += [
            "Kubernetes clusters (Prometheus Operator / kube-prometheus-stack):",
            "",
            "```sh",
            *(f"kubectl apply -k kubernetes/{name}" for name in k8s),
            "```",
            "",
            "Check the manifests offline with kubeconform, including the Prometheus Operator CRDs:",
            "",
            "```sh",
            "kubeconform -strict -summary -schema-location default \\",
            "  -schema-location 'https://raw.githubusercontent.com/datreeio/CRDs-catalog/main/"
            "{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json' kubernetes/",
            "```",
            "",
            *_attribution(spec.exporter.workload_labels),
        ]
    if store == "thanos":
        lines += [
            "Thanos: run Prometheus with the flags in `global/thanos/prometheus-flags.args` (2 h blocks), a sidecar "
            f"next to each replica (`global/thanos/sidecar.args`, gRPC on :{THANOS_GRPC_PORT}, reachable as "
            "`<cluster>-prometheus-<replica>-sidecar`), a compactor, and the querier "
            f"(`global/thanos/query.args`) as `{THANOS_QUERY_HOST}`: it deduplicates on `replica` and serves HTTP on "
            f":{THANOS_HTTP_PORT}, where Grafana's global data source points.",
            "",
        ]
    if store == "mimir":
        tenants = mimir_tenants(spec)
        federation = (
            f"Grafana's global data source queries {len(tenants)} tenants at once (`X-Scope-OrgID: "
            f"{'|'.join(tenants)}`), which Mimir answers only with tenant federation enabled "
            "(`tenant_federation.enabled: true`, set in `global/mimir/mimir.yaml`)."
            if len(tenants) > 1
            else "One tenant: no tenant federation needed."
        )
        lines += [
            f"Mimir {MIMIR_MIN_VERSION} or newer (the HA tracker's memberlist KV store): the cluster configs "
            "remote-write to the distributor with the tenant in `X-Scope-OrgID`. Merge `global/mimir/mimir.yaml` "
            "into Mimir's configuration (HA tracker, runtime config) and load `global/mimir/runtime-overrides.yaml` "
            f"as its runtime overrides. {federation}",
            "",
        ]
    if store == "victoriametrics":
        lines += _victoriametrics(spec)
    lines += ["## Budget", "", budget_markdown(report)]
    return "\n".join(lines)

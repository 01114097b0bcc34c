"""The fleet spec (``fleet.yaml``): the load-bearing decisions of a deployment, declared once.

Clusters and their node groups (GPU model, GPUs per node, MIG layout), scrape and retention policy, the
long-term-store topology, alert receivers per owner, exporter settings and the series budget. Every default
lives here but the alert thresholds', which ``ruleconfig/config.py`` owns (the rules are usable without a spec);
generators read a validated ``FleetSpec`` and nothing else.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    Strict,
    ValidationInfo,
    field_validator,
    model_validator,
)

from gpuscope import __version__
from gpuscope.durations import PROMETHEUS, prometheus_seconds, prometheus_text
from gpuscope.errors import UsageError
from gpuscope.escaping import header_value, re2_pattern, template_free
from gpuscope.hardware.models import MODELS, parse_mig_layout
from gpuscope.ruleconfig.config import RulesConfig, Thresholds, scrape_interval_problem
from gpuscope.ruleconfig.groups import group_label_problem
from gpuscope.spec.host_signals import HostSignalsSpec

# The bounds of every number: beyond them a spec is a typo or an attack, and generating from it would take minutes
# and gigabytes (one scrape target per node) or give files Prometheus refuses.
MAX_NODES_PER_GROUP = 50_000
MAX_FLEET_NODES = 200_000
# Every generated scrape job's label_limit (labelLimit in a ServiceMonitor): Mimir's max_label_names_per_series, a
# series over it would be rejected downstream anyway. The doctor holds a live deployment's GPU series to it.
LABEL_LIMIT = 30
MAX_DURATION_S = 100 * 365 * 86400  # Prometheus durations overflow at about 292 years; a century is plenty
_NAME_RE = re.compile(r"^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$")
_ADDRESS_RE = re.compile(r"^[A-Za-z0-9.\-\[\]:]+:[0-9]{1,5}$")


def _check(pattern: re.Pattern[str], what: str) -> AfterValidator:
    def validate(value: str) -> str:
        if not pattern.match(value):
            raise ValueError(f"{value!r} is not {what}")
        return value

    return AfterValidator(validate)


def _positive_duration(value: str) -> str:
    if not PROMETHEUS.fullmatch(value):  # Prometheus's own grammar: each unit at most once, largest first
        raise ValueError(f"{value!r} is not a Prometheus duration like 15s, 5m, 6h or 15d")
    try:
        seconds = prometheus_seconds(value)
    except ValueError:  # past what a Prometheus duration holds
        seconds = float("inf")
    if not 0 < seconds <= MAX_DURATION_S:
        raise ValueError(f"{value!r} is not between 1ms and 100y")
    return value


Duration = Annotated[str, AfterValidator(_positive_duration)]
# Whole numbers only: YAML's true/false and 2.5 are refused (pydantic's lax mode would read true as 1).
Count = Annotated[int, Strict()]
Number = Annotated[float, Field(allow_inf_nan=False), Strict()]
DnsName = Annotated[str, _check(_NAME_RE, "a lowercase DNS label (a-z, 0-9 and '-', at most 63 characters)")]
Address = Annotated[str, _check(_ADDRESS_RE, "host:port")]
Url = Annotated[str, _check(re.compile(r"^https?://\S+$"), "an http:// or https:// URL")]
# A Mimir tenant id travels in the X-Scope-OrgID header of every remote write.
TenantId = Annotated[
    str,
    _check(re.compile(r"^[A-Za-z0-9!\-_.*'()]{1,150}$"), "a Mimir tenant id (letters, digits, !-_.*'())"),
    AfterValidator(header_value),
]
LabelName = Annotated[str, _check(re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$"), "a Prometheus label name")]
LabelValue = Annotated[
    str, _check(re.compile(r"^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$"), "a Kubernetes label value")
]
Image = Annotated[str, _check(re.compile(r"^[^\s\x00-\x1f\x7f]+$"), "a container image reference")]
TemplateFree = Annotated[str, AfterValidator(lambda value: template_free(value, "value"))]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class MigSpec(_Model):
    """MIG on some nodes of a group: the layout of every GPU on those nodes."""

    layout: str = Field(description="e.g. '1g.10gb:7' or '3g.40gb,4g.40gb'")
    nodes: Count = Field(ge=1, le=MAX_NODES_PER_GROUP, description="how many nodes of the group run this layout")


class NodeGroup(_Model):
    name: DnsName
    gpu_model: str = Field(description="h100, h200, a100 or l40s")
    gpus_per_node: Count = Field(8, ge=1, le=16)
    nodes: Count = Field(ge=1, le=MAX_NODES_PER_GROUP)
    mig: MigSpec | None = None
    hosts: tuple[Address, ...] = Field((), description="bare metal: exporter targets host:port (else generated)")
    # The GPU exporter's host label of each node, where it is not the host part of its target (an IP, an FQDN).
    hostnames: tuple[str, ...] = Field((), description="host label value per node (default: from hosts)")
    node_exporters: tuple[Address, ...] = Field((), description="node-exporter target per node (default: host:port)")
    pods_per_gpu: Count = Field(
        1, ge=1, le=64, description="most pods sharing one GPU or MIG instance (time-slicing, MPS): sizes the budget"
    )
    nvlink_domain: Literal["node", "rack"] = Field(
        "node",
        description="rack: the group is one NVL72 rack, its nodes the rack's compute trays (gb200, gb300); without "
        "it a gb200/gb300 group's nodes form racks of 18 trays each",
    )

    @model_validator(mode="after")
    def _rack(self) -> NodeGroup:
        if self.nvlink_domain == "node":
            return self
        model = MODELS[self.gpu_model]
        if not model.rack_trays:
            racks = ", ".join(k for k, m in MODELS.items() if m.rack_trays)
            raise ValueError(f"nvlink_domain: rack needs a rack-scale model ({racks}), not {self.gpu_model}")
        if self.nodes > model.rack_trays:
            raise ValueError(
                f"a {self.gpu_model} rack has {model.rack_trays} compute trays, not {self.nodes}: "
                "write one node group per rack"
            )
        # A tray holds the model's GPUs: the default of 8 per node is an HGX baseboard's, not a tray's.
        if "gpus_per_node" not in self.model_fields_set:
            object.__setattr__(self, "gpus_per_node", model.gpus_per_node)
        elif self.gpus_per_node != model.gpus_per_node:
            raise ValueError(
                f"a {self.gpu_model} compute tray has {model.gpus_per_node} GPUs: set gpus_per_node to "
                f"{model.gpus_per_node} or leave it out"
            )
        return self

    @field_validator("gpu_model")
    @classmethod
    def _model(cls, value: str) -> str:
        if value.lower() not in MODELS:
            raise ValueError(f"unknown GPU model {value!r}; choose one of: {', '.join(MODELS)}")
        return value.lower()

    @field_validator("mig")
    @classmethod
    def _mig(cls, mig: MigSpec | None, info: ValidationInfo) -> MigSpec | None:
        nodes, model = info.data.get("nodes"), info.data.get("gpu_model")
        if mig is None or nodes is None or model is None:
            return mig
        if mig.nodes > nodes:
            raise ValueError(f"mig.nodes ({mig.nodes}) is more than the group's nodes ({nodes})")
        try:
            parse_mig_layout(MODELS[model], mig.layout)
        except UsageError as exc:
            raise ValueError(str(exc)) from None
        return mig

    @field_validator("hosts")
    @classmethod
    def _hosts(cls, hosts: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        nodes = info.data.get("nodes")
        if hosts and nodes is not None and len(hosts) != nodes:
            raise ValueError(f"lists {len(hosts)} targets but the group has {nodes} nodes")
        return hosts

    @field_validator("hostnames", "node_exporters")
    @classmethod
    def _per_node(cls, values: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        nodes = info.data.get("nodes")
        if values and nodes is not None and len(values) != nodes:
            raise ValueError(f"lists {len(values)} entries but the group has {nodes} nodes")
        for value in values:
            if not re.match(r"^[A-Za-z0-9][A-Za-z0-9.\-:\[\]]*$", value):
                raise ValueError(f"{value!r} is not a host name or host:port")
        return values


class Endpoints(_Model):
    """Where a cluster's monitoring components listen (defaults suit the Kubernetes manifests)."""

    prometheus_a: Address = "prometheus-a:9090"
    prometheus_b: Address = "prometheus-b:9090"
    alertmanagers: tuple[Address, ...] = ("alertmanager-0:9093", "alertmanager-1:9093")
    pushgateway: Address = "pushgateway:9091"
    exporter_port: Count = Field(9400, ge=1, le=65535)
    node_exporter_port: Count = Field(9100, ge=1, le=65535)
    kube_state_metrics: Address = "kube-state-metrics.kube-system.svc:8080"  # host_signals (Kubernetes clusters)


# An absolute path of plain characters; ``%n`` stands for the node's name (several slurmd on one host).
_JOB_DIR_RE = re.compile(r"^/(?!.*(?:^|/)\.\.(?:/|$))[A-Za-z0-9._/%-]{1,200}$")


class Slurm(_Model):
    """A bare-metal cluster scheduled by Slurm: the bundle ships the job-mapping prolog/epilog (docs/remediation.md)."""

    job_mapping_dir: Annotated[
        str, _check(_JOB_DIR_RE, "an absolute path of letters, digits, '.', '_', '-', '/' (and %n for the node name)")
    ] = Field("/run/gpuscope/hpc-jobs", description="the exporter's --hpc-job-mapping-dir, written by the prolog")


class Cluster(_Model):
    name: DnsName
    region: str = "default"
    kind: Literal["kubernetes", "baremetal"] = "kubernetes"
    slurm: Slurm | None = Field(None, description="bare metal run by Slurm: job mapping and node drains")
    namespace: DnsName = "gpu-monitoring"
    tenant: TenantId | None = Field(None, description="Mimir tenant (X-Scope-OrgID); default: the cluster name")
    node_groups: tuple[NodeGroup, ...] = Field(min_length=1)
    pod_restarts_per_hour: Number = Field(0.0, ge=0, le=1e6, description="expected GPU pod churn, for the budget")
    endpoints: Endpoints = Endpoints()

    @model_validator(mode="after")
    def _slurm_on_bare_metal(self) -> Cluster:
        if self.slurm is not None and self.kind != "baremetal":
            raise ValueError("slurm: is for kind: baremetal clusters (Kubernetes schedules a kubernetes cluster)")
        return self

    @property
    def gpus(self) -> int:
        return sum(g.nodes * g.gpus_per_node for g in self.node_groups)

    @property
    def nodes(self) -> int:
        return sum(g.nodes for g in self.node_groups)


class Retention(_Model):
    """Hot (head), warm (local disk) and cold (long-term store, rollups only) retention."""

    hot: Duration = Field("6h", description="Prometheus head/local for live alerting")
    warm: Duration = Field("15d", description="Prometheus on-disk retention")
    cold: Duration = Field("395d", description="long-term store retention (13 months)")
    rollup_resolution: Literal["5m", "1h"] = "5m"
    cold_tier: Literal["rollups", "full"] = Field(
        "rollups", description="rollups: remote-write only the cold-tier recording rules (about 20x fewer samples)"
    )


class PagerDuty(_Model):
    routing_key_file: str


class Slack(_Model):
    api_url_file: str
    channel: Annotated[str, _check(re.compile(r"^[#@]\S+"), "a Slack channel (#name) or user (@name)")]


class Webhook(_Model):
    url: Url
    bearer_token_file: str | None = None


class Receiver(_Model):
    """Where one owner's alerts go; pages and tickets may go to different places."""

    pagerduty: PagerDuty | None = None
    slack: Slack | None = None
    webhook: Webhook | None = Field(None, description="e.g. ServiceNow's event endpoint, or any webhook")
    tickets_to: Literal["same", "slack", "webhook"] = Field(
        "same", description="route severity=ticket alerts only to this integration (pages go everywhere)"
    )

    @model_validator(mode="after")
    def _any(self) -> Receiver:
        if not (self.pagerduty or self.slack or self.webhook):
            raise ValueError("configure at least one of pagerduty, slack, webhook")
        if self.tickets_to != "same" and getattr(self, self.tickets_to) is None:
            raise ValueError(f"tickets_to is {self.tickets_to!r} but no {self.tickets_to} integration is configured")
        return self


class Receivers(_Model):
    infra: Receiver
    platform: Receiver
    workload: Receiver


class Remediation(_Model):
    """``gpuscope remediate`` for the fleet: Alertmanager's route to it, the policy's limits (docs/remediation.md)."""

    urls: dict[DnsName, Url] = Field(
        default_factory=dict,
        description="per cluster, where Alertmanager delivers (default: the generated Service, or "
        "http://gpuscope-remediate-<cluster>:9450/webhook for a Slurm cluster's host)",
    )
    bearer_token_file: str | None = Field(
        "/etc/alertmanager/secrets/gpuscope-remediate/token", description="Alertmanager's side of the bearer token"
    )
    apply: Annotated[bool, Strict()] = Field(False, description="the generated remediators act (default: dry run)")
    max_nodes: Count | None = Field(2, ge=1, le=100_000, description="budget: nodes held at once per cluster")
    max_percent: Number | None = Field(10.0, gt=0, le=100, description="budget: percent of a cluster's nodes")
    return_after: Duration | None = Field(None, description="return nodes after this long healthy (default: a person)")
    taint_effect: Literal["NoSchedule", "PreferNoSchedule", "NoExecute"] = "NoSchedule"
    cordon: Annotated[bool, Strict()] = True

    def url(self, cluster: Cluster) -> str:
        default = (
            f"http://gpuscope-remediate.{cluster.namespace}.svc:9450/webhook"
            if cluster.kind == "kubernetes"
            else f"http://gpuscope-remediate-{cluster.name}:9450/webhook"
        )
        return self.urls.get(cluster.name, default)

    @model_validator(mode="after")
    def _budget(self) -> Remediation:
        # Naming one limit means that limit alone, as in the policy file.
        if "max_nodes" in self.model_fields_set and "max_percent" not in self.model_fields_set:
            object.__setattr__(self, "max_percent", None)
        elif "max_percent" in self.model_fields_set and "max_nodes" not in self.model_fields_set:
            object.__setattr__(self, "max_nodes", None)
        if self.max_nodes is None and self.max_percent is None:
            raise ValueError("set max_nodes or max_percent (or both): a budget without either is no limit")
        return self


class Tenant(_Model):
    name: TenantId
    clusters: tuple[str, ...] = Field(min_length=1)
    max_series: Count | None = Field(
        None, gt=0, le=10**12, description="per-tenant series limit (default: from the budget)"
    )


class ExporterSpec(_Model):
    collectors: str | None = Field(None, description="collectors CSV path; default: dcgm-exporter's default list")
    host_label: Literal["Hostname", "hostname"] = "Hostname"
    workload_labels: Literal["info", "labels", "off"] = "info"
    # Where Prometheus keeps the pod's identity on the exporter's series: dcgm-exporter's names (honorLabels: true,
    # as the bundle's ServiceMonitor scrapes), exported_namespace/exported_pod behind a ServiceMonitor with
    # honorLabels: false, pod_namespace/pod_name from dcgm-exporter -o. Every rule, panel and bill reads these.
    namespace_label: LabelName = Field(
        "namespace",
        description="the label holding a GPU holder's namespace (exported_namespace behind honorLabels: false)",
    )
    pod_label: LabelName = Field(
        "pod", description="the label holding a GPU holder's pod (exported_pod behind honorLabels: false)"
    )
    dialect: Literal["classic", "4.9", "4.10"] = "classic"
    # The image of this very release, as `make image` tags it: build and push it, or set exporter.image.
    image: Image = f"ghcr.io/gpuscope/gpuscope:{__version__}"
    memory_limit_mib: Count = Field(
        128, ge=64, le=1024 * 1024, description="DaemonSet memory limit (measured RSS about 50 MiB)"
    )
    drop_labels: tuple[LabelName, ...] = Field(("pod_uid",), description="labels dropped from raw GPU series at scrape")
    web_config_secret: str | None = Field(None, description="Secret holding a web-config.yaml (TLS/basic auth)")
    backend: Literal["nvml", "dcgm"] = Field("nvml", description="read GPUs through NVML, or through DCGM")
    dcgm_hostengine: Literal["embedded", "standalone"] = Field(
        "embedded",
        description="backend dcgm: embedded (in the exporter) or the GPU Operator's standalone nvidia-dcgm on :5555",
    )
    process_metrics: Annotated[bool, Strict()] = Field(
        False,
        description="per-process GPU memory and utilization per pod (--process-metrics; hostPID DaemonSet); with "
        "backend dcgm the process lists come through NVML beside DCGM, as dcgm-exporter reads them",
    )

    # Kubernetes attribution beyond the kubelet (docs/kubernetes-attribution.md): the generated RBAC grants
    # get/list/watch on pods only when pod_labels or pod_uid is on, on resourceslices only with dra.
    pod_labels: bool = Field(False, description="add the pods' labels (watched on the API server, one watch per node)")
    pod_label_allowlist: tuple[str, ...] = Field(
        (), description="regular expressions; only pod labels whose key one matches are added (empty: all)"
    )
    pod_group_labels: tuple[LabelName, ...] = Field(
        (), description="pod labels (as the exporter names them, e.g. team) the rules and L5 roll up by"
    )
    pod_uid: bool = Field(False, description="add the pod_uid label (kept at scrape: pod_uid leaves drop_labels)")
    virtual_gpus: bool = Field(False, description="shared GPUs (time-slicing/MPS): one attribution per replica")
    virtual_gpu_replicas: Count = Field(
        4, ge=1, le=64, description="with virtual_gpus: pods sharing each GPU, as the budget assumes"
    )
    dra: bool = Field(False, description="attribute GPUs allocated through DRA ResourceClaims")

    @field_validator("pod_label_allowlist")
    @classmethod
    def _allowlist(cls, patterns: tuple[str, ...]) -> tuple[str, ...]:
        for pattern in patterns:
            if "," in pattern or not pattern.strip():
                raise ValueError(f"pattern {pattern!r}: write one non-empty pattern per entry, without commas")
            re2_pattern(pattern, "pattern")  # the exporter matches keys with RE2, as Prometheus would
        return patterns

    @field_validator("pod_group_labels")
    @classmethod
    def _group_labels(cls, labels: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        config = RulesConfig(
            host_label=info.data.get("host_label", "Hostname"),
            dialect=info.data.get("dialect", "classic"),
            workload_labels=info.data.get("workload_labels", "info"),
        )
        for label in labels:
            problem = group_label_problem(label, config)
            if problem is not None:
                raise ValueError(problem)
        return labels

    @model_validator(mode="after")
    def _uid_kept(self) -> ExporterSpec:
        if self.namespace_label == self.pod_label:
            raise ValueError(f"namespace_label and pod_label are both {self.pod_label!r}: name two labels")
        if self.pod_group_labels and not self.pod_labels:
            raise ValueError("pod_group_labels needs pod_labels: true (the exporter adds pod labels only then)")
        if self.pod_labels and self.workload_labels == "labels" and not self.pod_label_allowlist:
            raise ValueError(
                "pod_labels in labels mode puts every pod label on every GPU series (a pod with many labels passes the "
                f"scrape's labelLimit, {LABEL_LIMIT}): list the labels you need in pod_label_allowlist"
            )
        if self.pod_uid and "pod_uid" in self.drop_labels:
            if "drop_labels" in self.model_fields_set:
                raise ValueError("pod_uid is on but drop_labels drops pod_uid at scrape: remove it from drop_labels")
            object.__setattr__(self, "drop_labels", tuple(n for n in self.drop_labels if n != "pod_uid"))
        return self

    @property
    def api_server(self) -> bool:
        """Whether the exporter reads the API server (and needs its service account token and RBAC)."""
        return self.pod_labels or self.pod_uid or self.dra


class Budget(_Model):
    """The cardinality budget (head series ~ GPUs x metrics x labels) per Prometheus replica, and its estimate."""

    head_series: Count = Field(2_000_000, gt=0, le=10**12)
    node_exporter_series_per_node: Count = Field(1000, ge=0, le=10**7)
    # Both defaults are measured (bench/fleet_ingest.py, docs/benchmarks.md), not folklore: Prometheus 2.42 held
    # 1.07M head series in 6.0 GiB RSS (~5.8 kB each: the ~3 kB of head data plus Go's GC headroom), and
    # remote-write 1.0 carried 58 bytes per sample because every sample travels with its whole label set.
    bytes_per_head_series: Count = Field(
        6144, gt=0, le=10**7, description="Prometheus RSS per head series, GC headroom included"
    )
    remote_write_bytes_per_sample: Number = Field(
        60.0, gt=0, le=10**6, description="remote-write wire bytes per sample"
    )


VMINSERT_PORT, VMSELECT_PORT = 8480, 8481  # the cluster version's default HTTP ports
MAX_VM_STORAGE_NODES = 1000  # far past the largest published clusters; each is one -storageNode entry
MAX_VM_REPLICAS = 1000  # stateless vminsert/vmselect pods; well inside Kubernetes' int32 replica count
VM_TENANT = "0"  # the cluster version's default account: tenancy is Mimir's here (see FleetSpec._store)


class VmCluster(_Model):
    """The cluster version for fleets that outgrow one node: vmstorage shards, vminsert and vmselect in front."""

    namespace: DnsName = "victoria-metrics"
    # Bounded: every vmstorage node is listed in vminsert's and vmselect's -storageNode (10^8 of them is gigabytes
    # of YAML), and a replica count past Kubernetes' int32 is refused by the API server at apply time.
    vmstorage: Count = Field(
        3, ge=1, le=MAX_VM_STORAGE_NODES, description="vmstorage StatefulSet replicas (the shards)"
    )
    vminsert: Count = Field(2, ge=1, le=MAX_VM_REPLICAS)
    vmselect: Count = Field(2, ge=1, le=MAX_VM_REPLICAS)
    replication_factor: Count = Field(2, ge=1, description="copies of every sample across vmstorage nodes")
    storage_gib: Count = Field(100, ge=1, le=1024 * 1024, description="persistent volume per vmstorage node")
    image_tag: str = "v1.79.5-cluster"

    @model_validator(mode="after")
    def _copies(self) -> VmCluster:
        if self.replication_factor > self.vmstorage:
            raise ValueError(
                f"replication_factor {self.replication_factor} needs at least {self.replication_factor} vmstorage "
                f"nodes (vmstorage is {self.vmstorage})"
            )
        return self


class VictoriaMetrics(_Model):
    """Where the ``victoriametrics`` long-term store and its vmalert listen; ``cluster`` for the cluster version."""

    endpoint: Address = Field("victoria-metrics:8428", description="single-node server (remote write and PromQL)")
    vmalert: Address = Field("vmalert:8880", description="vmalert evaluating the fleet-level rules")
    cluster: VmCluster | None = Field(None, description="run vmstorage/vminsert/vmselect instead of one node")

    @property
    def insert_base(self) -> str:
        """Where data is written: the single node, or vminsert's Prometheus path for the default tenant."""
        if self.cluster is None:
            return f"http://{self.endpoint}"
        return f"http://vminsert.{self.cluster.namespace}.svc:{VMINSERT_PORT}/insert/{VM_TENANT}/prometheus"

    @property
    def query_url(self) -> str:
        """The Prometheus-compatible query API: the single node, or vmselect for the default tenant."""
        if self.cluster is None:
            return f"http://{self.endpoint}"
        return f"http://vmselect.{self.cluster.namespace}.svc:{VMSELECT_PORT}/select/{VM_TENANT}/prometheus"


class FleetSpec(_Model):
    name: DnsName
    clusters: tuple[Cluster, ...] = Field(min_length=1)
    scrape_interval: Duration = "15s"
    scrape_timeout: Duration = "10s"
    evaluation_interval: Duration = "15s"
    retention: Retention = Retention()
    long_term_store: Literal["auto", "federation", "thanos", "mimir", "victoriametrics"] = "auto"
    global_endpoint: Address = "global-prometheus:9090"
    remote_write_url: Url = Field("https://mimir.example.com/api/v1/push", description="Mimir's distributor push URL")
    remote_write_token_file: str | None = "/etc/prometheus/secrets/remote-write-token"
    tenants: tuple[Tenant, ...] = ()
    victoriametrics: VictoriaMetrics = VictoriaMetrics()
    receivers: Receivers
    exporter: ExporterSpec = ExporterSpec()
    host_signals: HostSignalsSpec = HostSignalsSpec()
    budget: Budget = Budget()
    budgeted_models: tuple[str, ...] = Field((), description="modelName values; default: the node groups' models")
    thresholds: Thresholds = Thresholds()
    runbook_base_url: TemplateFree = "runbooks"
    kube_prometheus_release: LabelValue | None = Field(None, description="kube-prometheus-stack release label to carry")
    speedup: Count = Field(1, ge=1, le=60, description="compress rule time windows (demos and tests only)")
    remediation: Remediation | None = Field(None, description="route GPU pages to gpuscope remediate")

    @field_validator("clusters")
    @classmethod
    def _unique(cls, clusters: tuple[Cluster, ...]) -> tuple[Cluster, ...]:
        names = [c.name for c in clusters]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"cluster names must be unique; repeated: {', '.join(dupes)}")
        return clusters

    @field_validator("clusters")
    @classmethod
    def _fleet_size(cls, clusters: tuple[Cluster, ...]) -> tuple[Cluster, ...]:
        total = sum(c.nodes for c in clusters)
        if total > MAX_FLEET_NODES:
            raise ValueError(f"the fleet has {total} nodes, more than the {MAX_FLEET_NODES} one spec may describe")
        return clusters

    @field_validator("scrape_interval")
    @classmethod
    def _scrape_interval(cls, interval: str) -> str:
        problem = scrape_interval_problem(interval)
        if problem:
            raise ValueError(problem)
        return interval

    @field_validator("scrape_timeout")
    @classmethod
    def _timeout(cls, timeout: str, info: ValidationInfo) -> str:
        interval = info.data.get("scrape_interval")
        if interval and prometheus_seconds(timeout) > prometheus_seconds(interval):
            raise ValueError(f"{timeout} is longer than scrape_interval ({interval})")
        return timeout

    @field_validator("long_term_store")
    @classmethod
    def _store(cls, store: str, info: ValidationInfo) -> str:
        # Tenancy is Mimir's (X-Scope-OrgID); the single-node VictoriaMetrics has none and would ignore it.
        if store == "victoriametrics":
            for i, cluster in enumerate(info.data.get("clusters", ())):
                if cluster.tenant is not None:
                    raise ValueError(
                        f"clusters[{i}] ({cluster.name}) sets tenant: {cluster.tenant!r}, a Mimir-only setting; "
                        "remove it (VictoriaMetrics keeps clusters apart by their cluster label) or choose "
                        "long_term_store: mimir"
                    )
        return store

    @field_validator("tenants")
    @classmethod
    def _tenants(cls, tenants: tuple[Tenant, ...], info: ValidationInfo) -> tuple[Tenant, ...]:
        if tenants and info.data.get("long_term_store") == "victoriametrics":
            raise ValueError(
                "tenants are Mimir-only (X-Scope-OrgID limits); remove tenants: for long_term_store: "
                "victoriametrics, or choose long_term_store: mimir"
            )
        names = {c.name for c in info.data.get("clusters", ())}
        for tenant in tenants:
            unknown = sorted(set(tenant.clusters) - names)
            if unknown:
                raise ValueError(f"tenant {tenant.name!r} names unknown clusters: {', '.join(unknown)}")
        return tenants

    def rules_config(self) -> RulesConfig:
        """The rules config implied by the spec (same selectors and label names everywhere)."""
        models = self.budgeted_models or tuple(
            sorted({MODELS[g.gpu_model].name for c in self.clusters for g in c.node_groups})
        )
        return RulesConfig(
            host_label=self.exporter.host_label,
            dialect=self.exporter.dialect,
            workload_labels=self.exporter.workload_labels,
            namespace_label=self.exporter.namespace_label,
            pod_label=self.exporter.pod_label,
            budgeted_models=models,
            head_series_budget=self.budget.head_series,
            runbook_base_url=self.runbook_base_url,
            thresholds=self.thresholds,
            host=self.host_signals.rules(kubernetes=any(c.kind == "kubernetes" for c in self.clusters)),
            speedup=self.speedup,
            scrape_interval=prometheus_text(prometheus_seconds(self.scrape_interval) * self.speedup),  # in rule time
            pod_group_labels=self.exporter.pod_group_labels,
            virtual_gpus=self.exporter.virtual_gpus,
            dra=self.exporter.dra,
        )

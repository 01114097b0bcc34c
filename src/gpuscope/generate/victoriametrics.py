"""The ``victoriametrics`` long-term store: the single-node server, vmalert, and the cluster version's objects.

Each cluster's Prometheus HA pair remote-writes to it. The pair's samples differ only in the ``replica`` external
label, which the store drops on ingestion (``-relabelConfig``); both replicas' samples then land in one series,
and ``-dedup.minScrapeInterval`` equal to the scrape interval keeps one sample per interval, so the pair is
stored once and a replica's loss leaves no gap. ``-retentionPeriod`` is the cold tier. The server scrapes its own
metrics (``-selfScrapeInterval``) so its ingestion and deduplication counters can be queried, by ``gpuscope
doctor`` and the Pipeline dashboard, through the same API as the data.

vmalert evaluates the fleet-level rules against the store, writes their results back and sends any alert to the
clusters' Alertmanagers. For fleets that outgrow one node, ``victoriametrics.cluster`` generates plain
vmstorage / vminsert / vmselect Kubernetes objects rather than the VictoriaMetrics operator's VMCluster resource:
no operator or CRD to install and trust, every flag visible in the bundle (and checked against the real binaries),
and the manifests validate offline with kubeconform's built-in schemas.

Every flag here is one the 1.79 binaries (Debian's ``victoria-metrics`` package, and the same release's cluster
images) accept; tests/generate/test_victoriametrics.py checks them against ``-help``.
"""

from __future__ import annotations

import math
from typing import Any

from gpuscope.bundle import to_yaml
from gpuscope.durations import prometheus_seconds
from gpuscope.spec.fleet import VMINSERT_PORT, VMSELECT_PORT, FleetSpec, VmCluster

REPLICA_LABEL = "replica"
SELF_JOB = "victoria-metrics"  # -selfScrapeJob's default: the job of the store's own metrics
DATA_PATH = "/victoria-metrics-data"
RELABEL_PATH = "/etc/victoria-metrics/relabel.yml"
RULES_PATH = "/etc/vmalert/rules/gpuscope-fleet.yaml"
INSERT_PORT, SELECT_PORT, STORAGE_HTTP_PORT = VMINSERT_PORT, VMSELECT_PORT, 8482
STORAGE_INSERT_PORT, STORAGE_SELECT_PORT = 8400, 8401
VMALERT_PORT = 8880


def go_duration(duration: str) -> str:
    """A Prometheus duration as the Go duration VictoriaMetrics' flags parse (Go has no ``d``/``w``/``y``)."""
    ms = round(prometheus_seconds(duration) * 1000)
    return f"{ms // 1000}s" if ms % 1000 == 0 else f"{ms}ms"


def retention_period(duration: str) -> str:
    """``-retentionPeriod`` in whole days (it accepts h, d, w, y; a bare number would mean months)."""
    return f"{max(1, math.ceil(prometheus_seconds(duration) / 86400))}d"


def _port(address: str) -> int:
    return int(address.rsplit(":", 1)[1])


def insert_base(spec: FleetSpec) -> str:
    return spec.victoriametrics.insert_base


def write_url(spec: FleetSpec) -> str:
    """The remote_write URL of every Prometheus replica."""
    return f"{spec.victoriametrics.insert_base}/api/v1/write"


def query_url(spec: FleetSpec) -> str:
    return spec.victoriametrics.query_url


def relabel_config() -> list[dict[str, str]]:
    """Applied to every ingested sample: the HA pair's two copies become one series."""
    return [{"action": "labeldrop", "regex": REPLICA_LABEL}]


def _storage_flags(spec: FleetSpec) -> list[str]:
    return [
        f"-retentionPeriod={retention_period(spec.retention.cold)}",
        f"-dedup.minScrapeInterval={go_duration(spec.scrape_interval)}",
    ]


def single_node_args(spec: FleetSpec) -> list[str]:
    return [
        f"-storageDataPath={DATA_PATH}",
        f"-httpListenAddr=:{_port(spec.victoriametrics.endpoint)}",
        *_storage_flags(spec),
        f"-relabelConfig={RELABEL_PATH}",
        f"-selfScrapeInterval={go_duration(spec.scrape_interval)}",
    ]


def alertmanager_urls(spec: FleetSpec) -> list[str]:
    """Every Alertmanager the clusters' Prometheus servers send to: vmalert's alerts go to the same ones."""
    return sorted({f"http://{a}" for c in spec.clusters for a in c.endpoints.alertmanagers})


def vmalert_args(spec: FleetSpec) -> list[str]:
    query = query_url(spec)
    return [
        f"-rule={RULES_PATH}",
        f"-datasource.url={query}",
        f"-remoteWrite.url={insert_base(spec)}",
        f"-remoteRead.url={query}",  # restores alert state after a restart
        *(f"-notifier.url={url}" for url in alertmanager_urls(spec)),
        f"-evaluationInterval={go_duration(spec.evaluation_interval)}",
        "-external.label=tier=global",
        f"-httpListenAddr=:{_port(spec.victoriametrics.vmalert)}",
    ]


def _args_text(args: list[str]) -> str:
    return "\n".join(args) + "\n"


def victoriametrics_files(spec: FleetSpec, fleet_rules: str) -> dict[str, Any]:
    files: dict[str, Any] = {
        "global/rules/gpuscope-fleet.yaml": fleet_rules,
        "global/victoriametrics/vmalert.args": _args_text(vmalert_args(spec)),
        "global/victoriametrics/relabel.yml": relabel_config(),
    }
    cluster = spec.victoriametrics.cluster
    if cluster is None:
        files["global/victoriametrics/single-node.args"] = _args_text(single_node_args(spec))
    else:
        files.update(cluster_objects(spec, cluster, fleet_rules))
    return files


# --- the cluster version -----------------------------------------------------------------------------------------


def _labels(name: str) -> dict[str, str]:
    return {"app.kubernetes.io/name": name, "app.kubernetes.io/part-of": "gpuscope"}


def _meta(cluster: VmCluster, name: str) -> dict[str, Any]:
    return {"name": name, "namespace": cluster.namespace, "labels": _labels(name)}


def _service(cluster: VmCluster, name: str, ports: dict[str, int], headless: bool = False) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "selector": {"app.kubernetes.io/name": name},
        "ports": [{"name": p, "port": n, "targetPort": n} for p, n in ports.items()],
    }
    if headless:
        spec["clusterIP"] = "None"
    return {"apiVersion": "v1", "kind": "Service", "metadata": _meta(cluster, name), "spec": spec}


def _container(name: str, image: str, args: list[str], port: int, **extra: Any) -> dict[str, Any]:
    probe = {"httpGet": {"path": "/health", "port": port}, "periodSeconds": 10}
    return {
        "name": name,
        "image": image,
        "args": args,
        "ports": [{"name": "http", "containerPort": port}],
        "readinessProbe": probe,
        "livenessProbe": {**probe, "failureThreshold": 6},
        **extra,
    }


def _pod(containers: list[dict[str, Any]], volumes: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    spec: dict[str, Any] = {"containers": containers}
    if volumes:
        spec["volumes"] = volumes
    return spec


def _deployment(cluster: VmCluster, name: str, replicas: int, pod: dict[str, Any]) -> dict[str, Any]:
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": _meta(cluster, name),
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": {"app.kubernetes.io/name": name}},
            "template": {"metadata": {"labels": _labels(name)}, "spec": pod},
        },
    }


def storage_nodes(cluster: VmCluster, port: int) -> str:
    """Every vmstorage pod by its stable StatefulSet name (vminsert hashes series across exactly these)."""
    return ",".join(f"vmstorage-{i}.vmstorage.{cluster.namespace}.svc:{port}" for i in range(cluster.vmstorage))


def vmstorage_args(spec: FleetSpec) -> list[str]:
    return [
        "-storageDataPath=/storage",
        f"-httpListenAddr=:{STORAGE_HTTP_PORT}",
        f"-vminsertAddr=:{STORAGE_INSERT_PORT}",
        f"-vmselectAddr=:{STORAGE_SELECT_PORT}",
        *_storage_flags(spec),
    ]


def vminsert_args(cluster: VmCluster) -> list[str]:
    return [
        f"-httpListenAddr=:{INSERT_PORT}",
        f"-storageNode={storage_nodes(cluster, STORAGE_INSERT_PORT)}",
        f"-replicationFactor={cluster.replication_factor}",
        f"-relabelConfig={RELABEL_PATH}",
    ]


def vmselect_args(spec: FleetSpec, cluster: VmCluster) -> list[str]:
    return [
        f"-httpListenAddr=:{SELECT_PORT}",
        f"-storageNode={storage_nodes(cluster, STORAGE_SELECT_PORT)}",
        # Also merges the replicated copies read from several vmstorage nodes.
        f"-dedup.minScrapeInterval={go_duration(spec.scrape_interval)}",
    ]


def cluster_objects(spec: FleetSpec, cluster: VmCluster, fleet_rules: str) -> dict[str, Any]:
    base = "global/victoriametrics/cluster"
    image = f"victoriametrics/{{}}:{cluster.image_tag}"
    relabel_volume = {"name": "relabel", "configMap": {"name": "vminsert-relabel"}}
    relabel_mount = {"name": "relabel", "mountPath": RELABEL_PATH.rsplit("/", 1)[0]}
    storage = {
        "apiVersion": "apps/v1",
        "kind": "StatefulSet",
        "metadata": _meta(cluster, "vmstorage"),
        "spec": {
            "serviceName": "vmstorage",
            "replicas": cluster.vmstorage,
            # vminsert re-routes around a missing node; replacing nodes one at a time keeps the rest writable.
            "podManagementPolicy": "OrderedReady",
            "selector": {"matchLabels": {"app.kubernetes.io/name": "vmstorage"}},
            "template": {
                "metadata": {"labels": _labels("vmstorage")},
                "spec": _pod(
                    [
                        {
                            **_container(
                                "vmstorage",
                                image.format("vmstorage"),
                                vmstorage_args(spec),
                                STORAGE_HTTP_PORT,
                                volumeMounts=[{"name": "storage", "mountPath": "/storage"}],
                            ),
                            "ports": [
                                {"name": "http", "containerPort": STORAGE_HTTP_PORT},
                                {"name": "vminsert", "containerPort": STORAGE_INSERT_PORT},
                                {"name": "vmselect", "containerPort": STORAGE_SELECT_PORT},
                            ],
                        }
                    ]
                ),
            },
            "volumeClaimTemplates": [
                {
                    "metadata": {"name": "storage"},
                    "spec": {
                        "accessModes": ["ReadWriteOnce"],
                        "resources": {"requests": {"storage": f"{cluster.storage_gib}Gi"}},
                    },
                }
            ],
        },
    }
    vmalert_pod = _pod(
        [
            _container(
                "vmalert",
                f"victoriametrics/vmalert:{cluster.image_tag.removesuffix('-cluster')}",
                vmalert_args(spec),
                _port(spec.victoriametrics.vmalert),
                volumeMounts=[{"name": "rules", "mountPath": RULES_PATH.rsplit("/", 1)[0]}],
            )
        ],
        [{"name": "rules", "configMap": {"name": "vmalert-rules"}}],
    )
    objects: dict[str, Any] = {
        "vmstorage-service.yaml": _service(
            cluster,
            "vmstorage",
            {"http": STORAGE_HTTP_PORT, "vminsert": STORAGE_INSERT_PORT, "vmselect": STORAGE_SELECT_PORT},
            headless=True,
        ),
        "vmstorage-statefulset.yaml": storage,
        "vminsert-relabel.yaml": {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": _meta(cluster, "vminsert-relabel"),
            "data": {RELABEL_PATH.rsplit("/", 1)[1]: to_yaml(relabel_config())},
        },
        "vminsert-service.yaml": _service(cluster, "vminsert", {"http": INSERT_PORT}),
        "vminsert-deployment.yaml": _deployment(
            cluster,
            "vminsert",
            cluster.vminsert,
            _pod(
                [
                    _container(
                        "vminsert",
                        image.format("vminsert"),
                        vminsert_args(cluster),
                        INSERT_PORT,
                        volumeMounts=[relabel_mount],
                    )
                ],
                [relabel_volume],
            ),
        ),
        "vmselect-service.yaml": _service(cluster, "vmselect", {"http": SELECT_PORT}),
        "vmselect-deployment.yaml": _deployment(
            cluster,
            "vmselect",
            cluster.vmselect,
            _pod([_container("vmselect", image.format("vmselect"), vmselect_args(spec, cluster), SELECT_PORT)]),
        ),
        "vmalert-rules.yaml": {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": _meta(cluster, "vmalert-rules"),
            "data": {RULES_PATH.rsplit("/", 1)[1]: fleet_rules},
        },
        "vmalert-service.yaml": _service(cluster, "vmalert", {"http": _port(spec.victoriametrics.vmalert)}),
        "vmalert-deployment.yaml": _deployment(cluster, "vmalert", 1, vmalert_pod),
    }
    objects["kustomization.yaml"] = {
        "apiVersion": "kustomize.config.k8s.io/v1beta1",
        "kind": "Kustomization",
        "namespace": cluster.namespace,
        "resources": sorted(objects),
    }
    return {f"{base}/{name}": content for name, content in objects.items()}

"""``gpuscope remediate`` in the bundle: its policy, Alertmanager's route to it, and how it runs per cluster kind.

Only when the spec has ``remediation:``. Then:

- ``remediation/policy.yaml``: every Kubernetes and Slurm cluster, the spec's budget and return policy, the default
  rules (the local stack's dry run reads this one);
- Alertmanager: first routes, one per cluster, ``continue: true`` so the owners' routes still page, sending the
  rules' alerts of severity page to that cluster's remediator (``remediation.urls``; one group per alert, resolved
  notifications included: they start the hold of good health), with the bearer token file;
- per Kubernetes cluster, ``kubernetes/<cluster>/remediate/``: a Deployment of one replica (the leader Lease keeps
  a second one idle during a rollout), its Service, ServiceAccount, ClusterRole (nodes get/list/patch, nodes/status
  patch), a Role in the namespace (events create, leases get/create/update), the bindings, the policy ConfigMap of
  that cluster alone, and a kustomization;
- per Slurm cluster, ``slurm/<cluster>/``: a systemd unit running the remediator as SlurmUser on a host with
  Slurm's client commands, its policy, and the job-mapping prolog/epilog (``generate/slurm_jobs.py``).

Dry run unless ``remediation.apply``: the generated remediators log what they would do until a person says so.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from gpuscope.bundle import to_yaml
from gpuscope.generate.slurm_jobs import slurm_job_files
from gpuscope.remediate.policy import LEASE_NAME, TAINT_KEY
from gpuscope.rules.timescale import scale
from gpuscope.spec.fleet import Cluster, FleetSpec, Remediation

RECEIVER = "gpuscope-remediate"
APP = "gpuscope-remediate"
PORT = 9450
TOKEN_DIR = "/etc/gpuscope/remediate"
STATE_DIR = "/var/lib/gpuscope-remediate"
# The alerts the default policy acts on (remediate/policy.py DEFAULT_RULES), in the route's matcher.
ALERTS = ("GPUFellOffBus", "GPUXidCritical", "GPUDoubleBitEccErrors", "GPURowRemapFailure", "GPUFabricDegraded")


def _acting(spec: FleetSpec) -> list[Cluster]:
    return [c for c in spec.clusters if c.kind == "kubernetes" or c.slurm is not None]


def policy(spec: FleetSpec, clusters: list[Cluster]) -> dict[str, Any]:
    """The policy file for ``clusters`` (the keys of ``remediate.policy.Policy``)."""
    r = spec.remediation or Remediation()
    budget: dict[str, Any] = {"max_nodes": r.max_nodes, "max_percent": r.max_percent}
    return {
        "clusters": [
            {
                "name": c.name,
                "kind": "kubernetes" if c.kind == "kubernetes" else "slurm",
                "nodes": c.nodes,
                "budget": {k: v for k, v in budget.items() if v is not None},
            }
            for c in clusters
        ],
        "node_label": spec.exporter.host_label,
        "return_to_service": {"after": r.return_after} if r.return_after else {},
        "kubernetes": {"taint_effect": r.taint_effect, "cordon": r.cordon, "namespace": _namespace(clusters)},
    }


def _namespace(clusters: list[Cluster]) -> str:
    return next((c.namespace for c in clusters if c.kind == "kubernetes"), "gpu-monitoring")


def alertmanager_routes(spec: FleetSpec) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The first routes (one per acting cluster, to that cluster's remediator) and their receivers."""
    r = spec.remediation
    if r is None:
        return [], []
    routes, receivers = [], []
    for cluster in _acting(spec):
        name = f"{RECEIVER}-{cluster.name}"
        hook: dict[str, Any] = {"url": r.url(cluster), "send_resolved": True, "max_alerts": 0}
        if r.bearer_token_file:
            hook["http_config"] = {"authorization": {"type": "Bearer", "credentials_file": r.bearer_token_file}}
        routes.append(
            {
                "receiver": name,
                "matchers": [f'cluster="{cluster.name}"', f'alertname=~"{"|".join(ALERTS)}"', 'severity="page"'],
                # Every alert its own group: one node's failure is never held back waiting for another's.
                "group_by": ["..."],
                "group_wait": scale("5s", spec.speedup),
                "group_interval": scale("1m", spec.speedup),
                # A node skipped for the budget is retried when the alert is sent again.
                "repeat_interval": scale("15m", spec.speedup),
                "continue": True,  # the owners' routes below still page
            }
        )
        receivers.append({"name": name, "webhook_configs": [hook]})
    return routes, receivers


def _args(spec: FleetSpec, listen: str, policy_path: str, *, token: bool) -> list[str]:
    r = spec.remediation or Remediation()
    args = ["remediate", f"--policy={policy_path}", f"--listen={listen}", "--log-format=json"]
    if token:
        args.append(f"--bearer-token-file={TOKEN_DIR}/token")
    args += [f"--alertmanager=http://{a}" for a in _alertmanagers(spec)]
    args.append("--apply" if r.apply else "--dry-run")
    return args


def _alertmanagers(spec: FleetSpec) -> list[str]:
    return sorted({a for c in spec.clusters for a in c.endpoints.alertmanagers})


def _labels() -> dict[str, str]:
    return {"app.kubernetes.io/name": APP, "app.kubernetes.io/part-of": "gpuscope"}


def _meta(name: str, cluster: Cluster) -> dict[str, Any]:
    return {"name": name, "namespace": cluster.namespace, "labels": _labels()}


def _deployment(spec: FleetSpec, cluster: Cluster) -> dict[str, Any]:
    token = bool(spec.remediation and spec.remediation.bearer_token_file)
    container = {
        "name": "remediate",
        "image": spec.exporter.image,
        "command": [
            "gpuscope",
            *_args(spec, f"0.0.0.0:{PORT}", "/etc/gpuscope/policy/policy.yaml", token=token),
            f"--state-file={STATE_DIR}/state.json",
        ],
        "env": [{"name": "POD_NAME", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}],
        "ports": [{"name": "webhook", "containerPort": PORT, "protocol": "TCP"}],
        "resources": {"requests": {"cpu": "10m", "memory": "48Mi"}, "limits": {"memory": "128Mi"}},
        "securityContext": {
            "runAsNonRoot": True,
            "runAsUser": 65534,
            "allowPrivilegeEscalation": False,
            "readOnlyRootFilesystem": True,
            "capabilities": {"drop": ["ALL"]},
        },
        "readinessProbe": {"httpGet": {"path": "/-/ready", "port": "webhook"}, "periodSeconds": 10},
        "livenessProbe": {"httpGet": {"path": "/-/healthy", "port": "webhook"}, "periodSeconds": 30},
        "volumeMounts": [
            {"name": "policy", "mountPath": "/etc/gpuscope/policy", "readOnly": True},
            # What was seen survives a container restart; a new pod re-adopts its holds from the nodes' marks.
            {"name": "state", "mountPath": STATE_DIR},
            *([{"name": "token", "mountPath": TOKEN_DIR, "readOnly": True}] if token else []),
        ],
    }
    volumes: list[dict[str, Any]] = [
        {"name": "policy", "configMap": {"name": f"{APP}-policy"}},
        {"name": "state", "emptyDir": {"sizeLimit": "16Mi"}},
    ]
    if token:
        volumes.append({"name": "token", "secret": {"secretName": f"{APP}-token"}})
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": _meta(APP, cluster),
        "spec": {
            "replicas": 1,
            # Never two at once by design; the Lease covers the moments a rollout or a partition makes it happen.
            "strategy": {"type": "Recreate"},
            "selector": {"matchLabels": {"app.kubernetes.io/name": APP}},
            "template": {
                "metadata": {"labels": _labels()},
                "spec": {
                    "serviceAccountName": APP,
                    "priorityClassName": "system-cluster-critical",
                    # Its own taint must never evict it, nor a cordon of its node keep it from coming back.
                    "tolerations": [{"key": TAINT_KEY, "operator": "Exists"}],
                    "containers": [container],
                    "volumes": volumes,
                },
            },
        },
    }


def _rbac(cluster: Cluster) -> dict[str, dict[str, Any]]:
    cluster_role = f"{APP}-{cluster.namespace}"
    subject = [{"kind": "ServiceAccount", "name": APP, "namespace": cluster.namespace}]
    rbac = "rbac.authorization.k8s.io/v1"
    return {
        "clusterrole.yaml": {
            "apiVersion": rbac,
            "kind": "ClusterRole",
            "metadata": {"name": cluster_role, "labels": _labels()},
            "rules": [
                {"apiGroups": [""], "resources": ["nodes"], "verbs": ["get", "list", "patch"]},
                {"apiGroups": [""], "resources": ["nodes/status"], "verbs": ["patch"]},
            ],
        },
        "clusterrolebinding.yaml": {
            "apiVersion": rbac,
            "kind": "ClusterRoleBinding",
            "metadata": {"name": cluster_role, "labels": _labels()},
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": cluster_role},
            "subjects": subject,
        },
        "role.yaml": {
            "apiVersion": rbac,
            "kind": "Role",
            "metadata": _meta(APP, cluster),
            "rules": [
                {"apiGroups": [""], "resources": ["events"], "verbs": ["create"]},
                {"apiGroups": ["coordination.k8s.io"], "resources": ["leases"], "verbs": ["create"]},
                {
                    "apiGroups": ["coordination.k8s.io"],
                    "resources": ["leases"],
                    "resourceNames": [LEASE_NAME],
                    "verbs": ["get", "update"],
                },
            ],
        },
        "rolebinding.yaml": {
            "apiVersion": rbac,
            "kind": "RoleBinding",
            "metadata": _meta(APP, cluster),
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": APP},
            "subjects": subject,
        },
    }


def kubernetes_files(spec: FleetSpec, cluster: Cluster) -> dict[str, Any]:
    base = f"kubernetes/{cluster.name}/remediate"
    files: dict[str, Any] = {
        "serviceaccount.yaml": {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": _meta(APP, cluster)},
        "configmap-policy.yaml": {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": _meta(f"{APP}-policy", cluster),
            "data": {"policy.yaml": to_yaml(policy(spec, [cluster]))},
        },
        "deployment.yaml": _deployment(spec, cluster),
        "service.yaml": {
            "apiVersion": "v1",
            "kind": "Service",
            "metadata": _meta(APP, cluster),
            "spec": {
                "selector": {"app.kubernetes.io/name": APP},
                "ports": [{"name": "webhook", "port": PORT, "targetPort": "webhook", "protocol": "TCP"}],
            },
        },
        **_rbac(cluster),
    }
    files["kustomization.yaml"] = {
        "apiVersion": "kustomize.config.k8s.io/v1beta1",
        "kind": "Kustomization",
        "namespace": cluster.namespace,
        "resources": sorted(files),
    }
    return {f"{base}/{name}": content for name, content in files.items()}


def systemd_unit(spec: FleetSpec, cluster: Cluster) -> str:
    """The remediator on a Slurm host (with scontrol and slurm.conf), as SlurmUser: the right to drain nodes."""
    token = bool(spec.remediation and spec.remediation.bearer_token_file)
    listen = f"0.0.0.0:{urlsplit((spec.remediation or Remediation()).url(cluster)).port or PORT}"
    args = " ".join(_args(spec, listen, f"/etc/gpuscope/remediate/{cluster.name}/policy.yaml", token=token))
    return "\n".join(
        [
            "# gpuscope remediate for the Slurm cluster " + cluster.name + " (docs/remediation.md).",
            "# Install on a host with Slurm's client commands and /etc/slurm/slurm.conf (the controller is fine):",
            f"#   /etc/gpuscope/remediate/{cluster.name}/policy.yaml  <- slurm/{cluster.name}/policy.yaml",
            *([f"#   {TOKEN_DIR}/token  <- the token Alertmanager sends (mode 0400, owner slurm)"] if token else []),
            "# It runs as SlurmUser (slurm), whom slurmctld lets update nodes; with accounting another user works",
            "# after: sacctmgr modify user <user> set adminlevel=operator",
            "[Unit]",
            "Description=gpuscope remediate: drain Slurm nodes with failing GPUs (" + cluster.name + ")",
            "After=network-online.target slurmctld.service",
            "Wants=network-online.target",
            "",
            "[Service]",
            "User=slurm",
            f"ExecStart=/usr/local/bin/gpuscope {args} --state-file=/var/lib/gpuscope-remediate/state.json",
            "StateDirectory=gpuscope-remediate",
            "Restart=on-failure",
            "RestartSec=5",
            "NoNewPrivileges=true",
            "ProtectSystem=strict",
            "ProtectHome=true",
            "PrivateTmp=true",
            "",
            "[Install]",
            "WantedBy=multi-user.target",
            "",
        ]
    )


def slurm_files(spec: FleetSpec, cluster: Cluster) -> dict[str, Any]:
    base = f"slurm/{cluster.name}"
    files: dict[str, Any] = {f"{base}/{name}": text for name, text in slurm_job_files(cluster).items()}
    if spec.remediation is not None:
        files[f"{base}/gpuscope-remediate.service"] = systemd_unit(spec, cluster)
        files[f"{base}/policy.yaml"] = policy(spec, [cluster])
    return files


def remediation_files(spec: FleetSpec) -> dict[str, Any]:
    """Every remediation and Slurm file of the bundle."""
    files: dict[str, Any] = {}
    for cluster in spec.clusters:
        if cluster.slurm is not None:
            files.update(slurm_files(spec, cluster))
        if spec.remediation is not None and cluster.kind == "kubernetes":
            files.update(kubernetes_files(spec, cluster))
    acting = _acting(spec)
    if spec.remediation is not None and acting:
        files["remediation/policy.yaml"] = policy(spec, acting)
    return files

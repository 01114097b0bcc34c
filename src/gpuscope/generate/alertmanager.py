"""Alertmanager: a routing tree by ``owner`` and ``severity`` to each owner's receivers, grouping, inhibitions.

Every alert gpuscope generates carries ``owner`` (infra | platform | workload) and ``severity`` (page | ticket).
Each owner gets a ``<owner>-page`` and a ``<owner>-ticket`` receiver; pages reach every configured integration,
tickets only the one the spec names. Secrets are only ever file paths. Inhibitions: an exporter that is down
silences that instance's GPU alerts, a lost GPU silences its other alerts, a page silences the matching
ticket, and a node's NVLink page (a link down, a fatal SXid) silences that node's per-GPU echoes of the same fault.
"""

from __future__ import annotations

from typing import Any

from gpuscope.escaping import go_template_text
from gpuscope.fields.xid import CATALOG_BUCKETS, Bucket
from gpuscope.generate.remediation import alertmanager_routes
from gpuscope.rules.alerts_fabric import LINK_DOWN_ALERT, SWITCH_FATAL_ALERT
from gpuscope.rules.timescale import scale
from gpuscope.spec.fleet import FleetSpec, Receiver

OWNERS = ("infra", "platform", "workload")
# The fabric pages (rules/alerts_fabric.py) that name a node when every link or switch at fault is on it.
FABRIC_PAGES = (LINK_DOWN_ALERT, SWITCH_FATAL_ALERT)
# The XIDs the NVLink fault behind those pages makes each of the node's GPUs log (the catalogue's NVLink buckets).
FABRIC_OWNER = "infra"  # who the fabric pages and the XIDs go to (rules/alerts_fabric.py, alerts_gpu.py)
NVLINK_XIDS = tuple(
    sorted(c for c, b in CATALOG_BUCKETS.items() if b in (Bucket.WORKFLOW_NVLINK_ERR, Bucket.WORKFLOW_NVLINK5_ERR))
)
SEVERITIES = ("page", "ticket")


def receiver_name(owner: str, severity: str) -> str:
    return f"{owner}-{severity}"


def _integrations(receiver: Receiver, severity: str) -> dict[str, Any]:
    only = receiver.tickets_to if severity == "ticket" and receiver.tickets_to != "same" else None
    out: dict[str, Any] = {}
    if receiver.pagerduty and only in (None, "pagerduty"):
        out["pagerduty_configs"] = [
            {
                "routing_key_file": receiver.pagerduty.routing_key_file,
                "severity": "critical" if severity == "page" else "warning",
                "send_resolved": True,
            }
        ]
    if receiver.slack and only in (None, "slack"):
        out["slack_configs"] = [
            {
                "api_url_file": receiver.slack.api_url_file,
                "channel": go_template_text(receiver.slack.channel),  # Alertmanager expands templates here
                "send_resolved": True,
                "title": "[{{ .Status | toUpper }}] {{ .CommonLabels.alertname }} ({{ .CommonLabels.cluster }})",
                "text": "{{ range .Alerts }}{{ .Annotations.description }}\n{{ .Annotations.runbook_url }}\n{{ end }}",
            }
        ]
    if receiver.webhook and only in (None, "webhook"):
        hook: dict[str, Any] = {"url": receiver.webhook.url, "send_resolved": True}
        if receiver.webhook.bearer_token_file:
            hook["http_config"] = {
                "authorization": {"type": "Bearer", "credentials_file": receiver.webhook.bearer_token_file}
            }
        out["webhook_configs"] = [hook]
    return out


def _nvlink_xid_route(page: dict[str, Any], speedup: int) -> tuple[dict[str, Any], ...]:
    """The NVLink XIDs' pages, held back long enough for the fabric page of the same fault to inhibit them.

    A link going down makes its GPU log XID 74 at once (GPUXidCritical fires on its first evaluation) while
    GPUNVLinkDown waits its ``for: 1m``: with the pages' 10 s group_wait the XID went out first and the fault paged
    twice. Held for 2 minutes, the XID is dropped at its first flush if the fabric page names its node by then; an
    NVLink XID without a link down (a transient error) pages 2 minutes later than other XIDs, which drain just the
    same."""
    xids = "|".join(map(str, NVLINK_XIDS))
    held = {**page, "matchers": [*page["matchers"], 'alertname="GPUXidCritical"', f'xid=~"{xids}"']}
    return ({**held, "group_wait": scale("2m", speedup)},)


def alertmanager_config(spec: FleetSpec) -> dict[str, Any]:
    receivers = []
    routes = []
    for owner in OWNERS:
        receiver: Receiver = getattr(spec.receivers, owner)
        for severity in SEVERITIES:
            receivers.append({"name": receiver_name(owner, severity), **_integrations(receiver, severity)})
        page = {
            "matchers": ['severity="page"'],
            "receiver": receiver_name(owner, "page"),
            "group_wait": scale("10s", spec.speedup),
            "repeat_interval": scale("1h", spec.speedup),
        }
        routes.append(
            {
                "matchers": [f'owner="{owner}"'],
                "receiver": receiver_name(owner, "ticket"),
                "routes": [*(_nvlink_xid_route(page, spec.speedup) if owner == FABRIC_OWNER else ()), page],
            }
        )
    remediate, remediate_receivers = alertmanager_routes(spec)  # first, with continue: true
    routes[:0] = remediate
    receivers += remediate_receivers
    gpu_alert = 'alertname=~"GPU.+"'
    host = spec.rules_config().host_label
    return {
        "global": {"resolve_timeout": "5m"},
        "route": {
            # Alerts without an owner (someone else's rules) land with the platform team's tickets.
            "receiver": receiver_name("platform", "ticket"),
            "group_by": ["alertname", "cluster", "owner"],
            # speedup compresses these for demos and tests, like the rules' own durations.
            "group_wait": scale("30s", spec.speedup),
            "group_interval": scale("5m", spec.speedup),
            "repeat_interval": scale("4h", spec.speedup),
            "routes": routes,
        },
        "inhibit_rules": [
            {
                "source_matchers": ['alertname="GPUExporterDown"'],
                "target_matchers": [gpu_alert, 'alertname!="GPUExporterDown"'],
                "equal": ["cluster", "instance"],
            },
            {
                "source_matchers": ['alertname="GPUFellOffBus"'],
                "target_matchers": [gpu_alert, 'alertname!="GPUFellOffBus"'],
                "equal": ["cluster", spec.rules_config().uuid_label],
            },
            {
                "source_matchers": ['severity="page"'],
                "target_matchers": ['severity="ticket"'],
                "equal": ["alertname", "cluster", "instance"],
            },
            # One link down paged three ways: GPUNVLinkDown, the GPU's XID 74 (GPUXidCritical, a second page) and
            # its fabric health (GPUFabricDegraded). While the fabric page names the node, its GPUs' echoes wait.
            # A fault across nodes (a switch tray) names none: its per-GPU alerts group into one notification each.
            *(
                {
                    "source_matchers": [f'alertname=~"{"|".join(FABRIC_PAGES)}"'],
                    "target_matchers": target,
                    "equal": ["cluster", host],
                }
                for target in (
                    ['alertname="GPUXidCritical"', f'xid=~"{"|".join(map(str, NVLINK_XIDS))}"'],
                    ['alertname="GPUFabricDegraded"'],
                )
            ),
        ],
        "receivers": receivers,
    }

"""``gpuscope remediate``: options in, a running remediator out (policy, actuators, engine, server, signals).

A dry run (the default) builds no actuator at all: it never reads nor writes the scheduler, so it runs anywhere
(the local stack runs it). ``--apply`` needs, per cluster kind in the policy, the one scheduler this process
reaches: Slurm through ``scontrol`` (``SLURM_CONF``), Kubernetes through the pod's service account (or
``KUBERNETES_SERVICE_HOST``/``_PORT`` and ``GPUSCOPE_SERVICEACCOUNT_DIR``), and so at most one cluster of each kind.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
from collections.abc import Callable
from dataclasses import dataclass, field

from gpuscope.errors import EnvironmentProblem, InvalidValue, UsageError
from gpuscope.httpd.listen import parse_listen
from gpuscope.httpd.webconfig import WebConfig, load_web_config
from gpuscope.inputs import read_text
from gpuscope.kube.client import ApiServer
from gpuscope.remediate.actuator import Actuator
from gpuscope.remediate.audit import AuditLog, Metrics
from gpuscope.remediate.engine import Engine
from gpuscope.remediate.kubernetes import KubeApi, KubernetesActuator
from gpuscope.remediate.lease import LeaseKeeper
from gpuscope.remediate.ledger import LedgerFile
from gpuscope.remediate.pager import AlertmanagerPager
from gpuscope.remediate.policy import LEASE_NAME, Policy, load_policy
from gpuscope.remediate.server import Service, serve
from gpuscope.remediate.slurm import SlurmActuator

log = logging.getLogger("gpuscope.remediate")


@dataclass(frozen=True, slots=True, kw_only=True)
class RemediateOptions:
    policy: str
    listen: str = "127.0.0.1:9450"
    apply: bool = False
    bearer_token_file: str | None = None
    web_config_file: str | None = None
    audit_log: str = "-"
    state_file: str | None = None
    alertmanagers: tuple[str, ...] = ()
    scontrol: str = "scontrol"
    lease: bool = True  # take the leader Lease when acting on a Kubernetes cluster
    identity: str = field(default_factory=lambda: os.environ.get("POD_NAME") or socket.gethostname())
    queue_size: int = 256
    tick_s: float = 1.0
    insecure_no_auth: bool = False  # --apply without authenticating who delivers: only on a trusted network


def read_token(path: str | None) -> str | None:
    if path is None:
        return None
    token = read_text(path, "bearer token file").strip()
    if not token or not token.isprintable() or " " in token:
        raise InvalidValue("bearer_token_file", path, "the file must hold one token (printable, no spaces)")
    return token


def require_auth(options: RemediateOptions, token: str | None, web_config: WebConfig | None) -> None:
    """``--apply`` acts for whoever can POST: a bearer token, verified client certificates or basic auth users, or
    ``--insecure-no-auth`` said out loud (and warned about)."""
    if not options.apply:
        return
    tls = web_config.tls if web_config is not None else None
    verified = tls is not None and str(tls.settings.client_auth) == "RequireAndVerifyClientCert"
    if token is not None or verified or (web_config is not None and web_config.users):
        return
    if options.insecure_no_auth:
        log.warning(
            "--apply with --insecure-no-auth: anyone who can reach %s may take nodes out of service; "
            "give --bearer-token-file or client certificates (--web-config-file)",
            options.listen,
        )
        return
    raise UsageError(
        "{apply} needs authentication: give {bearer_token_file} (Alertmanager's http_config.authorization) or "
        "{web_config_file} with client_auth_type: RequireAndVerifyClientCert (or {insecure_no_auth} on a trusted "
        "network)"
    ).naming("apply", "bearer_token_file", "web_config_file", "insecure_no_auth")


def build_actuators(policy: Policy, options: RemediateOptions) -> tuple[dict[str, Actuator], LeaseKeeper | None]:
    if not options.apply:
        return {}, None
    actuators: dict[str, Actuator] = {}
    lease = None
    for kind in ("slurm", "kubernetes"):
        names = [c.name for c in policy.clusters if c.kind == kind]
        if len(names) > 1:
            raise UsageError(
                f"{{apply}} acts on one {kind} cluster per process, the policy names {len(names)} "
                f"({', '.join(names)}): run one remediator per cluster, each with its own policy"
            ).naming("apply")
    for cluster in policy.clusters:
        if cluster.kind == "slurm":
            actuators[cluster.name] = SlurmActuator(options.scontrol)
            continue
        server = ApiServer.from_env()
        if server is None:
            raise EnvironmentProblem(
                f"{{apply}} on Kubernetes cluster {cluster.name}: no API server (KUBERNETES_SERVICE_HOST/PORT unset); "
                "run in the cluster with the generated Deployment"
            ).naming("apply")
        api = KubeApi(server)
        actuators[cluster.name] = KubernetesActuator(api, policy.kubernetes.namespace)
        if options.lease:
            lease = LeaseKeeper(api, policy.kubernetes.namespace, LEASE_NAME, options.identity)
    return actuators, lease


def run_remediator(options: RemediateOptions, on_ready: Callable[[], None] | None = None) -> None:
    """Serve until SIGINT/SIGTERM; every input problem is raised before anything listens."""
    address = parse_listen(options.listen)  # a ListenAddressError names ``listen``: the CLI words it --listen
    policy = load_policy(options.policy)
    token = read_token(options.bearer_token_file)
    web_config = load_web_config(options.web_config_file) if options.web_config_file else None
    require_auth(options, token, web_config)
    state = LedgerFile(options.state_file)
    state.check()
    audit = AuditLog(options.audit_log)  # the first tick reconciles the ledger with the scheduler (when acting)
    try:
        actuators, lease = build_actuators(policy, options)
    except BaseException:
        audit.close()
        raise
    pager = AlertmanagerPager(options.alertmanagers) if options.alertmanagers else None
    engine = Engine(policy, actuators=actuators, apply=options.apply, pager=pager, state=state)
    leader: Callable[[], bool] = (lambda: True) if lease is None else lease.check
    mode = "acting (--apply)" if options.apply else "dry run: nothing is changed, every decision is logged"
    clusters = ", ".join(f"{c.name} ({c.kind})" for c in policy.clusters)

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        service = Service(
            engine=engine,
            audit=audit,
            metrics=Metrics(),
            queue=asyncio.Queue(maxsize=options.queue_size),
            token=token,
            leader=leader,
            tick_s=options.tick_s,
            is_leader=lease is None,  # with a Lease, nothing is accepted before it is held
        )

        def ready() -> None:
            log.info("remediating %s on %s; %s", clusters, address, mode)
            if on_ready is not None:
                on_ready()

        await serve(service, address.host, address.port, web_config, stop, ready)

    try:
        asyncio.run(main())
    finally:
        audit.close()

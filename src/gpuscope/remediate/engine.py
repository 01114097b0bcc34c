"""The planner: Alertmanager's notifications and the passing of time in, decisions out, each within the policy's limits.

For a firing alert, in order (the first that applies decides; docs/remediation.md explains each):

1. no rule for the alert, a ``ticket``, a cluster the policy does not name, no node label, or an XID whose
   catalogue action keeps the node in service: ``ignored``; a node label that is no node name (``..``, a ``/``,
   a newline): ``refused``, before any scheduler is asked;
2. a node gpuscope already holds, or an alert occurrence (fingerprint and start) already acted on: ``already``
   (so both Alertmanagers of a pair delivering, and every redelivery, do nothing more);
3. the cluster's budget in use: ``over_budget``, and one page for the cluster until the budget has room again;
4. (acting) a node that is not a GPU node of the fleet (no ``Gres=gpu``, no ``nvidia.com/gpu`` capacity: a login
   host, the control plane): ``refused``; a node someone else took out of service: ``persons``, left alone for
   good; the budget once more, against what the scheduler records (the nodes carrying gpuscope's mark), not only
   the ledger: ``over_budget``;
5. otherwise the node is drained (Slurm) or tainted (Kubernetes): ``done``, or ``would`` in a dry run, which
   never contacts the scheduler.

A resolved alert starts the node's hold of good health once no alert fires on it; after
``return_to_service.after`` it returns (``return``), unless the policy never returns nodes, or it has flapped
(returned ``flap.max_returns`` times within ``flap.window``): then a person decides. Every few ticks, when acting,
the ledger is reconciled with what the scheduler records: a hold a person undid frees its budget, a node marked by
gpuscope that the ledger lost is adopted; the first reconciliation comes before the first notification is planned.

Nothing dies silently: an error in one decision (a hostile label, a scheduler's odd answer) is that decision's
``failed`` result and one log line; the planning goes on with the next.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, Protocol

from gpuscope.durations import prometheus_seconds
from gpuscope.fields.xid import xid_info
from gpuscope.remediate.actuator import Actuator, ActuatorError, Hold, action_of
from gpuscope.remediate.decision import Decision
from gpuscope.remediate.ledger import MAX_NAME_CHARS, Held, Ledger, LedgerFile, node_key
from gpuscope.remediate.pager import NO_PAGER, PagerError
from gpuscope.remediate.payload import AlertEvent, Delivery
from gpuscope.remediate.policy import ClusterPolicy, Policy, Rule

log = logging.getLogger(__name__)

RECONCILE_S = 60.0
SIZE_CACHE_S = 60.0
# What a Slurm or Kubernetes node name can be (a DNS subdomain, a Slurm NodeName): never ``.``, ``..`` or a ``/``,
# so no alert label can name another API path; ASCII only, so no newline can forge a log line.
NODE_NAME = re.compile(rf"[A-Za-z0-9](?:[A-Za-z0-9._-]{{0,{MAX_NAME_CHARS - 1}}})", re.ASCII)


class Pager(Protocol):
    def fire(self, cluster: str, summary: str, description: str, ends_at: float) -> str: ...

    def resolve(self, cluster: str) -> str: ...


def alert_key(ev: AlertEvent, cluster: str, node: str) -> str:
    """One occurrence of one alert: the same from either Alertmanager of a pair, and on every redelivery."""
    return f"{cluster}/{node}/{ev.name}/{ev.fingerprint}/{ev.starts_at}"


class Engine:
    def __init__(
        self,
        policy: Policy,
        *,
        actuators: Mapping[str, Actuator],
        apply: bool,
        pager: Pager | None = None,
        state: LedgerFile | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.policy = policy
        self.actuators = actuators
        self.apply = apply
        self.pager = pager
        self.state = state or LedgerFile(None)
        self.clock = clock
        self.ledger: Ledger = self.state.load()
        self._sizes: dict[str, tuple[float, int | None]] = {}
        self._reconciled = 0.0

    # -- notifications -------------------------------------------------------------------------------------------

    def handle(self, delivery: Delivery) -> list[Decision]:
        out = []
        for ev in delivery.alerts:
            try:
                if ev.status == "firing":
                    out += self._firing(ev)
                else:
                    self._resolved(ev)
            except Exception as exc:  # one alert's failure is its decision, never the worker's end
                log.error("planning %s failed: %s", ev.name[:80].encode("unicode_escape").decode(), _one_line(exc))
                log.debug("the failure's traceback", exc_info=True)
                where, node = ev.labels.get("cluster", "")[:63], ev.labels.get(self.policy.node_label, "")[:128]
                out.append(self._decide(ev, where, node, "none", "failed", f"internal error: {_one_line(exc)}"))
        self._save()
        return out

    def _decide(self, ev: AlertEvent, cluster: str, node: str, action: str, result: str, detail: str) -> Decision:
        return Decision(
            time=self.clock(),
            cluster=cluster,
            node=node,
            alert=ev.name,
            action=action,
            result=result,
            detail=detail,
            dry_run=not self.apply,
            fingerprint=ev.fingerprint,
            starts_at=ev.starts_at,
        )

    def _target(self, ev: AlertEvent) -> tuple[Rule, ClusterPolicy, str] | str:
        """The rule, cluster and node an alert acts on, or why it does not."""
        rule = self.policy.rule(ev.name)
        if rule is None:
            return "no rule in the policy for this alert"
        if ev.labels.get("severity") != "page":
            return f"severity {ev.labels.get('severity', '')[:20]!r}: only pages act, a ticket never does"
        cluster = self.policy.cluster(ev.labels.get("cluster", ""))
        if cluster is None:
            return f"cluster {ev.labels.get('cluster', '')[:63]!r} is not in the policy"
        node = ev.labels.get(self.policy.node_label, "")
        if not node:
            return f"no {self.policy.node_label} label naming the node"
        if not NODE_NAME.fullmatch(node):
            return f"refused:{self.policy.node_label} {node[:80]!r} is not a node name (letters, digits, . _ -)"
        if rule.xid_buckets:
            xid = ev.labels.get("xid", "")
            ascii_digits = xid.isascii() and xid.isdigit()  # "²" is isdigit() but no int(): never a crash
            bucket = xid_info(int(xid)).bucket if ascii_digits and len(xid) < 6 else None
            if bucket not in rule.xid_buckets:
                name = bucket.value if bucket else "not in the catalogue"
                return f"XID {xid[:6] or '?'} ({name}): the catalogue's action keeps the node in service"
        return rule, cluster, node

    def _firing(self, ev: AlertEvent) -> list[Decision]:
        target = self._target(ev)
        if isinstance(target, str):
            where, what = ev.labels.get("cluster", ""), ev.labels.get(self.policy.node_label, "")
            result, _, detail = target.partition(":") if target.startswith("refused:") else ("ignored", "", target)
            return [self._decide(ev, where[:63], what[:128], "none", result, detail)]
        rule, cluster, node = target
        action = action_of(cluster.kind)
        key, nk = alert_key(ev, cluster.name, node), node_key(cluster.name, node)
        held = self.ledger.held.get(nk)
        if held is not None:
            held.fires(ev.fingerprint, ev.name)
            held.healthy_since = None
            self.ledger.saw(nk, key, self.clock())
            return [self._decide(ev, cluster.name, node, action, "already", f"held by gpuscope for {held.alert}")]
        if self.ledger.has_seen(nk, key):
            return [self._decide(ev, cluster.name, node, action, "already", "this alert was acted on already")]
        in_use, limit = self.ledger.in_use(cluster.name), self.limit(cluster)
        if in_use >= limit:
            detail = f"budget of {limit} node{'s' if limit != 1 else ''} in {cluster.name} in use"
            decision = self._decide(ev, cluster.name, node, action, "over_budget", detail)
            page = self._page(cluster, limit, decision)
            return [decision] if page is None else [decision, page]
        return self._hold(ev, rule, cluster, node, key)

    def _hold(self, ev: AlertEvent, rule: Rule, cluster: ClusterPolicy, node: str, key: str) -> list[Decision]:
        action, nk = action_of(cluster.kind), node_key(cluster.name, node)
        returns = len(self.ledger.returns.get(nk, ()))
        flapping = returns >= self.policy.flap.max_returns
        hold = Hold(
            node=node,
            alert=ev.name,
            summary=ev.annotations.get("summary", ""),
            taint_effect=rule.taint_effect or self.policy.kubernetes.taint_effect,
            cordon=self.policy.kubernetes.cordon,
        )
        detail = hold.reason
        out: list[Decision] = []
        if self.apply:
            actuator = self.actuators[cluster.name]
            try:
                state = actuator.inspect(node)
                if not state.exists:
                    return [self._decide(ev, cluster.name, node, "none", "ignored", state.detail)]
                if state.gpus is not None and state.gpus < 1:
                    detail = f"not a GPU node of the fleet ({state.detail}; no GPUs in the scheduler): never acted on"
                    return [self._decide(ev, cluster.name, node, action, "refused", detail)]
                if state.persons:
                    self.ledger.saw(nk, key, self.clock())
                    detail = f"out of service by someone else ({state.detail}): left alone"
                    return [self._decide(ev, cluster.name, node, action, "persons", detail)]
                if state.ours:  # marked by gpuscope, unknown to the ledger (a lost state file): adopted
                    self._adopt(cluster.name, node, ev.name, key, ev)
                    return [self._decide(ev, cluster.name, node, action, "already", "marked by gpuscope on the node")]
                # The ledger is a copy; the scheduler's marks are the truth (a lost state file, a restart).
                out += self._reconcile_cluster(cluster, actuator)
                in_use, limit = self.ledger.in_use(cluster.name), self.limit(cluster)
                if in_use >= limit:
                    detail = f"budget of {limit} node{'s' if limit != 1 else ''} in {cluster.name} in use (scheduler)"
                    decision = self._decide(ev, cluster.name, node, action, "over_budget", detail)
                    page = self._page(cluster, limit, decision)
                    return [*out, decision] if page is None else [*out, decision, page]
                detail = actuator.hold(hold)
            except ActuatorError as exc:
                return [*out, self._decide(ev, cluster.name, node, action, "failed", str(exc))]
        if flapping:
            window = self.policy.flap.window
            detail += f"; returned {returns} times within {window}: stays out until a person returns it"
        self.ledger.held[nk] = Held(
            cluster=cluster.name,
            node=node,
            alert=ev.name,
            since=self.clock(),
            firing={ev.fingerprint: ev.name},
            auto_return=not flapping and self.policy.return_to_service.after is not None,
            dry_run=not self.apply,
        )
        self.ledger.saw(nk, key, self.clock())
        return [*out, self._decide(ev, cluster.name, node, action, "done" if self.apply else "would", detail)]

    def _adopt(self, cluster: str, node: str, alert: str, key: str, ev: AlertEvent) -> None:
        self.ledger.held[node_key(cluster, node)] = Held(
            cluster=cluster,
            node=node,
            alert=alert,
            since=self.clock(),
            firing={ev.fingerprint: alert},
            auto_return=self.policy.return_to_service.after is not None,
        )
        self.ledger.saw(node_key(cluster, node), key, self.clock())

    def _resolved(self, ev: AlertEvent) -> None:
        node = ev.labels.get(self.policy.node_label, "")
        held = self.ledger.held.get(node_key(ev.labels.get("cluster", ""), node))
        if held is None:
            return
        held.firing.pop(ev.fingerprint, None)
        if not held.firing and held.healthy_since is None:
            held.healthy_since = self.clock()
            log.info("%s/%s: no alert fires on it any more; healthy since now", held.cluster, held.node)

    # -- the budget and its page ---------------------------------------------------------------------------------

    def size(self, cluster: ClusterPolicy) -> int | None:
        if cluster.nodes is not None or not self.apply:
            return cluster.nodes
        now = self.clock()
        cached = self._sizes.get(cluster.name)
        if cached is not None and now - cached[0] < SIZE_CACHE_S:
            return cached[1]
        try:
            size = self.actuators[cluster.name].size()
        except ActuatorError as exc:
            log.warning("cannot count the nodes of %s (%s): only max_nodes applies", cluster.name, exc)
            size = None
        self._sizes[cluster.name] = (now, size)
        return size

    def limit(self, cluster: ClusterPolicy) -> int:
        return cluster.budget.limit(self.size(cluster))

    def budgets(self) -> dict[str, tuple[int, int]]:
        """Per cluster: nodes held now and the budget's limit."""
        return {c.name: (self.ledger.in_use(c.name), self.limit(c)) for c in self.policy.clusters}

    def _page(self, cluster: ClusterPolicy, limit: int, cause: Decision) -> Decision | None:
        if cluster.name in self.ledger.paged:
            return None
        self.ledger.paged[cluster.name] = self.clock()
        summary = f"The remediation budget of {cluster.name} is exhausted: GPU alerts are not being acted on."
        description = (
            f"gpuscope remediate holds {limit} node(s) of {cluster.name}, its budget; {cause.node} ({cause.alert}) "
            "and any further nodes are left in service. A correlated failure (power, network, a bad driver or rule) "
            "is likely: look at the cluster as a whole before raising the budget."
        )
        return self._page_call(cluster.name, lambda p: p.fire(cluster.name, summary, description, self._page_end()))

    def _page_end(self) -> float:
        return self.clock() + prometheus_seconds(self.policy.page_for)

    def _page_call(self, cluster: str, call: Callable[[Pager], str], result: str = "done") -> Decision:
        decision = Decision(
            time=self.clock(), cluster=cluster, node="", alert="", action="page", result=result, dry_run=not self.apply
        )
        if not self.apply:
            return _with(decision, result="would" if result == "done" else result, detail="a dry run never pages")
        if self.pager is None:
            return _with(decision, result="failed", detail=NO_PAGER)
        try:
            return _with(decision, detail=call(self.pager))
        except PagerError as exc:
            return _with(decision, result="failed", detail=str(exc))

    # -- time ----------------------------------------------------------------------------------------------------

    def tick(self) -> list[Decision]:
        """Returns due, pages resolved or renewed, the ledger reconciled with the scheduler (when acting)."""
        now = self.clock()
        out: list[Decision] = []
        try:
            if self.apply and now - self._reconciled >= RECONCILE_S:
                out += self.reconcile()
            after = self.policy.return_to_service.after_s
            for nk, held in list(self.ledger.held.items()):
                healthy = held.healthy_since
                if healthy is None or not held.auto_return or after is None or now - healthy < after:
                    continue
                out.append(self._return(nk, held))
            out += self._pages()
        except Exception as exc:  # the next tick tries again; the worker lives on
            log.error("the remediator's periodic work failed: %s", _one_line(exc))
            log.debug("the failure's traceback", exc_info=True)
            out.append(
                Decision(
                    time=now, cluster="", node="", alert="", action="none", result="failed",
                    detail=f"internal error: {_one_line(exc)}", dry_run=not self.apply,
                )
            )  # fmt: skip
        self.ledger.prune(now, self.policy.flap.window_s)
        if out:
            self._save()
        return out

    def _return(self, nk: str, held: Held) -> Decision:
        decision = Decision(
            time=self.clock(), cluster=held.cluster, node=held.node, alert=held.alert, action="return",
            result="would", dry_run=not self.apply,
        )  # fmt: skip
        if self.apply:
            try:
                done = self.actuators[held.cluster].release(held.node, held.alert)
                decision = _with(decision, result="done", detail=done)
            except ActuatorError as exc:
                return _with(decision, result="failed", detail=str(exc))
        del self.ledger.held[nk]
        self.ledger.returned(nk, self.clock(), self.policy.flap.max_returns + 1)
        return decision

    def _pages(self) -> list[Decision]:
        out = []
        for name, since in list(self.ledger.paged.items()):
            cluster = self.policy.cluster(name)
            if cluster is None or self.ledger.in_use(name) < self.limit(cluster):
                del self.ledger.paged[name]
                out.append(self._page_call(name, _resolver(name), result="resolved"))
            elif (
                self.apply
                and self.pager is not None
                and self.clock() - since >= prometheus_seconds(self.policy.page_for) / 2
            ):
                self.ledger.paged[name] = self.clock()  # renewed quietly: the same alert, no new notification
                try:
                    self.pager.fire(name, "The remediation budget is still exhausted.", "", self._page_end())
                except PagerError as exc:
                    log.warning("renewing the budget page of %s: %s", name, exc)
        return out

    def reconcile(self) -> list[Decision]:
        """Make the ledger agree with the nodes' marks: adopt what it lost, drop what a person took back."""
        self._reconciled = self.clock()
        out = []
        for cluster in self.policy.clusters:
            actuator = self.actuators.get(cluster.name)
            if actuator is None:
                continue
            try:
                out += self._reconcile_cluster(cluster, actuator)
            except ActuatorError as exc:
                log.warning("cannot list the nodes gpuscope holds in %s: %s", cluster.name, exc)
        self._save()
        return out

    def _reconcile_cluster(self, cluster: ClusterPolicy, actuator: Actuator) -> list[Decision]:
        """Adopt the nodes carrying gpuscope's mark, drop the holds a person undid; raises ``ActuatorError``."""
        owned = set(actuator.owned())
        out = []
        for node in sorted(owned):
            nk = node_key(cluster.name, node)
            if nk not in self.ledger.held:
                log.info("%s: marked by gpuscope on the node, adopted (no alert known: a person returns it)", nk)
                self.ledger.held[nk] = Held(
                    cluster=cluster.name, node=node, alert="(found marked)", since=self.clock(), auto_return=False
                )
        for nk, held in list(self.ledger.held.items()):
            if held.cluster == cluster.name and held.node not in owned:
                del self.ledger.held[nk]
                out.append(
                    Decision(
                        time=self.clock(), cluster=held.cluster, node=held.node, alert=held.alert,
                        action="return", result="persons", detail="returned to service by someone else",
                        dry_run=False,
                    )
                )  # fmt: skip
        return out

    def _save(self) -> None:
        self.state.save(self.ledger)


def _one_line(exc: BaseException) -> str:
    text = " ".join(f"{type(exc).__name__}: {exc}".split())
    return text[:300].encode("ascii", "backslashreplace").decode()


def _with(decision: Decision, **changes: Any) -> Decision:
    return replace(decision, **changes)


def _resolver(cluster: str) -> Callable[[Pager], str]:
    return lambda pager: pager.resolve(cluster)

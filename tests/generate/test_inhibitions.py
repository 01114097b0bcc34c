"""The generated Alertmanager's inhibitions, on a real Alertmanager: what a fault pages, and what it holds back.

One NVLink link down used to page twice and ticket once for one fault (GPUNVLinkDown for the partition, XID 74 as
GPUXidCritical and GPUFabricDegraded for the GPU): while the fabric page names the node, that node's per-GPU
echoes of it are inhibited; another node's, and the same node's other XIDs, are not. The XID fires first (its rule has
no ``for``): its page waits for the fabric page that inhibits it.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from gpuscope.generate.alertmanager import NVLINK_XIDS
from gpuscope.rules.alerts_fabric import LINK_DOWN_ALERT, SWITCH_FATAL_ALERT
from tests.support.net import wait_for
from tests.support.remediate import alertmanagers, page, post_alert, recorder, write_bundle
from tests.support.specs import ONE, fleet

pytestmark = pytest.mark.e2e

CLUSTER = "gpu-a"  # the cluster of specs.ONE


def _alerts(url: str) -> dict[tuple[str, str, str], list[str]]:
    """Each alert Alertmanager holds, (alertname, host, xid) -> the fingerprints of what inhibits it."""
    body: list[dict[str, Any]] = httpx.get(f"{url}/api/v2/alerts", timeout=10).raise_for_status().json()
    return {
        (a["labels"]["alertname"], a["labels"].get("Hostname", ""), a["labels"].get("xid", "")): a["status"][
            "inhibitedBy"
        ]
        for a in body
    }


def _fabric_page(alertname: str, node: str | None) -> dict[str, str]:
    """A fabric page as alerts_fabric writes it: per partition, with the host only when the fault is on one node."""
    labels = {
        "alertname": alertname,
        "cluster": CLUSTER,
        "severity": "page",
        "owner": "infra",
        "partition": "c0ffee/7",
        "cluster_uuid": "c0ffee",
        "clique_id": "7",
    }
    return labels | ({"Hostname": node} if node else {})


@pytest.mark.parametrize("source", [LINK_DOWN_ALERT, SWITCH_FATAL_ALERT])
def test_a_nodes_fabric_page_holds_back_its_gpus_nvlink_echoes_only(source: str, tmp_path: Path) -> None:
    bundle = write_bundle(fleet(ONE), tmp_path)
    now = time.time()
    echoes = [
        page(CLUSTER, "n1", "GPUXidCritical", xid=str(NVLINK_XIDS[0])),
        page(CLUSTER, "n1", "GPUXidCritical", gpu="1", xid=str(NVLINK_XIDS[-1])),
        page(CLUSTER, "n1", "GPUFabricDegraded", severity="ticket"),
    ]
    kept = [
        page(CLUSTER, "n1", "GPUXidCritical", gpu="2", xid="48"),  # a memory fault on the same node
        page(CLUSTER, "n2", "GPUXidCritical", xid=str(NVLINK_XIDS[0])),  # another node's NVLink fault
        page(CLUSTER, "n2", "GPUFabricDegraded", severity="ticket"),
    ]
    with alertmanagers(bundle.alertmanager(), tmp_path) as (url,):
        for labels in [_fabric_page(source, "n1"), *echoes, *kept]:
            post_alert([url], labels, starts_at=now)
        # Alertmanager's inhibitor takes alerts as they arrive: wait until every echo is held back (or time out).
        echo_keys = [(e["alertname"], "n1", e.get("xid", "")) for e in echoes]
        held = wait_for(
            lambda: a if len(a := _alerts(url)) == 7 and all(a.get(k) for k in echo_keys) else None,
            timeout=30,
            what="the NVLink echoes of n1 inhibited",
        )
        for labels in kept:
            assert not held[labels["alertname"], labels["Hostname"], labels.get("xid", "")], f"{labels} paged"
        assert not held[source, "n1", ""]


def test_a_fault_across_nodes_names_none_and_holds_back_nothing(tmp_path: Path) -> None:
    """A switch tray's fatal SXid spans the rack's trays: the page names no node, so no node's alerts are held
    back by it (they group into one notification per alert name instead)."""
    bundle = write_bundle(fleet(ONE), tmp_path)
    now = time.time()
    with alertmanagers(bundle.alertmanager(), tmp_path) as (url,):
        post_alert([url], _fabric_page(SWITCH_FATAL_ALERT, None), starts_at=now)
        post_alert([url], page(CLUSTER, "n1", "GPUXidCritical", xid=str(NVLINK_XIDS[0])), starts_at=now)
        held = wait_for(lambda: a if len(a := _alerts(url)) == 2 else None, timeout=30)
        # A source that arrived first inhibits at once: had it matched, the XID would already be held back.
        assert held[SWITCH_FATAL_ALERT, "", ""] == []
        assert not held["GPUXidCritical", "n1", str(NVLINK_XIDS[0])]


def test_one_link_down_pages_once_though_its_xid_fires_first(tmp_path: Path) -> None:
    """XID 74 fires on its first evaluation, GPUNVLinkDown after its ``for: 1m``: the NVLink XIDs' pages wait
    long enough (2 minutes, 8 s at speedup 15) for the fabric page to inhibit them; another node's NVLink XID,
    with no fabric page, still pages once that wait is over."""
    with recorder() as rec:
        hook = f'{{webhook: {{url: "{rec.url}"}}}}'
        spec = f"name: t\nclusters:\n{ONE}\nreceivers: {{infra: {hook}, platform: {hook}, workload: {hook}}}\n"
        bundle = write_bundle(spec + "speedup: 15\n", tmp_path)
        xid = str(NVLINK_XIDS[0])
        with alertmanagers(bundle.alertmanager(), tmp_path) as (url,):
            now = time.time()
            post_alert([url], page(CLUSTER, "n1", "GPUXidCritical", xid=xid), starts_at=now)
            post_alert([url], page(CLUSTER, "n2", "GPUXidCritical", xid=xid), starts_at=now)
            time.sleep(1)  # the fabric page comes later than the XID, as the rules fire them
            post_alert([url], _fabric_page(LINK_DOWN_ALERT, "n1"), starts_at=now + 1)
            wait_for(lambda: rec.alerts("GPUXidCritical"), timeout=60, what="n2's XID page, once its wait is over")
            assert [a["labels"]["Hostname"] for a in rec.alerts("GPUXidCritical")] == ["n2"]
            assert [a["labels"].get("Hostname") for a in rec.alerts(LINK_DOWN_ALERT)] == ["n1"]

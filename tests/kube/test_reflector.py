"""The API server watch (list + watch, relist on 410, backoff, failures by reason) against the fake API server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gpuscope.exporter.attribution.podmeta import PodMeta, compile_allowlist, pod_decoder
from gpuscope.kube.client import ApiServer
from gpuscope.kube.reflector import Reflector
from tests.support.kubeapi import FakeKubeApi, fake_kube_api
from tests.support.net import free_port, wait_for

pytestmark = pytest.mark.e2e

NODE = "gpu-node-1"


@pytest.fixture
def api(tmp_path: Path) -> Iterator[FakeKubeApi]:
    with fake_kube_api(tmp_path) as server:
        yield server


def reflector(api: FakeKubeApi, **kw: Any) -> Reflector[PodMeta]:
    server = ApiServer(api.host, api.port, str(api.sa_dir))
    decode = pod_decoder(labels=True, allowlist=compile_allowlist("^team$,app.kubernetes.io/"))
    watch = Reflector(
        server,
        ("/api/v1/pods",),
        decode,
        field_selector=f"spec.nodeName={NODE}",
        what="pods",
        **kw,
    )
    watch.start()
    return watch


def by_name(watch: Reflector[PodMeta]) -> dict[str, PodMeta]:
    return {p.name: p for p in watch.items().values()}


def test_list_then_watch_follows_changes_on_this_node_only(api: FakeKubeApi) -> None:
    uid = api.create_pod("ml", "train-0", NODE, {"team": "vision", "app.kubernetes.io/name": "trainer", "x": "y"})
    api.create_pod("ml", "elsewhere", "other-node", {"team": "nlp"})
    watch = reflector(api)
    try:
        assert watch.wait_synced(30)
        assert by_name(watch) == {
            "train-0": PodMeta("ml", "train-0", uid, (("app_kubernetes_io_name", "trainer"), ("team", "vision")))
        }
        api.create_pod("web", "infer-1", NODE, {"team": "search"})
        api.relabel_pod("ml", "train-0", {"team": "robotics"})
        wait_for(lambda: by_name(watch).get("infer-1"), what="the created pod")
        wait_for(lambda: by_name(watch)["train-0"].labels == (("team", "robotics"),), what="the relabelled pod")
        api.delete_pod("web", "infer-1")
        wait_for(lambda: "infer-1" not in by_name(watch), what="the deleted pod gone")
        status = watch.status()
        assert status.up and status.synced and status.objects == 1 and not status.errors
        # One list and one watch: no request per change.
        assert api.count("/api/v1/pods?") == 2
        assert all("fieldSelector=spec.nodeName%3Dgpu-node-1" in r for r in api.requests)
    finally:
        watch.stop()


def test_an_ended_watch_resumes_and_a_compacted_version_relists(api: FakeKubeApi) -> None:
    api.create_pod("ml", "a", NODE)
    watch = reflector(api, backoff_s=(0.05, 0.2))
    try:
        assert watch.wait_synced(30)
        wait_for(lambda: api.watches_open == 1, what="the watch open")
        api.end_watches()  # as timeoutSeconds does: the reflector resumes from its version, no relist
        wait_for(lambda: api.watches_served == 2 and api.watches_open == 1, what="the watch resumed")
        assert sum(1 for r in api.requests if "watch=1" not in r) == 1
        # Changes while no watch is open, then the history compacted away: 410 Gone, relist, the change is seen.
        api.hang_watches = True
        api.end_watches()
        api.create_pod("ml", "b", NODE)
        api.compact()
        api.hang_watches = False
        api.end_watches()
        wait_for(lambda: "b" in by_name(watch), what="the pod created before the compaction")
        assert watch.status().errors.get("expired", 0) >= 1
        assert sum(1 for r in api.requests if "watch=1" not in r) == 2  # exactly one relist
    finally:
        watch.stop()


def test_failures_count_by_reason_and_keep_the_last_copy(api: FakeKubeApi) -> None:
    api.create_pod("ml", "a", NODE, {"team": "vision"})
    watch = reflector(api, backoff_s=(0.05, 0.2))
    try:
        assert watch.wait_synced(30)
        api.fail_with = 403
        api.end_watches()
        wait_for(lambda: watch.status().errors.get("forbidden", 0) >= 1, what="403 counted as forbidden")
        assert not watch.status().up
        assert "a" in by_name(watch)  # the last copy stays: pods already known keep their labels
        api.fail_with = 500
        wait_for(lambda: watch.status().errors.get("server_error", 0) >= 1, what="500 counted")
        api.token = "rotated-away"  # the mounted token is no longer accepted
        api.fail_with = None
        wait_for(lambda: watch.status().errors.get("unauthorized", 0) >= 1, what="401 counted as unauthorized")
        api.token = "test-service-account-token"
        api.create_pod("ml", "late", NODE)
        wait_for(lambda: watch.status().up and "late" in by_name(watch), what="recovery")
    finally:
        watch.stop()


def test_a_silent_watch_times_out_and_an_unreachable_server_backs_off(api: FakeKubeApi) -> None:
    api.hang_watches = True
    watch = reflector(api, watch_timeout_s=1, read_grace_s=0.5, backoff_s=(0.05, 0.2))
    try:
        assert watch.wait_synced(30)
        # The server sends nothing, not even the end of the stream: the read deadline (timeout + grace) ends it.
        wait_for(lambda: watch.status().errors.get("timeout", 0) >= 1, timeout=60, what="the hung watch dropped")
    finally:
        watch.stop()
    closed = ApiServer("127.0.0.1", free_port(), str(api.sa_dir))
    lost = Reflector(closed, ("/api/v1/pods",), pod_decoder(labels=False), backoff_s=(0.05, 0.2), what="pods")
    lost.start()
    try:
        wait_for(lambda: lost.status().errors.get("unreachable", 0) >= 3, what="retries with backoff")
        assert not lost.status().synced and not lost.items()
    finally:
        lost.stop()


def test_the_copy_is_bounded(api: FakeKubeApi) -> None:
    for i in range(3):
        api.create_pod("ml", f"p{i}", NODE)
    watch = reflector(api, max_objects=2)
    try:
        assert watch.wait_synced(30)
        assert len(watch.items()) == 2 and watch.status().errors.get("full") == 1
        api.create_pod("ml", "p3", NODE)  # still full: not kept, counted
        wait_for(lambda: watch.status().errors.get("full") == 2, what="the refused pod counted")
        api.delete_pod("ml", next(iter(by_name(watch))))
        api.create_pod("ml", "p4", NODE)  # room again
        wait_for(lambda: "p4" in by_name(watch), what="a pod kept once there is room")
    finally:
        watch.stop()

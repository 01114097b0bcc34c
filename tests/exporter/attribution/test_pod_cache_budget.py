"""Issue 51: the pod metadata cache is bounded by bytes, not only by counts. 2,048 pods of 64 labels of 700
characters (each under the per-pod and per-value caps) held 175 MiB against the DaemonSet's 128 MiB; past its byte
budget the cache keeps a pod without its labels (attribution still finds it), counts it and says so."""

from __future__ import annotations

import gc
import json
import logging
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

from gpuscope.exporter.attribution.podmeta import MAX_LABELS, PodMeta, pod_budget, pod_bytes, pod_decoder
from gpuscope.kube.client import ApiServer
from gpuscope.kube.reflector import Reflector
from tests.support.kubeapi import FakeKubeApi, fake_kube_api
from tests.support.net import wait_for

NODE = "gpu-node-1"
BUDGET = 256 * 1024  # four or five of the big pods below


def big_labels(seed: int, char: str = "v") -> dict[str, str]:
    return {f"example.com/key-{seed}-{i:02d}": char * 700 for i in range(MAX_LABELS)}


@pytest.fixture
def api(tmp_path: Path) -> Iterator[FakeKubeApi]:
    with fake_kube_api(tmp_path) as server:
        yield server


@pytest.mark.e2e
def test_past_the_byte_budget_pods_are_kept_without_labels_counted_and_said(
    api: FakeKubeApi, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    for i in range(12):
        api.create_pod("ml", f"p{i:02d}", NODE, labels=big_labels(i))
    watch = Reflector(
        ApiServer(api.host, api.port, str(api.sa_dir)),
        ("/api/v1/pods",),
        pod_decoder(labels=True),
        field_selector=f"spec.nodeName={NODE}",
        budget=pod_budget(BUDGET),
        what="pods",
    )
    watch.start()
    try:
        assert watch.wait_synced(30)
        pods = {p.name: p for p in watch.items().values()}
        labelled = sorted(name for name, p in pods.items() if p.labels)
        assert len(pods) == 12  # every pod is still attributed
        assert 0 < len(labelled) < 12 and all(len(pods[n].labels) == MAX_LABELS for n in labelled)
        assert watch.status().bytes <= BUDGET
        assert sum(pod_bytes(p) for p in pods.values()) == watch.status().bytes
        assert watch.status().errors.get("full") == 1
        said = [r.getMessage() for r in caplog.records if "memory budget" in r.getMessage()]
        assert said and said[0].endswith("8 pods kept without their labels: the 0.25 MiB memory budget is reached")

        # A watch change past the budget: kept without labels, counted again.
        bare = next(name for name in pods if name not in labelled)
        api.relabel_pod("ml", bare, big_labels(99))
        wait_for(lambda: watch.status().errors.get("full") == 2, what="the relabelled pod counted")
        assert watch.status().bytes <= BUDGET
        # Room again (labelled pods deleted): the next change keeps its labels.
        for name in labelled:
            api.delete_pod("ml", name)
        api.relabel_pod("ml", bare, big_labels(98))
        wait_for(lambda: any(p.name == bare and p.labels for p in watch.items().values()), what="labels kept with room")
        assert watch.status().bytes == sum(pod_bytes(p) for p in watch.items().values()) <= BUDGET
    finally:
        watch.stop()


@pytest.mark.e2e
def test_a_pod_that_does_not_fit_even_bare_takes_the_labels_of_the_oldest(api: FakeKubeApi) -> None:
    # Dropping a pod would lose its attribution; dropping an older pod's labels loses only labels.
    decode = pod_decoder(labels=True)
    sample = {"metadata": {"namespace": "ml", "name": "p0", "uid": "0" * 36, "labels": big_labels(0)}}
    decoded = decode(sample)
    assert decoded is not None
    budget = 3 * pod_bytes(decoded[1]) + 64  # three labelled pods, and no room for a fourth even without labels
    for i in range(3):
        api.create_pod("ml", f"p{i}", NODE, labels=big_labels(i), uid=f"{i:036d}")
    watch = Reflector(
        ApiServer(api.host, api.port, str(api.sa_dir)),
        ("/api/v1/pods",),
        decode,
        field_selector=f"spec.nodeName={NODE}",
        budget=pod_budget(budget),
        what="pods",
    )
    watch.start()
    try:
        assert watch.wait_synced(30)
        assert all(p.labels for p in watch.items().values()) and len(watch.items()) == 3
        api.create_pod("ml", "p3", NODE, labels=big_labels(3), uid=f"{3:036d}")
        wait_for(lambda: len(watch.items()) == 4, what="the fourth pod kept")
        kept = {p.name: bool(p.labels) for p in watch.items().values()}
        assert kept == {"p0": False, "p1": True, "p2": True, "p3": False}
        assert watch.status().bytes == sum(pod_bytes(p) for p in watch.items().values()) <= budget
        assert watch.status().errors.get("full") == 1
    finally:
        watch.stop()


# Enough pods that the decoder's one-off allocations (interned keys, caches), which the weight leaves out, are
# small beside what the pods hold; more only costs time under tracemalloc (50 took 2 s a character).
PODS_WEIGHED = 12


@pytest.mark.parametrize("char", ["v", "é", "€", "\U0001f600"])
def test_a_pods_weight_is_an_upper_bound_of_the_memory_it_holds(char: str) -> None:
    # The budget bounds memory only if the weight does: measure what decoded pods really keep (tracemalloc), with
    # the decoder's input parsed inside the measurement and dropped, as the watch drops each page.
    decode = pod_decoder(labels=True)
    gc.collect()
    tracemalloc.start(8)  # deep enough to see json and gpuscope frames under the test's
    try:
        before = tracemalloc.take_snapshot()
        kept: list[PodMeta] = []
        for i in range(PODS_WEIGHED):
            raw = json.dumps(
                {
                    "metadata": {
                        "namespace": "ml",
                        "name": f"p{i}",
                        "uid": f"uid-{i:036d}",
                        "labels": big_labels(i, char),
                    },
                    "status": {"containerStatuses": [{"containerID": f"containerd://{i:064x}", "name": "main"}]},
                }
            )
            decoded = decode(json.loads(raw))
            assert decoded is not None
            kept.append(decoded[1])
        del raw, decoded
        gc.collect()
        # What the decoder's own allocations still hold (the test's and tracemalloc's own left out).
        mine = [
            tracemalloc.Filter(True, "*/gpuscope/*"),
            tracemalloc.Filter(True, json.__file__.rsplit("/", 1)[0] + "/*"),
        ]
        after = tracemalloc.take_snapshot().filter_traces(mine)
        held = sum(d.size_diff for d in after.compare_to(before.filter_traces(mine), "filename"))
    finally:
        tracemalloc.stop()
    weight = sum(pod_bytes(p) for p in kept)
    assert held <= weight, f"{len(kept)} pods hold {held} bytes, weighed {weight}"
    assert weight <= 2 * held  # an upper bound, not a wild one: the budget still admits what fits

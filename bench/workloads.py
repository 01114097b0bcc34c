"""Workload attribution: what it costs per collection, and what pod churn costs in series, per mode.

Against a real gRPC kubelet (the tests' fake one, on a unix socket) listing 8 GPU pods among 100 other pods, on a
simulated 8-GPU H100 node with the default counters:

- collection time without attribution, and with it in ``info`` and ``labels`` mode (kubelet ``List`` + placing
  devices + rendering, all on the collection thread; a scrape still costs the same);
- distinct series after 100 pod restarts (Prometheus keeps each one in its head block for up to 2 hours);
- with pod labels and pod UIDs on (``--pod-metadata``, against the tests' fake Kubernetes API server, a real HTTPS
  server): distinct series after 100 restarts that rename the pod (a Deployment) and 100 that keep its name (a
  StatefulSet), per mode, the collection time with and without the join, and the API server requests the node's
  pod watch made, against a list per collection.

Usage: ``python bench/workloads.py [--collections N] [--pod-metadata]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "src"), str(REPO)]

from tests.support.kubeapi import FakeKubeApi, fake_kube_api  # noqa: E402
from tests.support.kubelet import FakeKubelet, fake_kubelet, pod  # noqa: E402

from gpuscope.backends.sim import SimNode, SimNodeConfig  # noqa: E402
from gpuscope.exporter.attribution.resolve import WorkloadLabels  # noqa: E402
from gpuscope.exporter.attribution.source import WorkloadSettings  # noqa: E402
from gpuscope.exporter.runtime import NodeRuntime  # noqa: E402
from gpuscope.exporter.settings import ExporterSettings, make_runtime  # noqa: E402
from gpuscope.fields.collectors import load_collectors  # noqa: E402
from gpuscope.hardware.models import model_by_key  # noqa: E402

GPUS = 8
OTHER_PODS = 100
RESTARTS = 100


def runtime(kubelet: FakeKubelet | None, mode: WorkloadLabels) -> NodeRuntime:
    workloads = WorkloadSettings(
        mode=mode, kubernetes=kubelet is not None, socket_path=kubelet.socket_path if kubelet else ""
    )
    settings = ExporterSettings(collectors=load_collectors(None), workloads=workloads)
    sim = SimNode(SimNodeConfig("bench-node", model_by_key("h100"), GPUS, workload="training"))
    return make_runtime(sim, settings, "bench-node", own_process_metrics=False)


def pods(names: dict[int, str]) -> list[object]:
    gpu_pods = [pod("ml", name, ("main", "nvidia.com/gpu", [f"nvidia{gpu}"])) for gpu, name in names.items()]
    others = [pod("default", f"web-{i}", ("app", "example.com/none", [])) for i in range(OTHER_PODS)]
    return gpu_pods + others


def collection_ms(rt: NodeRuntime, collections: int) -> float:
    rt.collect()
    samples = []
    for _ in range(collections):
        start = time.perf_counter()
        rt.collect()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def distinct_series_after_churn(kubelet: FakeKubelet, mode: WorkloadLabels) -> tuple[int, int]:
    rt = runtime(kubelet, mode)
    running = {gpu: f"job-{gpu}-0" for gpu in range(GPUS)}
    seen: set[str] = set()

    def scrape() -> set[str]:
        kubelet.set_pods(pods(running))  # type: ignore[arg-type]
        rt.collect()
        text = rt.body(time.time(), gzip=False).decode()
        return {ln.rsplit(" ", 1)[0] for ln in text.splitlines() if ln.startswith(("DCGM_", "gpuscope_gpu_"))}

    seen |= scrape()
    before = len(seen)
    for restart in range(1, RESTARTS + 1):
        running[restart % GPUS] = f"job-{restart % GPUS}-{restart}"
        seen |= scrape()
    return before, len(seen)


NODE = "bench-node"
POD_LABELS = {"team": "vision", "app.kubernetes.io/name": "trainer", "app.kubernetes.io/version": "1.4.2"}
INTERVAL_S = 15.0  # the default collection interval: what a list per collection would cost
WATCH_S = 300  # the reflector's watch timeout: one watch request per this, per node


def metadata_runtime(kubelet: FakeKubelet, mode: WorkloadLabels, uid: bool = True) -> NodeRuntime:
    workloads = WorkloadSettings(
        mode=mode, kubernetes=True, socket_path=kubelet.socket_path, pod_labels=True, pod_uid=uid, node_name=NODE
    )
    settings = ExporterSettings(collectors=load_collectors(None), workloads=workloads)
    sim = SimNode(SimNodeConfig(NODE, model_by_key("h100"), GPUS, workload="training"))
    return make_runtime(sim, settings, NODE, own_process_metrics=False)


def churn_with_metadata(
    kubelet: FakeKubelet, api: FakeKubeApi, mode: WorkloadLabels, rename: bool, uid: bool = True
) -> dict[str, int]:
    """Distinct series over ``RESTARTS`` restarts (new name, or same name and a new UID) with labels and UIDs on;
    each restart is a delete and a create on the API server, seen by the watch before the next collection."""
    rt = metadata_runtime(kubelet, mode, uid)
    source = rt.collector.workloads
    assert source is not None
    running = {gpu: f"job-{gpu}-0" for gpu in range(GPUS)}
    for name in running.values():
        api.create_pod("ml", name, NODE, POD_LABELS)
    start = api.count("/api/v1/pods")
    seen: set[str] = set()

    def scrape() -> set[str]:
        kubelet.set_pods(pods(running))  # type: ignore[arg-type]
        rt.collect()
        text = rt.body(time.time(), gzip=False).decode()
        return {ln.rsplit(" ", 1)[0] for ln in text.splitlines() if ln.startswith(("DCGM_", "gpuscope_gpu_"))}

    seen |= scrape()
    before = len(seen)
    for restart in range(1, RESTARTS + 1):
        gpu = restart % GPUS
        api.delete_pod("ml", running[gpu])
        running[gpu] = f"job-{gpu}-{restart}" if rename else running[gpu]
        uid = api.create_pod("ml", running[gpu], NODE, POD_LABELS)
        deadline = time.monotonic() + 30
        while source.pods().by_uid(uid) is None and time.monotonic() < deadline:
            time.sleep(0.005)  # the benchmark counts series, not latency: wait until the watch has delivered
        seen |= scrape()
    requests = api.count("/api/v1/pods") - start
    rt.close()
    for name in running.values():
        api.delete_pod("ml", name)
    return {"before": before, "after": len(seen), "collections": RESTARTS + 1, "requests": requests}


def measured_watch_requests(api: FakeKubeApi, seconds: float = 6.0) -> tuple[int, int, float]:
    """The requests of one pod watch over ``seconds`` of wall time with a 1 s watch timeout (the server ends each
    watch after it, as it does after 300 s by default): lists and watches, counted by the server."""
    from gpuscope.exporter.attribution.podmeta import pod_decoder
    from gpuscope.kube.client import ApiServer
    from gpuscope.kube.reflector import Reflector

    before = len(api.requests)
    server = ApiServer(api.host, api.port, str(api.sa_dir))
    watch = Reflector(
        server, ("/api/v1/pods",), pod_decoder(labels=True), field_selector=f"spec.nodeName={NODE}", watch_timeout_s=1
    )
    start = time.monotonic()
    watch.start()
    time.sleep(seconds)  # a benchmark of a rate over wall time: the only wait here is the measured interval
    watch.stop()
    elapsed = time.monotonic() - start
    made = api.requests[before:]
    watches = sum(1 for r in made if "watch=1" in r)
    return len(made) - watches, watches, elapsed


def pod_metadata_figures(collections: int = 200) -> None:
    print(f"\npod labels ({len(POD_LABELS)}) and pod UID on, fake API server (HTTPS), one pod watch per node")
    with tempfile.TemporaryDirectory() as workdir, fake_kube_api(Path(workdir)) as api, fake_kubelet() as kubelet:
        os.environ.update(api.env())
        for rename, kind in ((True, "renamed (Deployment)"), (False, "same name, new UID (StatefulSet)")):
            for mode in (WorkloadLabels.INFO, WorkloadLabels.LABELS):
                r = churn_with_metadata(kubelet, api, mode, rename)
                print(
                    f"{RESTARTS} restarts, {kind}, {mode.value:6} mode: {r['before']} -> {r['after']} distinct series"
                    f" (+{r['after'] - r['before']}); {r['requests']} API requests over {r['collections']} collections"
                )
        r = churn_with_metadata(kubelet, api, WorkloadLabels.LABELS, rename=False, uid=False)
        print(
            f"{RESTARTS} restarts, same name, labels mode, pod UID off: {r['before']} -> {r['after']} distinct series"
            f" (+{r['after'] - r['before']})"
        )
        kubelet.set_pods(pods({gpu: f"job-{gpu}-0" for gpu in range(GPUS)}))  # type: ignore[arg-type]
        for gpu in range(GPUS):
            api.create_pod("ml", f"job-{gpu}-0", NODE, POD_LABELS)
        for i in range(OTHER_PODS):
            api.create_pod("default", f"web-{i}", NODE, {"app": "web"})
        plain_rt, meta_rt = runtime(kubelet, WorkloadLabels.INFO), metadata_runtime(kubelet, WorkloadLabels.INFO)
        # Alternated rounds, median of the rounds' medians: the two runtimes see the same machine load.
        rounds = [
            (collection_ms(plain_rt, collections // 5), collection_ms(meta_rt, collections // 5)) for _ in range(5)
        ]
        plain = statistics.median(r[0] for r in rounds)
        with_meta = statistics.median(r[1] for r in rounds)
        plain_rt.close()
        meta_rt.close()
        print(
            f"collection, info mode, kubelet only: {plain:.3f} ms; with pod labels and UID from the watch's copy"
            f" ({GPUS + OTHER_PODS} pods): {with_meta:.3f} ms ({with_meta - plain:+.3f} ms;"
            f" 5 alternated rounds of {collections // 5})"
        )
        lists, watches, seconds = measured_watch_requests(api)
        print(
            f"measured: {lists} list and {watches} watch requests in {seconds:.1f} s with a 1 s watch timeout"
            " (one watch per timeout, no relist)"
        )
    watch_per_hour = 3600 / WATCH_S + 1  # a watch per timeout, plus a relist now and then (410 after compaction)
    print(
        f"API server load per node: watch ~{watch_per_hour:.0f} requests/hour (one per {WATCH_S} s watch, plus an"
        f" occasional relist), each answered with changes only; a list per collection: {3600 / INTERVAL_S:.0f}"
        f" requests/hour at {INTERVAL_S:g} s, each a full list of the node's pods"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--collections", type=int, default=200)
    parser.add_argument("--pod-metadata", action="store_true", help="only the pod labels/UID figures (no timings)")
    args = parser.parse_args()
    if args.pod_metadata:
        pod_metadata_figures(args.collections)
        return
    print(f"8x H100 (sim), default counters, kubelet lists {GPUS} GPU pods + {OTHER_PODS} other pods")
    base = collection_ms(runtime(None, WorkloadLabels.OFF), args.collections)
    print(f"collection, no attribution:      {base:7.3f} ms (median of {args.collections})")
    with fake_kubelet() as kubelet:
        kubelet.set_pods(pods({gpu: f"job-{gpu}-0" for gpu in range(GPUS)}))  # type: ignore[arg-type]
        for mode in (WorkloadLabels.INFO, WorkloadLabels.LABELS):
            ms = collection_ms(runtime(kubelet, mode), args.collections)
            print(f"collection, kubelet, {mode.value:6} mode: {ms:7.3f} ms (+{ms - base:.3f} ms)")
        for mode in (WorkloadLabels.INFO, WorkloadLabels.LABELS):
            before, after = distinct_series_after_churn(kubelet, mode)
            print(
                f"{mode.value:6} mode: {before} series; {after} distinct after {RESTARTS} pod restarts"
                f" (+{after - before})"
            )


if __name__ == "__main__":
    main()

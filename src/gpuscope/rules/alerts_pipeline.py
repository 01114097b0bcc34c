"""Exporter alerts (owner: platform): target down, restarts, stale snapshots, lost profiling, the DCGM hop (host
engine down, version skew), unbudgeted models."""

from __future__ import annotations

from gpuscope.rules.alerts_kube import with_kube_restarts
from gpuscope.rules.promql import Promql, alternatives, regex_of
from gpuscope.rules.recording import PROF_PRESENT_1H
from gpuscope.rules.records import MINUTE_INTERVAL, Alert, Group, Runbook

_INSTANCE = "{{ $labels.instance }}"


def exporter_down(q: Promql) -> Alert:
    return Alert(
        name="GPUExporterDown",
        expr=f"{q.up} == 0",
        severity="page",
        owner="platform",
        summary="A GPU exporter target is down.",
        description=f"Prometheus cannot scrape the GPU exporter at {_INSTANCE}: none of that node's GPU metrics are "
        "collected.",
        runbook=Runbook(
            meaning="The exporter is not answering scrapes (crashed, OOM-killed, node down, network policy, TLS or "
            "auth misconfigured). Every GPU alert for the node is blind meanwhile, so they are inhibited.",
            confirm=(f"{q.up} == 0", "the target's lastError on Prometheus's /targets page"),
            actions=(
                "Check the exporter pod/service: `kubectl -n <ns> get pods -o wide | grep exporter`, its logs and "
                "restarts; on bare metal `systemctl status` and the journal.",
                "Scrape it by hand from the Prometheus host: `curl -sv http://<instance>/metrics | head`.",
                "If the node itself is down, that is the node's incident; the GPU alerts come back with it.",
            ),
        ),
        bound="2m",
        for_="1m",
    )


def profiling_stale(q: Promql) -> Alert:
    c, g = q.config, q.gpu_id
    prof = q.dcgm("DCGM_FI_PROF_GR_ENGINE_ACTIVE")
    temp = q.dcgm("DCGM_FI_DEV_GPU_TEMP")
    available = q.exporter("gpuscope_exporter_gpu_profiling_available", 'reason!~"available|warming_up"')
    supported = q.exporter("gpuscope_exporter_gpu_profiling_supported")
    expr = alternatives(
        # Had PROF series within the hour, none for 5 minutes, while the GPU's other series keep coming. The
        # set operators match by UUID and take each right-hand series as it is (no ``max by`` first), and the
        # GPUs are reduced to one series each after the two filters, which leave next to none: two passes over
        # every GPU fewer, the same GPUs (a UUID's copies share its fate) and the same value (1).
        f"max by ({g}) (\n{PROF_PRESENT_1H}\n"
        f"  unless on ({c.uuid_label}) present_over_time({prof}[5m])\n"
        f"  and on ({c.uuid_label}) {temp}\n)",
        # gpuscope says so directly, and knows "never had them" (supported == 0) from "lost them".
        f"max by ({g}) ({available} == 0 and on ({c.uuid_label}, instance) {supported} == 1)",
    )
    return Alert(
        name="GPUProfilingMetricsStale",
        expr=expr,
        severity="ticket",
        owner="platform",
        summary="A GPU's profiling metrics (DCGM_FI_PROF_*) stopped while its other metrics continue.",
        description=f"{_GPU(q)} stopped reporting DCGM_FI_PROF_* metrics: another profiler probably holds the "
        "counters.",
        runbook=Runbook(
            meaning="DCGM's profiling module is single-client per GPU: Nsight Systems/Compute, `dcgmi dmon -e 100x`, a "
            "vendor agent or a second DCGM took the counters, so SM-active/tensor/DRAM series went silent. Hardware "
            "alerts and dashboards that use them are blind for this GPU. (gpuscope's NVML backend reads them "
            "through GPM on Hopper and newer, which does not take this lock.)",
            confirm=(
                f"max_over_time(gpu:prof_present:max1m[1h]) unless on ({c.uuid_label}) present_over_time({prof}[5m])",
                f"gpuscope_exporter_gpu_profiling_available{{{c.exporter_selector}}} == 0",
            ),
            actions=(
                "Find the other client on the node: `ps aux | grep -Ei 'nsys|ncu|dcgmi|nv-hostengine'`.",
                "If someone is profiling on purpose, wait or ask them to `dcgmi profile --pause`/`--resume` around it.",
                "If nothing else holds it, restart the exporter / nv-hostengine.",
            ),
        ),
        bound="6m",
    )


def _GPU(q: Promql) -> str:
    c = q.config
    return f"GPU {{{{ $labels.gpu }}}} ({{{{ $labels.{c.uuid_label} }}}}) on {{{{ $labels.{c.host_label} }}}}"


def restarts(q: Promql, window: str) -> str:
    """Exporters that restarted within ``window``: start time changed, or a counter reset (``gpuscope doctor`` too)."""
    return alternatives(
        f"max by (instance, job) (changes({q.exporter('gpuscope_exporter_start_time_seconds')}[{window}]) > 0)",
        f"max by (instance, job) (changes({q.exporter('process_start_time_seconds')}[{window}]) > 0)",
        f"max by (instance, job) (resets({q.dcgm('DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION')}[{window}]) > 0)",
    )


def exporter_restarted(q: Promql) -> Alert:
    return Alert(
        name="GPUExporterRestarted",
        expr=with_kube_restarts(q, restarts(q, "10m"), "10m"),  # kube-state-metrics too, one alert per restart
        severity="ticket",
        owner="platform",
        summary="A GPU exporter restarted.",
        description=f"The GPU exporter at {_INSTANCE} restarted in the last 10 minutes (start time changed or its "
        "counters reset).",
        runbook=Runbook(
            meaning="The exporter process started again: `up` stayed 1 because the pod/service came back, but counters "
            "restarted and samples were missed. Repeated restarts are a crash loop (OOM at a memory limit is the "
            "usual cause for dcgm-exporter).",
            confirm=(
                f"changes(gpuscope_exporter_start_time_seconds{{{q.config.exporter_selector}}}[1h])",
                "resets(DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION[1h])",
                'kube_pod_container_status_restarts_total{container=~".*exporter.*"}',
            ),
            actions=(
                "Look at the previous container's exit reason (`kubectl describe pod`, OOMKilled?) and logs.",
                "Raise the memory limit or fix the crash; check whether the driver was reloaded (GPU reset) instead.",
            ),
        ),
        bound="2m",
    )


def snapshot_stale(q: Promql) -> Alert:
    n = q.config.thresholds.snapshot_stale_intervals
    age = q.exporter("gpuscope_exporter_snapshot_age_seconds")
    interval = q.exporter("gpuscope_exporter_collection_interval_seconds")
    expr = alternatives(
        f"max by (instance, job) ({age} > {n} * {interval})",
        f"max by (instance, job) ({q.exporter('gpuscope_exporter_backend_up')} == 0)",
    )
    return Alert(
        name="GPUExporterSnapshotStale",
        expr=expr,
        severity="ticket",
        owner="platform",
        summary="A gpuscope exporter is serving old data: its GPU backend is hung or unavailable.",
        description=f"The exporter at {_INSTANCE} answers scrapes but its last collection is more than {n} intervals "
        "old, or it "
        "cannot read the GPUs (backend down).",
        runbook=Runbook(
            meaning="Collection runs in the background; /metrics keeps serving the last snapshot. The backend (NVML) "
            "is hung — a GSP/XID 119 hang wedges driver calls — or unavailable (driver unloaded, version mismatch).",
            confirm=(
                f"gpuscope_exporter_snapshot_age_seconds{{{q.config.exporter_selector}}}",
                f"gpuscope_exporter_backend_up{{{q.config.exporter_selector}}} == 0",
                "$ curl -s http://<instance>/health   # the JSON says why",
            ),
            actions=(
                "Run `nvidia-smi` on the node: if it hangs too, the driver is wedged — drain and reset/reboot.",
                "Driver/library mismatch after an upgrade: reload the kernel module or reboot.",
            ),
        ),
        bound="2m",
        for_="30s",
    )


def dcgm_hostengine_down(q: Promql) -> Alert:
    down = q.exporter("gpuscope_exporter_backend_up")
    info = q.exporter("gpuscope_exporter_dcgm_info")
    return Alert(
        name="GPUDcgmHostEngineDown",
        # an exporter that reads through DCGM (it has served dcgm_info) and cannot read its backend now
        expr=f"max by (instance, job) ({down} == 0)\nand on (instance, job) max by (instance, job) ({info})",
        severity="ticket",
        owner="platform",
        summary="The DCGM host engine behind a GPU exporter is down or not answering.",
        description=f"The exporter at {_INSTANCE} reads GPUs through DCGM and cannot reach its host engine: no GPU "
        "values are fresh on that node.",
        runbook=Runbook(
            meaning="gpuscope's DCGM backend lost its host engine: the standalone nv-hostengine (nvidia-dcgm pod, port "
            "5555) died, was OOM-killed or restarted, or the embedded engine failed to start. gpuscope keeps serving "
            "the last reading with backend_up 0 and /health 503 (dcgm-exporter would answer 500), and reconnects "
            "with backoff, re-creating its groups and watches when the engine is back. GPUExporterSnapshotStale "
            "fires alongside.",
            confirm=(
                f"gpuscope_exporter_backend_up{{{q.config.exporter_selector}}} == 0",
                f"gpuscope_exporter_dcgm_info{{{q.config.exporter_selector}}}",
                "$ curl -s http://<instance>/health   # the reason names the host engine and the DCGM error",
            ),
            actions=(
                "Check the host engine: `kubectl -n gpu-operator get pods -l app=nvidia-dcgm -o wide`, its restarts "
                "and OOMKilled status; on bare metal `systemctl status nvidia-dcgm` and `dcgmi discovery -l`.",
                "If it restarts in a loop, raise its memory limit or look for a driver problem (`nvidia-smi`, XIDs).",
                "If the exporter points at the wrong address, fix `-r/--remote-hostengine-info` "
                "(`DCGM_REMOTE_HOSTENGINE_INFO`).",
            ),
        ),
        bound="3m",
        for_="1m",
    )


def dcgm_version_skew(q: Promql) -> Alert:
    info = q.exporter("gpuscope_exporter_dcgm_info")
    same = f'label_replace({info}, "hostengine_version", "$1", "client_version", "(.*)")'
    return Alert(
        name="GPUDcgmVersionSkew",
        # a series whose two versions differ survives "unless" against its copy with the versions made equal
        expr=f"max by (instance, job, client_version, hostengine_version) ({info})\n"
        f"unless on (instance, job, client_version, hostengine_version) {same}",
        severity="ticket",
        owner="platform",
        summary="A GPU exporter's libdcgm and its DCGM host engine are different versions.",
        description=f"The exporter at {_INSTANCE} uses libdcgm {{{{ $labels.client_version }}}} against host engine "
        "{{ $labels.hostengine_version }}.",
        runbook=Runbook(
            meaning="DCGM supports a client library at least as new as the host engine it talks to. A newer engine "
            "than the exporter's libdcgm (the GPU Operator upgraded nvidia-dcgm but not the exporter image, or the "
            "reverse pinned) can refuse the connection (DCGM_ST_VER_MISMATCH) or serve fields the client does not "
            "know; gpuscope only refuses where DCGM refuses, and says so here first.",
            confirm=(f"gpuscope_exporter_dcgm_info{{{q.config.exporter_selector}}}",),
            actions=(
                "Align the versions: upgrade the exporter image so its libdcgm is >= the host engine "
                "(`dcgmi -v` on the engine side), or pin nvidia-dcgm to the exporter's version in the GPU Operator.",
                "During a rolling upgrade this is expected for a while; silence it for the rollout window.",
            ),
        ),
        bound="15m",
        for_="10m",
    )


def model_outside_budget(q: Promql) -> Alert:
    c = q.config
    models = regex_of(c.budgeted_models)
    temp = q.dcgm("DCGM_FI_DEV_GPU_TEMP", f'modelName!~"{models}"')
    return Alert(
        name="GPUModelOutsideBudget",
        # one per physical GPU: a MIG GPU has a temperature series per instance
        expr=f"count by (modelName) (count by (modelName, {c.uuid_label}) ({temp})) > 0",
        severity="ticket",
        owner="platform",
        summary="A GPU model the cardinality budget does not cover has appeared.",
        description="{{ $value }} GPU(s) of model {{ $labels.modelName }} are reporting; the fleet's series budget was "
        "not sized for it.",
        runbook=Runbook(
            meaning="A new GPU model brings its own series count (more NVLinks, MIG layouts, vendor-specific fields). "
            "Budgets and dashboards assume the listed models; this one is outside them.",
            confirm=(f'count by (modelName) (DCGM_FI_DEV_GPU_TEMP{{modelName!~"{models}"}})',),
            actions=(
                "Add the model to the fleet spec's budgeted models and re-run `gpuscope budget` to see the new "
                "series figure.",
                "If the budget no longer fits, trim the collectors CSV for that node group.",
            ),
        ),
        bound="15m",
        for_="10m",
    )


def pipeline_group(q: Promql) -> Group:
    """Every evaluation: the exporter down (a page) and the two per-node checks that want seconds (a snapshot
    gone stale, the host engine down), which read one series per exporter."""
    return Group(
        name="gpuscope-pipeline.alerts",
        rules=(exporter_down(q), snapshot_stale(q), dcgm_hostengine_down(q)),
        file="alerts",
    )


def pipeline_minute_group(q: Promql) -> Group:
    """Alerts evaluated once a minute. GPUProfilingMetricsStale reads every GPU's profiling, temperature and
    presence series and waits for 5 minutes without profiling samples, so a minute between evaluations keeps it
    within its 6 m bound. GPUExporterRestarted looks 10 minutes back for a restart, through every GPU's energy
    counter for dcgm-exporter (40 samples per GPU): a minute between evaluations keeps it within its 2 m bound. The
    inventory alerts (models, versions) change with a rollout and wait 10 minutes within 15, and the model check
    reads every GPU's temperature series."""
    return Group(
        name="gpuscope-pipeline-1m.alerts",
        rules=(profiling_stale(q), exporter_restarted(q), dcgm_version_skew(q), model_outside_budget(q)),
        interval=MINUTE_INTERVAL,
        file="alerts",
    )

"""Exporter alert scenarios (owner platform)."""

from __future__ import annotations

from tests.rules.fixtures import (
    A100,
    change,
    flat,
    flat_missed,
    from_,
    gpu_labels,
    identity,
    missed_up,
    self_labels,
    target,
    until,
    up,
)
from tests.support.promtool import Case, Series, steps

TEMP = "DCGM_FI_DEV_GPU_TEMP"
PROF = "DCGM_FI_PROF_GR_ENGINE_ACTIVE"
BLIP = "40m"  # a failed scrape at the 1-minute group's evaluation, once the alert fires

EXPORTER_DOWN = (
    Case(
        "the exporter stops answering scrapes",
        "GPUExporterDown",
        (up(values=change(1, 0)),),
        fires_by="32m",
        expected=(target(),),
        quiet_at=("30m30s",),
    ),
    Case(
        "near miss: one failed scrape",
        "GPUExporterDown",
        (up(values="1x119 0 1x119"),),
        quiet_at=("30m30s", "32m"),
    ),
)

PROFILING_STALE = (
    Case(
        "dcgm-exporter: PROF series stop while the GPU's temperature keeps coming (profiling lock)",
        "GPUProfilingMetricsStale",
        (
            up(),
            Series(TEMP, gpu_labels(0), flat(60)),
            Series(PROF, gpu_labels(0), until(0.5)),
            Series(TEMP, gpu_labels(1), flat(60)),
            Series(PROF, gpu_labels(1), flat(0.5)),
        ),
        fires_by="36m",
        expected=(identity(0),),
        quiet_at=("29m45s", "33m"),
    ),
    Case(
        "gpuscope: profiling_available drops to 0 (locked) on a GPU that supports it",
        "GPUProfilingMetricsStale",
        (
            up(),
            Series(TEMP, gpu_labels(0), flat(60)),
            Series(PROF, gpu_labels(0), until(0.5)),
            Series("gpuscope_exporter_gpu_profiling_supported", self_labels(0), flat(1)),
            Series("gpuscope_exporter_gpu_profiling_available", self_labels(0, reason="available"), until(1)),
            Series("gpuscope_exporter_gpu_profiling_available", self_labels(0, reason="locked"), from_("0")),
        ),
        fires_by="36m",
        expected=(identity(0),),
        quiet_at=("29m45s",),
    ),
    Case(
        "one failed scrape (every series stale, the 1-minute group's evaluation in the gap) does not resolve it",
        "GPUProfilingMetricsStale",
        (
            missed_up(at=BLIP),
            Series(TEMP, gpu_labels(0), flat_missed(60, at=BLIP)),
            Series(PROF, gpu_labels(0), until(0.5)),
            Series("gpuscope_exporter_gpu_profiling_supported", self_labels(0), flat_missed(1, at=BLIP)),
            Series("gpuscope_exporter_gpu_profiling_available", self_labels(0, reason="available"), until(1)),
            Series(
                "gpuscope_exporter_gpu_profiling_available",
                self_labels(0, reason="locked"),
                f"_x{steps('30m')} 0x{steps(BLIP) - steps('30m') - 1} stale 0x{steps('1h') - steps(BLIP) - 1}",
            ),
        ),
        fires_by="36m",
        expected=(identity(0),),
        still_firing_at=(BLIP, "40m15s", "41m"),
    ),
    Case(
        "near miss: a GPU that never had PROF metrics (A100 through NVML, no GPM)",
        "GPUProfilingMetricsStale",
        (
            up(),
            Series(TEMP, gpu_labels(0, model=A100), flat(60)),
            Series("gpuscope_exporter_gpu_profiling_supported", self_labels(0), flat(0)),
            Series("gpuscope_exporter_gpu_profiling_available", self_labels(0, reason="unsupported"), flat(0)),
        ),
        quiet_at=("36m", "59m"),
    ),
    Case(
        "near miss: the exporter is down, so PROF stops along with everything else",
        "GPUProfilingMetricsStale",
        (up(values=change(1, 0)), Series(TEMP, gpu_labels(0), until(60)), Series(PROF, gpu_labels(0), until(0.5))),
        quiet_at=("36m", "45m"),
    ),
    Case(
        "near miss: gpuscope warming up (first GPM sample)",
        "GPUProfilingMetricsStale",
        (
            up(),
            Series(TEMP, gpu_labels(0), flat(60)),
            Series("gpuscope_exporter_gpu_profiling_supported", self_labels(0), flat(1)),
            Series("gpuscope_exporter_gpu_profiling_available", self_labels(0, reason="warming_up"), flat(0)),
        ),
        quiet_at=("36m",),
    ),
)

RESTARTED = (
    Case(
        "gpuscope: the exporter's start time changes",
        "GPUExporterRestarted",
        (up(), Series("gpuscope_exporter_start_time_seconds", target(), change(1000, 2800))),
        fires_by="32m",
        expected=(target(),),
        quiet_at=("29m45s",),
    ),
    Case(
        "dcgm-exporter: monotonic energy counters reset",
        "GPUExporterRestarted",
        (up(), Series("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", gpu_labels(0), "900000000+1000000x119 5000+1000000x120")),
        fires_by="32m",
        expected=(target(),),
        quiet_at=("29m45s",),
    ),
    Case(
        "near miss: a steady exporter",
        "GPUExporterRestarted",
        (
            up(),
            Series("gpuscope_exporter_start_time_seconds", target(), flat(1000)),
            Series("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", gpu_labels(0), "900000000+1000000x240"),
        ),
        quiet_at=("32m", "50m"),
    ),
)

SNAPSHOT_STALE = (
    Case(
        "gpuscope: the backend hangs and the snapshot ages",
        "GPUExporterSnapshotStale",
        (
            up(),
            Series("gpuscope_exporter_collection_interval_seconds", target(), flat(15)),
            Series("gpuscope_exporter_snapshot_age_seconds", target(), "5x119 5+15x120"),
        ),
        fires_by="32m",
        expected=(target(),),
        quiet_at=("29m45s",),
    ),
    Case(
        "gpuscope: the backend is unavailable",
        "GPUExporterSnapshotStale",
        (up(), Series("gpuscope_exporter_backend_up", {**target(), "backend": "nvml"}, change(1, 0))),
        fires_by="32m",
        expected=(target(),),
    ),
    Case(
        "near miss: snapshot age saw-tooths below three intervals",
        "GPUExporterSnapshotStale",
        (
            up(),
            Series("gpuscope_exporter_collection_interval_seconds", target(), flat(15)),
            Series("gpuscope_exporter_snapshot_age_seconds", target(), "1 16 31 1 16 31 " * 40),
        ),
        quiet_at=("32m", "45m"),
    ),
)

DCGM_INFO = "gpuscope_exporter_dcgm_info"


def _dcgm(client: str, engine: str) -> dict[str, str]:
    return {**target(), "client_version": client, "hostengine_version": engine}


HOSTENGINE_DOWN = (
    Case(
        "gpuscope (dcgm backend): the host engine dies; the exporter keeps answering with backend_up 0",
        "GPUDcgmHostEngineDown",
        (
            up(),
            Series("gpuscope_exporter_backend_up", {**target(), "backend": "dcgm"}, change(1, 0)),
            Series(DCGM_INFO, _dcgm("4.6.0", "4.6.0"), flat(1)),
        ),
        fires_by="33m",
        expected=(target(),),
        quiet_at=("29m45s",),
    ),
    Case(
        "near miss: an NVML-backed exporter without a driver is not a host-engine problem",
        "GPUDcgmHostEngineDown",
        (up(), Series("gpuscope_exporter_backend_up", {**target(), "backend": "nvml"}, change(1, 0))),
        quiet_at=("33m", "45m"),
    ),
    Case(
        "near miss: one collection fails while the engine restarts",
        "GPUDcgmHostEngineDown",
        (
            up(),
            Series("gpuscope_exporter_backend_up", {**target(), "backend": "dcgm"}, "1x119 0 1x119"),
            Series(DCGM_INFO, _dcgm("4.6.0", "4.6.0"), flat(1)),
        ),
        quiet_at=("30m30s", "32m"),
    ),
)

VERSION_SKEW = (
    Case(
        "the host engine is upgraded past the exporter's libdcgm",
        "GPUDcgmVersionSkew",
        (
            up(),
            Series(DCGM_INFO, _dcgm("4.6.0", "4.6.0"), until(1)),
            Series(DCGM_INFO, _dcgm("4.6.0", "4.8.1"), from_("1")),
        ),
        fires_by="45m",
        expected=({**target(), "client_version": "4.6.0", "hostengine_version": "4.8.1"},),
        quiet_at=("39m",),
    ),
    Case(
        "near miss: library and engine agree",
        "GPUDcgmVersionSkew",
        (up(), Series(DCGM_INFO, _dcgm("4.6.0", "4.6.0"), flat(1))),
        quiet_at=("45m", "59m"),
    ),
)

MODEL_BUDGET = (
    Case(
        "a GPU model the budget does not list starts reporting",
        "GPUModelOutsideBudget",
        (
            up(),
            Series(TEMP, gpu_labels(0), flat(60)),
            Series(TEMP, gpu_labels(0, "node-b", model="NVIDIA B200"), from_("55")),
        ),
        fires_by="45m",
        expected=({"modelName": "NVIDIA B200"},),
        quiet_at=("39m",),
    ),
    Case(
        "near miss: only budgeted models",
        "GPUModelOutsideBudget",
        (up(), Series(TEMP, gpu_labels(0), flat(60)), Series(TEMP, gpu_labels(1, model=A100), flat(60))),
        quiet_at=("45m",),
    ),
)

CASES = EXPORTER_DOWN + PROFILING_STALE + RESTARTED + SNAPSHOT_STALE + HOSTENGINE_DOWN + VERSION_SKEW + MODEL_BUDGET

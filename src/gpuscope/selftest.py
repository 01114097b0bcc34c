"""``gpuscope selftest``: the nvml backend checked against ``nvidia-smi`` on a real GPU, under load.

For about 30 s it keeps the GPUs busy with a matrix-multiply loop (torch or cupy, in a child process, when one of
them is importable), reads them through the nvml backend every couple of seconds and, right after each reading,
asks ``nvidia-smi --query-gpu`` for the same figures. A figure matches when the median difference over the run is
within its tolerance; the PROF values (GPM) are shown with a plausibility check, as nvidia-smi has no equivalent.

Pure parts (parsing, comparing, the table) are separate from the I/O (backend, nvidia-smi, the load process),
which the caller passes in.
"""

from __future__ import annotations

import importlib.util
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from gpuscope.backends.base import Backend, BackendUnavailable, GpuReading, ProfilingState, ReadRequest, Value
from gpuscope.errors import EnvironmentProblem
from gpuscope.fields.catalog import BY_ID, MigScope
from gpuscope.fields.ids import FieldId


@dataclass(frozen=True, slots=True)
class SmiComparison:
    """One figure both sides report: our catalog field and nvidia-smi's query field, with a tolerance."""

    label: str
    smi: str
    field_id: FieldId
    unit: str
    abs_tol: float
    rel_tol: float = 0.0

    def tolerance(self, reference: float) -> float:
        return max(self.abs_tol, self.rel_tol * abs(reference))


COMPARISONS = (
    SmiComparison("temperature", "temperature.gpu", FieldId.DCGM_FI_DEV_GPU_TEMP, "C", 3),
    SmiComparison("power draw", "power.draw", FieldId.DCGM_FI_DEV_POWER_USAGE, "W", 20, 0.10),
    SmiComparison("SM clock", "clocks.sm", FieldId.DCGM_FI_DEV_SM_CLOCK, "MHz", 30, 0.10),
    SmiComparison("memory clock", "clocks.mem", FieldId.DCGM_FI_DEV_MEM_CLOCK, "MHz", 10, 0.02),
    SmiComparison("memory used", "memory.used", FieldId.DCGM_FI_DEV_FB_USED, "MiB", 128),
    SmiComparison("memory total", "memory.total", FieldId.DCGM_FI_DEV_FB_TOTAL, "MiB", 1),
    SmiComparison("GPU utilization", "utilization.gpu", FieldId.DCGM_FI_DEV_GPU_UTIL, "%", 15),
    SmiComparison("memory utilization", "utilization.memory", FieldId.DCGM_FI_DEV_MEM_COPY_UTIL, "%", 15),
)
PROF_FIELDS = {
    FieldId.DCGM_FI_PROF_GR_ENGINE_ACTIVE: "GR engine active",
    FieldId.DCGM_FI_PROF_SM_ACTIVE: "SM active",
    FieldId.DCGM_FI_PROF_PIPE_TENSOR_ACTIVE: "tensor active",
    FieldId.DCGM_FI_PROF_DRAM_ACTIVE: "DRAM active",
}
REQUEST = ReadRequest(frozenset({c.field_id for c in COMPARISONS} | set(PROF_FIELDS)))
SMI_QUERY = ["nvidia-smi", f"--query-gpu=uuid,{','.join(c.smi for c in COMPARISONS)}", "--format=csv,noheader,nounits"]


@dataclass(slots=True)
class Samples:
    """Paired samples of one GPU: check label -> [(ours, nvidia-smi)], plus the last reading."""

    model: str
    pairs: dict[str, list[tuple[float | None, float | None]]] = field(default_factory=dict)
    last: GpuReading | None = None


@dataclass(frozen=True, slots=True)
class Row:
    gpu: str
    label: str
    ours: str
    smi: str
    tolerance: str
    status: str  # "ok", "MISMATCH", "n/a", "info"


# --- pure parts ---------------------------------------------------------------------------------------------


def parse_smi(text: str) -> dict[str, dict[str, float | None]]:
    """``nvidia-smi --query-gpu`` CSV (noheader, nounits) -> UUID -> query field -> value (None for N/A)."""
    out: dict[str, dict[str, float | None]] = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.split(",")]
        if len(cells) != len(COMPARISONS) + 1:
            continue
        values: dict[str, float | None] = {}
        for check, cell in zip(COMPARISONS, cells[1:], strict=True):
            try:
                values[check.smi] = float(cell)
            except ValueError:
                values[check.smi] = None  # "[N/A]", "[Not Supported]"
        out[cells[0]] = values
    return out


def _number(value: Value | None) -> float | None:
    return float(value) if isinstance(value, int | float) else None


def record(
    samples: dict[str, Samples], gpus: Sequence[GpuReading], smi: Mapping[str, Mapping[str, float | None]]
) -> None:
    """Pair one reading with one nvidia-smi answer, per GPU UUID."""
    for gpu in gpus:
        if gpu.lost:
            continue
        entry = samples.setdefault(gpu.identity.uuid, Samples(gpu.identity.model_name))
        entry.last = gpu
        theirs = smi.get(gpu.identity.uuid, {})
        for check in COMPARISONS:
            if gpu.mig_enabled and BY_ID[check.field_id].mig is MigScope.INSTANCE:
                continue  # under MIG we report memory per GPU instance; nvidia-smi reports the whole GPU
            ours = _number(gpu.device.values.get(check.field_id))
            entry.pairs.setdefault(check.label, []).append((ours, theirs.get(check.smi)))


def compare(samples: Mapping[str, Samples], loaded: bool) -> list[Row]:
    """One row per GPU and figure; a figure matches when its median difference is within tolerance."""
    rows: list[Row] = []
    for uuid, entry in samples.items():
        name = f"{uuid[:12]} ({entry.model})"
        for check in COMPARISONS:
            rows.append(_compare_check(name, check, entry.pairs.get(check.label, [])))
        rows.extend(_prof_rows(name, entry.last, entry, loaded))
    return rows


def _compare_check(name: str, check: SmiComparison, pairs: list[tuple[float | None, float | None]]) -> Row:
    both = [(o, t) for o, t in pairs if o is not None and t is not None]
    theirs_only = [t for o, t in pairs if o is None and t is not None]
    tol = f"±{check.abs_tol:g} {check.unit}" + (f" or {check.rel_tol:.0%}" if check.rel_tol else "")
    if not both:
        # nvidia-smi has a value we could not read: that is a failure; neither side has one (MIG): not applicable.
        status = "MISMATCH" if theirs_only else "n/a"
        shown = f"{statistics.median(theirs_only):g}" if theirs_only else "-"
        return Row(name, check.label, "-", shown, tol, status)
    ours = statistics.median(o for o, _ in both)
    theirs = statistics.median(t for _, t in both)
    diff = statistics.median(abs(o - t) for o, t in both)
    status = "ok" if diff <= check.tolerance(theirs) else "MISMATCH"
    return Row(name, check.label, f"{ours:g} {check.unit}", f"{theirs:g} {check.unit}", tol, status)


def _prof_rows(name: str, last: GpuReading | None, entry: Samples, loaded: bool) -> list[Row]:
    if last is None:
        return []
    if last.profiling is not ProfilingState.AVAILABLE:
        detail = last.profiling_detail or last.profiling.value
        return [Row(name, "PROF (GPM)", last.profiling.value, "-", "-", f"info: {detail}")]
    rows = []
    entities = (
        [(name, last.device.values)]
        if not last.instances
        else [(f"{name} GI {i.identity.gpu_instance_id}", i.reading.values) for i in last.instances]
    )
    for who, values in entities:
        for fid, label in PROF_FIELDS.items():
            value = _number(values.get(fid))
            ok = value is not None and 0.0 <= value <= 1.0
            shown = "-" if value is None else f"{value:.3f}"
            rows.append(Row(who, label, shown, "-", "ratio 0-1", "ok" if ok else "MISMATCH"))
    util = [t for _, t in entry.pairs.get("GPU utilization", []) if t is not None]
    gr = _number(last.device.values.get(FieldId.DCGM_FI_PROF_GR_ENGINE_ACTIVE))
    if loaded and util and statistics.median(util) >= 50 and gr is not None:
        # Under a matrix-multiply load a busy GPU must show an active graphics engine in GPM as well.
        status = "ok" if gr >= 0.05 else "MISMATCH"
        busy = f"{statistics.median(util):g} %"
        rows.append(Row(name, "GR engine vs utilization", f"{gr:.3f}", busy, "> 0.05", status))
    return rows


def format_table(rows: Sequence[Row]) -> str:
    header = Row("GPU", "figure", "gpuscope", "nvidia-smi", "tolerance", "status")
    table = [header, *rows]
    widths = [max(len(getattr(r, f)) for r in table) for f in Row.__slots__]
    lines = ["  ".join(getattr(r, f).ljust(w) for f, w in zip(Row.__slots__, widths, strict=True)) for r in table]
    return "\n".join(line.rstrip() for line in lines)


# --- I/O ----------------------------------------------------------------------------------------------------


def require_gpu() -> None:
    """Fail with one line when this machine cannot run the selftest at all."""
    from gpuscope.backends import nvidia_driver_present

    if not nvidia_driver_present() or shutil.which("nvidia-smi") is None:
        raise EnvironmentProblem(
            "no NVIDIA GPU here: gpuscope selftest needs an NVIDIA driver and nvidia-smi on this machine"
        )


def query_smi() -> str:
    result = subprocess.run(SMI_QUERY, capture_output=True, text=True, timeout=30, check=False)
    if result.returncode != 0:
        raise EnvironmentProblem(f"nvidia-smi failed: {result.stderr.strip() or result.stdout.strip()}")
    return result.stdout


_LOAD = r"""
import sys, time
kind, deadline = sys.argv[1], time.time() + float(sys.argv[2])
if kind == "torch":
    import torch
    pairs = [(torch.randn(8192, 8192, device=f"cuda:{i}", dtype=torch.float16),) * 2
             for i in range(torch.cuda.device_count())]
    while time.time() < deadline:
        for a, b in pairs:
            torch.matmul(a, b)
        torch.cuda.synchronize()
else:
    import cupy
    pairs = []
    for i in range(cupy.cuda.runtime.getDeviceCount()):
        with cupy.cuda.Device(i):
            a = cupy.random.random((8192, 8192), dtype=cupy.float32)
            pairs.append((i, a, a.copy()))
    while time.time() < deadline:
        for i, a, b in pairs:
            with cupy.cuda.Device(i):
                cupy.matmul(a, b)
        for i, _, _ in pairs:
            cupy.cuda.Device(i).synchronize()
"""


def start_load(seconds: float) -> subprocess.Popen[bytes] | None:
    """A matrix-multiply loop on every GPU in a child process; ``None`` when neither torch nor cupy is installed."""
    kind = next((k for k in ("torch", "cupy") if importlib.util.find_spec(k) is not None), None)
    if kind is None:
        return None
    return subprocess.Popen([sys.executable, "-c", _LOAD, kind, str(seconds + 10)])


@dataclass(frozen=True, slots=True)
class Plan:
    seconds: float = 30.0
    interval: float = 2.0
    warmup: float = 5.0


def _process_rows(backend: Backend, apps: Callable[[], str] | None) -> list[Row]:
    if apps is None:
        return []
    reading = backend.collect(ReadRequest(REQUEST.field_ids, processes=True))
    return compare_processes(reading.gpus, parse_apps(apps()))


def run_selftest(
    backend: Backend,
    smi: Callable[[], str],
    *,
    plan: Plan | None = None,
    load: Callable[[float], subprocess.Popen[bytes] | None] = start_load,
    sleep: Callable[[float], None] = time.sleep,
    echo: Callable[[str], None] = print,
    apps: Callable[[], str] | None = None,
) -> int:
    """Run the comparison; print the table; 0 when everything matches, 1 otherwise.

    ``apps`` (``nvidia-smi --query-compute-apps``) adds the per-process check, made once while the load runs.
    """
    plan = plan or Plan()
    try:
        backend.collect(REQUEST)
    except BackendUnavailable as exc:
        raise EnvironmentProblem(f"NVML cannot be used: {exc}") from None
    process = load(plan.seconds)
    echo("load: " + ("matrix-multiply loop on every GPU" if process else "none (install torch or cupy for one)"))
    samples: dict[str, Samples] = {}
    try:
        sleep(plan.warmup)
        rounds = max(1, int((plan.seconds - plan.warmup) / plan.interval))
        for _ in range(rounds):
            reading = backend.collect(REQUEST)
            record(samples, reading.gpus, parse_smi(smi()))
            sleep(plan.interval)
        extra = _process_rows(backend, apps)
    finally:
        if process is not None:
            process.terminate()
            process.wait(timeout=30)
    rows = compare(samples, loaded=process is not None) + extra
    echo(format_table(rows))
    bad = [r for r in rows if r.status == "MISMATCH"]
    echo(f"{len(bad)} mismatch(es) beyond tolerance" if bad else "all figures match nvidia-smi")
    return 1 if bad else 0


# --- the per-process check: the nvml backend's processes against ``nvidia-smi --query-compute-apps`` ---------
# Taken once, right after the last reading, while the load process runs. A process matches when both sides list
# it on the same GPU and its memory agrees within a tolerance (memory grows between the two reads while a CUDA
# program allocates); one listed by one side only is a mismatch (the load process lives through the comparison).

APPS_QUERY = ["nvidia-smi", "--query-compute-apps=gpu_uuid,pid,used_memory", "--format=csv,noheader,nounits"]
TOLERANCE_MIB = 64.0
_MIB = 1 << 20

Apps = Mapping[tuple[str, int], float | None]  # (GPU UUID, PID) -> used MiB, None for N/A


def parse_apps(text: str) -> dict[tuple[str, int], float | None]:
    out: dict[tuple[str, int], float | None] = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.split(",")]
        if len(cells) != 3 or not cells[1].isdigit():
            continue
        try:
            used: float | None = float(cells[2])
        except ValueError:
            used = None  # "[N/A]" (WDDM, some vGPU guests)
        out[(cells[0], int(cells[1]))] = used
    return out


def compare_processes(gpus: Sequence[GpuReading], apps: Apps) -> list[Row]:
    """One row per (GPU, PID) either side lists."""
    ours: dict[tuple[str, int], float | None] = {}
    models: dict[str, str] = {}
    for gpu in gpus:
        models[gpu.identity.uuid] = gpu.identity.model_name
        for p in gpu.processes:
            if "compute" in p.kinds:
                ours[(gpu.identity.uuid, p.pid)] = None if p.memory_bytes is None else p.memory_bytes / _MIB
    rows = []
    for uuid, pid in sorted(ours.keys() | apps.keys()):
        name = f"{uuid[:12]} ({models.get(uuid, '?')})"
        label = f"process {pid} memory"
        mine, theirs = ours.get((uuid, pid), "absent"), apps.get((uuid, pid), "absent")
        if mine == "absent" or theirs == "absent":
            status = "MISMATCH"
        elif mine is None or theirs is None:
            status = "n/a" if mine is None and theirs is None else "MISMATCH"
        else:
            status = "ok" if abs(float(mine) - float(theirs)) <= TOLERANCE_MIB else "MISMATCH"
        rows.append(Row(name, label, _text(mine), _text(theirs), f"{TOLERANCE_MIB:g} MiB", status))
    return rows


def _text(value: float | str | None) -> str:
    if value is None:
        return "n/a"
    return value if isinstance(value, str) else f"{value:.0f} MiB"


def query_apps() -> str:
    """``nvidia-smi --query-compute-apps`` (the per-process check's other side)."""
    result = subprocess.run(APPS_QUERY, capture_output=True, text=True, timeout=30, check=False)
    if result.returncode != 0:
        raise EnvironmentProblem(f"nvidia-smi failed: {result.stderr.strip() or result.stdout.strip()}")
    return result.stdout

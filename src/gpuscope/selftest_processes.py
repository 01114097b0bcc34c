"""``gpuscope selftest``'s per-process check: the processes the nvml backend lists on each GPU, with their memory,
against ``nvidia-smi --query-compute-apps`` taken right after, while the load process runs (pure, but the query).

A process matches when both sides list it on the same GPU and its memory agrees within a tolerance (memory grows
between the two reads while a CUDA program allocates). One listed by one side only is a mismatch, unless it is
so short-lived that the other read missed it: the load process lives through the whole comparison.
"""

from __future__ import annotations

import subprocess
from collections.abc import Mapping, Sequence

from gpuscope.backends.base import GpuReading
from gpuscope.errors import EnvironmentProblem
from gpuscope.selftest import Row

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
    result = subprocess.run(APPS_QUERY, capture_output=True, text=True, timeout=30, check=False)
    if result.returncode != 0:
        raise EnvironmentProblem(f"nvidia-smi failed: {result.stderr.strip() or result.stdout.strip()}")
    return result.stdout

"""Label sets exactly as the two exporters produce them after a Prometheus scrape, and value helpers."""

from __future__ import annotations

import hashlib

from tests.support.promtool import Series, steps

JOB = "dcgm-exporter"
H100 = "NVIDIA H100 80GB HBM3"
A100 = "NVIDIA A100-SXM4-80GB"


def uuid(host: str, gpu: int) -> str:
    return f"GPU-{hashlib.sha256(host.encode()).hexdigest()[:8]}-0000-4000-8000-{gpu:012d}"


def gpu_labels(
    gpu: int = 0,
    host: str = "node-a",
    *,
    model: str = H100,
    host_label: str = "Hostname",
    instance: str | None = None,
    mig: tuple[str, int] | None = None,
    extra: dict[str, str] | None = None,
) -> dict[str, str]:
    """A DCGM series' labels: job/instance from the scrape, then dcgm-exporter's label order."""
    labels = {
        "job": JOB,
        "instance": instance or f"{host}:9400",
        "gpu": str(gpu),
        "UUID": uuid(host, gpu),
        "pci_bus_id": f"00000000:{0x18 + gpu:02X}:00.0",
        "device": f"nvidia{gpu}",
        "modelName": model,
    }
    if mig:
        labels["GPU_I_PROFILE"], labels["GPU_I_ID"] = mig[0], str(mig[1])
    labels[host_label] = host
    labels["DCGM_FI_DRIVER_VERSION"] = "570.133.20"
    labels.update(extra or {})
    return labels


def self_labels(gpu: int = 0, host: str = "node-a", **extra: str) -> dict[str, str]:
    """gpuscope's per-GPU self-metric labels."""
    return {"job": JOB, "instance": f"{host}:9400", "gpu": str(gpu), "UUID": uuid(host, gpu), "Hostname": host, **extra}


def identity(gpu: int = 0, host: str = "node-a", host_label: str = "Hostname", **extra: str) -> dict[str, str]:
    """The labels a GPU-level alert keeps."""
    return {"instance": f"{host}:9400", "UUID": uuid(host, gpu), "gpu": str(gpu), host_label: host, **extra}


def target(host: str = "node-a") -> dict[str, str]:
    return {"job": JOB, "instance": f"{host}:9400"}


def up(host: str = "node-a", values: str | None = None, total: str = "1h") -> Series:
    return Series("up", target(host), values or f"1x{steps(total)}")


def flat(value: float | int, total: str = "1h") -> str:
    return f"{value:g}x{steps(total)}"


def until(value: float | int, start: str = "30m", after: str = "stale") -> str:
    """``value`` until ``start``, then ``after`` (default: the series stops with a staleness marker)."""
    return f"{value:g}x{steps(start) - 1} {after}"


def from_(value: str, start: str = "30m", total: str = "1h") -> str:
    """No samples before ``start``, then ``value`` repeated to ``total``."""
    return f"_x{steps(start)} {value}x{steps(total) - steps(start)}"


def change(before: float | int, after: float | int, start: str = "30m", total: str = "1h") -> str:
    return f"{before:g}x{steps(start) - 1} {after:g}x{steps(total) - steps(start)}"


def grow(base: float | int, per_step: float | int, start: str = "30m", total: str = "1h") -> str:
    """Flat at ``base`` until ``start``, then growing by ``per_step`` every 15 s."""
    return f"{base:g}x{steps(start) - 1} {base + per_step:g}+{per_step:g}x{steps(total) - steps(start)}"


# A failed scrape at ``at``: ``up`` reads 0 and every other series of the target gets a staleness marker.
MISSED = "35m"


def missed_up(at: str = MISSED, total: str = "1h") -> Series:
    return up(values=f"1x{steps(at) - 1} 0 1x{steps(total) - steps(at) - 1}")


def flat_missed(value: float | int, at: str = MISSED, total: str = "1h") -> str:
    """``flat`` with the staleness marker of one failed scrape at ``at``."""
    return f"{value:g}x{steps(at) - 1} stale {value:g}x{steps(total) - steps(at) - 1}"


def change_missed(
    before: float | int, after: float | int, start: str = "30m", at: str = MISSED, total: str = "1h"
) -> str:
    """``change`` at ``start``, with the staleness marker of one failed scrape at ``at`` (after ``start``)."""
    return (
        f"{before:g}x{steps(start) - 1} {after:g}x{steps(at) - steps(start) - 1} stale "
        f"{after:g}x{steps(total) - steps(at) - 1}"
    )

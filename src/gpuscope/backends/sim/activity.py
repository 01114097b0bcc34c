"""Deterministic simulated workloads: what the silicon is doing at time t, from a seed.

Every quantity is a pure function of ``(kind, seed, key, t)`` so two runs with the same seed produce the same
values at the same timestamps, whatever the collection schedule. Noise is smooth value noise (hashed knots every
few seconds, smoothstep between them) so rates and averages behave like real telemetry rather than white noise.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from enum import StrEnum

_MASK64 = (1 << 64) - 1


class WorkloadKind(StrEnum):
    IDLE = "idle"
    TRAINING = "training"
    INFERENCE = "inference"
    BURSTY = "bursty"
    NOTEBOOK = "notebook"  # a kernel left open: nothing runs, its memory stays allocated


@dataclass(frozen=True, slots=True)
class Activity:
    """Fractions in 0..1 of what the GPU (or GPU instance) is doing right now."""

    gr_engine: float
    sm_active: float
    sm_occupancy: float
    tensor: float
    dram: float
    fp64: float
    fp32: float
    fp16: float
    pcie_tx: float
    pcie_rx: float
    nvlink: float
    fb_used: float
    encoder: float = 0.0
    decoder: float = 0.0


IDLE = Activity(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.006)


def _hash(*parts: int) -> int:
    """splitmix64 over the parts: a fast, well-mixed, deterministic integer hash."""
    x = 0x9E3779B97F4A7C15
    for part in parts:
        x = (x ^ (part & _MASK64)) & _MASK64
        x = (x + 0x9E3779B97F4A7C15) & _MASK64
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
        x ^= x >> 31
    return x


def uniform(*parts: int) -> float:
    """A deterministic number in [0, 1) for the given parts."""
    return _hash(*parts) / float(1 << 64)


def noise(seed: int, key: int, salt: int, t: float, period: float = 10.0) -> float:
    """Smooth deterministic noise in [-1, 1] with knots every ``period`` seconds."""
    k = math.floor(t / period)
    frac = t / period - k
    a = uniform(seed, key, salt, k) * 2 - 1
    b = uniform(seed, key, salt, k + 1) * 2 - 1
    s = frac * frac * (3 - 2 * frac)
    return a + (b - a) * s


def _clamp(x: float, lo: float = 0.0, hi: float = 1.0) -> float:
    return lo if x < lo else hi if x > hi else x


def activity(kind: WorkloadKind, seed: int, key: int, t: float) -> Activity:
    """What a GPU running ``kind`` is doing at wall time ``t``."""
    if kind is WorkloadKind.IDLE:
        return IDLE
    if kind is WorkloadKind.NOTEBOOK:
        return replace(IDLE, fb_used=0.6)
    if kind is WorkloadKind.TRAINING:
        return _training(seed, key, t)
    if kind is WorkloadKind.INFERENCE:
        return _inference(seed, key, t)
    return _bursty(seed, key, t)


def _training(seed: int, key: int, t: float) -> Activity:
    # Steady compute with a short checkpoint stall every 10 minutes, phase set by the seed.
    phase = uniform(seed, key, 1) * 600.0
    checkpoint = (t + phase) % 600.0 < 20.0
    n = noise(seed, key, 2, t)
    sm = 0.06 if checkpoint else _clamp(0.84 + 0.07 * n)
    return Activity(
        gr_engine=_clamp(sm + 0.1),
        sm_active=sm,
        sm_occupancy=_clamp(0.48 + 0.08 * noise(seed, key, 3, t)) * (sm / 0.84),
        tensor=_clamp(sm * (0.62 + 0.08 * noise(seed, key, 4, t))),
        dram=_clamp(0.05 if checkpoint else 0.42 + 0.1 * noise(seed, key, 5, t)),
        fp64=0.0,
        fp32=_clamp(sm * 0.12),
        fp16=_clamp(sm * 0.18),
        pcie_tx=_clamp(0.35 if checkpoint else 0.03 + 0.02 * abs(n)),
        pcie_rx=_clamp(0.06 + 0.03 * abs(noise(seed, key, 6, t))),
        nvlink=0.02 if checkpoint else _clamp(0.45 + 0.2 * noise(seed, key, 7, t, 3.0)),
        fb_used=0.9,
    )


def _inference(seed: int, key: int, t: float) -> Activity:
    # Diurnal load with per-GPU phase: busy by day, quieter at night.
    phase = uniform(seed, key, 11) * 2 * math.pi
    load = _clamp(0.38 + 0.25 * math.sin(2 * math.pi * t / 86400.0 + phase) + 0.12 * noise(seed, key, 12, t))
    return Activity(
        gr_engine=_clamp(load + 0.2),
        sm_active=load,
        sm_occupancy=_clamp(0.3 * load + 0.05),
        tensor=_clamp(load * 0.45),
        dram=_clamp(0.12 + 0.35 * load),
        fp64=0.0,
        fp32=_clamp(load * 0.2),
        fp16=_clamp(load * 0.25),
        pcie_tx=_clamp(0.04 * load),
        pcie_rx=_clamp(0.1 * load + 0.01),
        nvlink=_clamp(0.05 * load),
        fb_used=0.64,
        encoder=_clamp(0.1 * load),
        decoder=_clamp(0.3 * load),
    )


def _bursty(seed: int, key: int, t: float) -> Activity:
    # Two-minute windows, each busy or idle by a coin flip: notebooks, CI jobs, hyperparameter sweeps.
    window = math.floor(t / 120.0)
    if uniform(seed, key, 21, window) < 0.45:
        return replace(IDLE, fb_used=0.5)  # allocated, memory held, nothing running
    n = noise(seed, key, 22, t, 5.0)
    sm = _clamp(0.7 + 0.2 * n)
    return Activity(
        gr_engine=_clamp(sm + 0.05),
        sm_active=sm,
        sm_occupancy=_clamp(0.4 * sm),
        tensor=_clamp(0.5 * sm),
        dram=_clamp(0.3 + 0.2 * n),
        fp64=0.0,
        fp32=_clamp(0.15 * sm),
        fp16=_clamp(0.2 * sm),
        pcie_tx=0.05,
        pcie_rx=0.08,
        nvlink=_clamp(0.2 * sm),
        fb_used=0.5,
    )


def workload_for(mix: str, seed: int, key: int) -> WorkloadKind:
    """Pick a workload for one GPU: a fixed kind, or ``mixed`` (deterministic per GPU from the seed)."""
    if mix != "mixed":
        return WorkloadKind(mix)
    draw = uniform(seed, key, 31)
    if draw < 0.45:
        return WorkloadKind.TRAINING
    if draw < 0.75:
        return WorkloadKind.INFERENCE
    if draw < 0.9:
        return WorkloadKind.BURSTY
    return WorkloadKind.IDLE

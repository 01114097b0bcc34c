"""The report tests' store: samples backfilled into real Prometheus blocks, and the report run against it as JSON."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from gpuscope.cli import main
from gpuscope.runner.binaries import find_binary
from tests.support.prom import Prometheus


def backfill(work: Path, lines: list[str]) -> Path:
    source = work / "data.om"
    source.write_text("\n".join([*lines, "# EOF", ""]))
    data = work / "data"
    subprocess.run(
        [find_binary("promtool"), "tsdb", "create-blocks-from", "openmetrics", str(source), str(data)],
        check=True,
        capture_output=True,
    )
    source.unlink()
    return work


def report(prom: Prometheus, tmp_path: Path, *args: str) -> dict[str, Any]:
    out = tmp_path / "report.json"
    code = main(["report", "--prometheus", prom.url, "-o", str(out), "--format", "json", *args])
    assert code == 0
    body: dict[str, Any] = json.loads(out.read_text())
    return body


def close(actual: float, expected: float) -> bool:
    return abs(actual - expected) <= 1e-6 * max(1.0, abs(expected))


def rows(body: dict[str, Any]) -> dict[str, tuple[float, float, float]]:
    return {r["group"]: (r["gpu_hours_held"], r["active_gpu_hours"], r["energy_kwh"]) for r in body["groups"]}


def check(actual: dict[str, tuple[float, float, float]], expected: dict[str, tuple[float, float, float]]) -> None:
    assert set(actual) == set(expected)
    for group, values in expected.items():
        assert all(close(a, e) for a, e in zip(actual[group], values, strict=True)), (group, actual[group], values)

"""Issue 37, ``gpuscope report`` against a hostile Prometheus on loopback (a real HTTP/1.1 server answering the
query API, tests/support/hostile_http.py): NaN and infinite samples (0/0 is ordinary PromQL) are skipped values;
a group named like mathtext (``$\\foo$``) is plain text in the plots; JSON of the wrong types, nested thousands
deep, an endless answer and a dripping one each end in one line naming --prometheus, never a traceback, a hang or
a MemoryError."""

from __future__ import annotations

import json
import re
import socketserver
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import gpuscope
from tests.support.hostile_http import drip, drip_headers, endless, hostile, send

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

START = 1_795_305_600
END = START + 3 * 3600
MODEL = "NVIDIA H100 80GB HBM3"
RANGE = ("--from", str(START), "--to", str(END))


def answer_json(body: bytes, handler: socketserver.StreamRequestHandler) -> None:
    head = f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\nConnection: close"
    send(handler, head, body)


def prometheus(data: Callable[[str], Any]) -> Callable[[str, socketserver.StreamRequestHandler], None]:
    """An answer of ``{"status": "success", "data": data(path)}`` for every query."""

    def answer(path: str, handler: socketserver.StreamRequestHandler) -> None:
        answer_json(json.dumps({"status": "success", "data": data(path)}).encode(), handler)

    return answer


def hostile_values(group: str) -> Callable[[str], Any]:
    """Every query answers one GPU of ``group`` whose points cycle through NaN, +Inf, -Inf and numbers."""
    values = ["NaN", "+Inf", "1", "-Inf", "0.5", "1e999"]

    def data(path: str) -> Any:
        metric = {"namespace": group, "modelName": MODEL, "pod": "p", "Hostname": "h", "UUID": "GPU-0"}
        if path.startswith("/api/v1/query_range"):
            points = [[START + 300 * (i + 1), values[i % len(values)]] for i in range(36)]
            return {"resultType": "matrix", "result": [{"metric": metric, "values": points}]}
        return {"resultType": "vector", "result": [{"metric": metric, "value": [END, "NaN"]}]}

    return data


def run_report(url: str, tmp_path: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return gpuscope("report", "--prometheus", url, *RANGE, *args, timeout=timeout)


@pytest.mark.parametrize("fmt", ["html", "json", "csv"])
@pytest.mark.parametrize("group", ["$\\foo$", "$x^{$", "team-$a$", "a$b"])
def test_nan_and_inf_are_skipped_and_a_dollar_group_is_plain_text(tmp_path: Path, fmt: str, group: str) -> None:
    out = tmp_path / f"report.{fmt}"
    with hostile(prometheus(hostile_values(group))) as url:
        done = run_report(url, tmp_path, "--format", fmt, "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    text = out.read_text()
    assert not re.search(r"\b(nan|NaN|inf|Infinity)\b", text.replace(group, "")), "a non-finite value was reported"
    if fmt == "json":
        (row,) = json.loads(text)["groups"]
        assert row["group"] == group
        # 12 finite points of 36 (1, 0.5 per cycle of six), each 300 s: (6 x 1 + 6 x 0.5) x 300 / 3600 GPU-hours
        assert row["gpu_hours_held"] == pytest.approx(0.75)
    if fmt == "html":
        escaped = group.replace("&", "&amp;").replace("<", "&lt;")
        assert f">{escaped}</text>" in text  # the plot's tick label is the name itself, not mathtext


WRONG = {
    "values-not-numbers": {"resultType": "matrix", "result": [{"metric": {}, "values": [["x", {}]]}]},
    "metric-a-list": {"resultType": "matrix", "result": [{"metric": [1], "values": []}]},
    "result-a-number": {"resultType": "matrix", "result": 5},
    "points-not-pairs": {"resultType": "matrix", "result": [{"metric": {}, "values": [[1, 2, 3]]}]},
    "vector-for-matrix": {"resultType": "vector", "result": []},
    "data-a-string": "matrix",
}


@pytest.mark.parametrize("data", WRONG.values(), ids=WRONG.keys())
def test_json_of_the_wrong_types_is_one_line(tmp_path: Path, data: Any) -> None:
    with hostile(prometheus(lambda path: data)) as url:
        done = run_report(url, tmp_path, "-o", str(tmp_path / "r.html"))
    assert_one_line(done, f"--prometheus {url}: ")
    assert not (tmp_path / "r.html").exists()


def nested(path: str, handler: socketserver.StreamRequestHandler) -> None:
    answer_json(b'{"status": "success", "data": ' + b"[" * 200_000 + b"]" * 200_000 + b"}", handler)


@pytest.mark.parametrize(
    ("answer", "timeout", "fragment"),
    [
        (nested, "60", "not a Prometheus API"),
        (endless, "120", "answered more than 32 MiB"),
        (drip, "2", "no answer within --timeout 2s"),
        (drip_headers, "2", "no answer within --timeout 2s"),
    ],
    ids=["nested-200000-deep", "endless", "body-drip", "header-drip"],
)
def test_a_hostile_server_is_one_line_within_the_timeout(
    tmp_path: Path, answer: Callable[[str, socketserver.StreamRequestHandler], None], timeout: str, fragment: str
) -> None:
    with hostile(answer) as url:
        # Without the deadline the drips last for ever: only the subprocess limit would end them.
        done = run_report(url, tmp_path, "--timeout", timeout, "-o", str(tmp_path / "r.html"), timeout=240)
    assert_one_line(done, f"--prometheus {url}: ", fragment)


def assert_one_line(done: subprocess.CompletedProcess[str], *fragments: str) -> None:
    assert done.returncode != 0, done
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gpuscope: error: "), done.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]

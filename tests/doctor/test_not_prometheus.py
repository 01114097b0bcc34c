"""Pointed at the wrong thing, the doctor and the report say so in one line and exit alike: a URL nothing
answers on is the same mistake for both, and the doctor pointed at VictoriaMetrics (the stack's global store)
says what it is and which URL to pass, not ``KeyError: 'version'``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from gpuscope.errors import ApiError, AuditError
from tests.support.doctor import doctor_cli
from tests.support.net import free_port
from tests.support.prom import binary, serving_binary
from tests.support.upstack import cli

pytestmark = pytest.mark.e2e  # a real VictoriaMetrics


@pytest.fixture(scope="module")
def victoriametrics(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    workdir = tmp_path_factory.mktemp("vm")
    url = f"http://127.0.0.1:{free_port()}"
    argv = [binary("victoria-metrics"), f"-httpListenAddr={url.removeprefix('http://')}"]
    with serving_binary("victoria-metrics", [*argv, f"-storageDataPath={workdir / 'data'}"], workdir, url):
        yield url


def _one_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    return lines[0]


def test_an_unreachable_url_exits_alike_in_the_doctor_and_the_report(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    doctor = doctor_cli("--prometheus", url)
    report = cli("report", "--prometheus", url, "--from", "now-15m", "-o", str(tmp_path / "r.html"))
    assert doctor.returncode == report.returncode == AuditError.exit_code == ApiError.exit_code
    for done in (doctor, report):
        assert f"--prometheus {url}: cannot connect" in _one_line(done.stderr)


@pytest.mark.parametrize("path", ["", "/prometheus"])
def test_the_doctor_on_victoriametrics_says_so(victoriametrics: str, path: str) -> None:
    done = doctor_cli("--prometheus", victoriametrics + path)
    line = _one_line(done.stderr)
    assert done.returncode == AuditError.exit_code
    assert "this is VictoriaMetrics, not Prometheus" in line and "pass the replica's URL as --prometheus" in line
    assert "KeyError" not in line

"""``gpuscope exporter --backend dcgm`` over the fake libdcgm: the real CLI, and the exporter while the engine dies."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from gpuscope.backends.dcgm import DcgmBackend, Target
from gpuscope.exporter.server import Listener
from gpuscope.exporter.settings import ExporterSettings, make_runtime
from gpuscope.fields.catalog import ALL_FIELDS, BY_NAME, Entity, MigScope, ValueKind
from gpuscope.fields.collectors import default_counters_text, parse_collectors
from tests.fakedcgm import FakeDcgm
from tests.fakedcgm.nodes import two_a100s
from tests.support.exporter_process import fake_dcgm_exporter, scrape_until
from tests.support.exporters import serving
from tests.support.net import free_port, wait_for

pytestmark = pytest.mark.e2e

_IN_DEFAULT = {m.field.name for m in parse_collectors(default_counters_text(), "default").metrics}
# The whole profiling family on GPUs (the 4.9 aliases share ids with the classic rows and are left out).
PROF = [
    f
    for f in ALL_FIELDS
    if f.prof and f.entity is Entity.GPU and "UTIL_RATIO" not in f.name and f.name not in _IN_DEFAULT
]
PROF_CSV = "".join(f"{f.name}, {f.type.value}, profiling field {f.field_id}\n" for f in PROF)


def _value(name: str, gpu: int) -> tuple[str, str]:
    """(model line value, exposition text) of a field on a GPU."""
    field = BY_NAME[name]
    if field.value is ValueKind.DOUBLE:
        number = round(field.field_id / 2048 + gpu / 16, 6)
        return f"d {number}", f"{number:.6f}"
    number = field.field_id + 1000 * gpu
    return f"i {number}", str(number)


def _series(text: str, name: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(name + "{")]


def test_cli_serves_default_counters_and_the_prof_family(fake_library: Path, tmp_path: Path) -> None:
    default = parse_collectors(default_counters_text(), "default")
    names = [m.field.name for m in default.metrics if m.field.field_id > 0] + [f.name for f in PROF]
    model = [*two_a100s()[:2], "value none 0 1 s 550.54.15"]
    model += [f"value gpu {g} {BY_NAME[n].field_id} {_value(n, g)[0]}" for n in names for g in (0, 1)]
    command, env, url = fake_dcgm_exporter(tmp_path, fake_library, model, default_counters_text() + PROF_CSV)
    got, stderr = scrape_until(
        command, env, url, lambda text: text if _series(text, "DCGM_FI_PROF_SM_ACTIVE") else None, "PROF series"
    )
    assert "Traceback" not in stderr
    assert got is not None, stderr
    text = got
    for name in names:
        rows = _series(text, name)
        assert len(rows) == 2, name
        for gpu, row in enumerate(rows):
            assert f'gpu="{gpu}"' in row and 'DCGM_FI_DRIVER_VERSION="550.54.15"' in row, row
            assert row.endswith(" " + _value(name, gpu)[1]), row
    assert 'gpuscope_exporter_backend_up{backend="dcgm"} 1' in text
    assert 'gpuscope_exporter_dcgm_info{client_version="4.6.0",hostengine_version="4.6.0"} 1' in text
    available = _series(text, "gpuscope_exporter_gpu_profiling_available")
    assert len(available) == 2 and all(r.endswith(" 1") and 'reason="available"' in r for r in available)


def test_cli_rejects_a_bad_remote_hostengine_in_one_line() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "gpuscope", "exporter", "--backend", "dcgm", "-r", "host:notaport"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "-r/--remote-hostengine-info" in lines[0]


CSV = """
DCGM_FI_DEV_GPU_TEMP, gauge, temperature
DCGM_FI_DEV_FB_USED, gauge, fb used
DCGM_FI_PROF_SM_ACTIVE, gauge, sm active
"""


@pytest.fixture
def served(fake: FakeDcgm) -> Iterator[str]:
    fake.apply(*two_a100s(), "listen nvidia-dcgm:5555", "value gpu 0 150 i 40", "value gpu 1 150 i 41")
    fake.apply("value gpu 0 1002 d 0.5", "value gi 0 1002 d 0.25", "value gi 1 1002 d 0.125")
    settings = ExporterSettings(collectors=parse_collectors(CSV, "test.csv"), interval_s=0.2)
    backend = DcgmBackend(Target(address="nvidia-dcgm:5555"), retry_initial_s=0.05, retry_max_s=0.1)
    listener = Listener("127.0.0.1", free_port(), make_runtime(backend, settings, "n1"))
    with serving([listener], 0.2, extensions=()):
        yield listener.url


def test_engine_down_is_backend_down_with_the_reason_then_recovers(fake: FakeDcgm, served: str) -> None:
    url = served
    wait_for(lambda: httpx.get(f"{url}/health").status_code == 200, what="healthy")
    fake.apply("engine down")
    health = wait_for(lambda: (r := httpx.get(f"{url}/health")).status_code == 503 and r.json(), what="503")
    assert "nvidia-dcgm:5555" in health["reason"]
    text = httpx.get(f"{url}/metrics").text
    assert 'gpuscope_exporter_backend_up{backend="dcgm"} 0' in text
    fake.apply("engine up")
    wait_for(lambda: httpx.get(f"{url}/health").status_code == 200, what="healthy after the engine came back")
    text = httpx.get(f"{url}/metrics").text
    assert 'gpuscope_exporter_backend_up{backend="dcgm"} 1' in text


def test_profiling_held_on_one_gpu_shows_per_gpu_and_spares_the_rest(fake: FakeDcgm, served: str) -> None:
    url = served
    fake.apply("prof 0 busy")
    fake.apply("engine restart")  # the next session's watches meet the busy profiler

    def locked() -> str | None:
        text = httpx.get(f"{url}/metrics").text
        rows = _series(text, "gpuscope_exporter_gpu_profiling_available")
        return text if any('gpu="0"' in r and 'reason="locked"' in r and r.endswith(" 0") for r in rows) else None

    text = wait_for(locked, what="GPU 0 profiling locked")
    assert not [r for r in _series(text, "DCGM_FI_PROF_SM_ACTIVE") if 'gpu="0"' in r]
    assert [r for r in _series(text, "DCGM_FI_DEV_GPU_TEMP") if 'gpu="0"' in r and r.endswith(" 40")]
    sm = [r for r in _series(text, "DCGM_FI_PROF_SM_ACTIVE") if 'gpu="1"' in r]
    assert sorted(r.rsplit(" ", 1)[1] for r in sm) == ["0.125000", "0.250000"]
    assert MigScope.INSTANCE is BY_NAME["DCGM_FI_PROF_SM_ACTIVE"].mig

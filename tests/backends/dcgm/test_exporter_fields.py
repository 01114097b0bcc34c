"""The exporter on the DCGM backend over the fake: the 4.9 dialect serves every field of its default list from
the ids dcgm_fields.h defines; a field only the header describes is read by its id (or reported unsupported when
it is not a GPU's); a string declared ``gauge`` costs only that line."""

from __future__ import annotations

import httpx
import pytest

from gpuscope.backends.dcgm import DcgmBackend, Target
from gpuscope.exporter.server import Listener
from gpuscope.exporter.settings import ExporterSettings, make_runtime
from gpuscope.fields.catalog import HEADER_BY_ID, HEADER_IDS, Dialect, Entity, dcgm_id
from gpuscope.fields.collectors import default_counters_text, parse_collectors
from tests.fakedcgm import FakeDcgm
from tests.fakedcgm.nodes import two_a100s
from tests.support.exporters import serving
from tests.support.net import free_port, wait_for

pytestmark = pytest.mark.e2e

EXTRA = """
DCGM_FI_DEV_BAR1_USED, gauge, BAR1 used (a field only dcgm_fields.h knows)
DCGM_FI_DEV_NVSWITCH_TEMP_CELSIUS, gauge, an NvSwitch field: not a GPU's
DCGM_FI_DEV_FABRIC_CLUSTER_UUID, gauge, a string declared as a gauge
"""


def test_4_9_dialect_serves_every_default_field_and_one_bad_line_costs_one_field(fake: FakeDcgm) -> None:
    collectors = parse_collectors(default_counters_text() + EXTRA, "fields.csv", Dialect.DCGM_4_9)
    assert [w for w in collectors.warnings if "FABRIC_CLUSTER_UUID" in w]
    fake.apply(*two_a100s(), "listen nvidia-dcgm:5555")
    served = [m for m in collectors.metrics if not m.field.exporter]
    for metric in served:
        source = dcgm_id(metric.field.field_id)
        assert source is not None and source in HEADER_BY_ID, metric.name
        kind = "d" if HEADER_BY_ID[source].type == "d" else "i"
        for gpu in (0, 1):
            fake.apply(f"value gpu {gpu} {source} {kind} {source + gpu}")
            fake.apply(f"value gi {gpu} {source} {kind} {source + gpu}")
    bar1 = HEADER_IDS["DCGM_FI_DEV_BAR1_USED"]
    # a compute-instance-level field (like the framebuffer): per GPU, and per GPU instance of GPU 1 under MIG
    fake.apply(f"value gpu 0 {bar1} i 17", f"value gi 0 {bar1} i 18", f"value gi 1 {bar1} i 19")
    settings = ExporterSettings(collectors=collectors, dialect=Dialect.DCGM_4_9, interval_s=0.2)
    backend = DcgmBackend(Target(address="nvidia-dcgm:5555"), retry_initial_s=0.05, retry_max_s=0.1)
    listener = Listener("127.0.0.1", free_port(), make_runtime(backend, settings, "n1"))
    # the XID field is only emitted once one happens; an NVSwitch field has no switch here (reported unsupported)
    names = {m.name for m in served if m.field.field_id != 230 and m.field.entity is not Entity.NVSWITCH}
    names.add("DCGM_FI_DEV_BAR1_USED")
    assert {"DCGM_FI_DEV_GPU_UTIL_RATIO", "DCGM_FI_DEV_FB_USED_BYTES", "DCGM_FI_DEV_SM_CLOCK_HERTZ"} <= names

    def complete() -> str | None:
        text = httpx.get(f"{listener.url}/metrics").text
        present = {line.split("{", 1)[0] for line in text.splitlines() if not line.startswith("#")}
        return text if names <= present else None

    with serving([listener], 0.2, extensions=()):
        text = wait_for(complete, what="every 4.9 field from the fake libdcgm")
    assert 'gpuscope_exporter_backend_up{backend="dcgm"} 1' in text
    fb_used = [
        line for line in text.splitlines() if line.startswith("DCGM_FI_DEV_FB_USED_BYTES{") and 'gpu="0"' in line
    ]
    assert fb_used and fb_used[0].endswith(f" {252 * 1048576}")  # DCGM's MiB field 252, in bytes
    util = [line for line in text.splitlines() if line.startswith("DCGM_FI_DEV_GPU_UTIL_RATIO{") and 'gpu="0"' in line]
    assert util and util[0].endswith(" 2.030000")  # DCGM's field 203 (a percentage), as a ratio
    assert "DCGM_FI_DEV_FABRIC_CLUSTER_UUID" not in text.replace('field="DCGM_FI_DEV_FABRIC_CLUSTER_UUID"', "")
    bar1_rows = sorted(
        line.rsplit(" ", 1)[1] for line in text.splitlines() if line.startswith("DCGM_FI_DEV_BAR1_USED{")
    )
    assert bar1_rows == ["17", "18", "19"]
    unsupported = [line for line in text.splitlines() if line.startswith("gpuscope_exporter_field_unsupported{")]
    assert len(unsupported) == 2 and all("DCGM_FI_DEV_NVSWITCH_TEMP_CELSIUS" in line for line in unsupported)

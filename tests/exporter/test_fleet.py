from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from gpuscope.cli._flagnames import flag_names
from gpuscope.errors import UsageError
from gpuscope.exporter.settings import ExporterSettings
from gpuscope.fields.collectors import load_collectors
from gpuscope.hardware.models import model_by_key, parse_mig_layout
from gpuscope.simulator.fleet import build_listeners, plan_nodes, write_targets_file
from tests.support.exporters import serving
from tests.support.fleets import loopback_base
from tests.support.net import free_port, wait_for


def metrics_with_temperatures(url: str) -> str | None:
    """The /metrics text once it holds GPU temperatures (a node's first collection may not have run yet)."""
    text = httpx.get(f"{url}/metrics").text
    return text if "DCGM_FI_DEV_GPU_TEMP{" in text else None


def test_each_node_is_its_own_target_with_its_own_host(tmp_path: Path) -> None:
    model = model_by_key("h100")
    nodes = plan_nodes(
        count=4,
        model=model,
        gpus_per_node=2,
        base_address=loopback_base(),
        port=free_port(),
        hostname_prefix="rack1",
        mig_nodes=1,
        mig_layout=parse_mig_layout(model, "1g.10gb:7"),
    )
    listeners = build_listeners(nodes, ExporterSettings(collectors=load_collectors(None), interval_s=0.3))
    write_targets_file(str(tmp_path / "targets.json"), nodes, {"cluster": "c1"})
    targets = json.loads((tmp_path / "targets.json").read_text())
    assert targets == [{"labels": {"cluster": "c1"}, "targets": [n.target for n in nodes]}]
    with serving(listeners, 0.3, workers=2):
        seen = {}
        for lst in listeners:
            text = wait_for(partial(metrics_with_temperatures, lst.url), what=f"metrics on {lst.url}")
            temps = next(f for f in text_string_to_metric_families(text) if f.name == "DCGM_FI_DEV_GPU_TEMP")
            seen[lst.url] = {(s.labels["Hostname"], s.labels.get("GPU_I_ID")) for s in temps.samples}
            assert "process_resident_memory_bytes" not in text  # per-process figures make no sense per node
        hosts = [sorted({h for h, _ in v}) for v in seen.values()]
        assert hosts == [["rack1-0000"], ["rack1-0001"], ["rack1-0002"], ["rack1-0003"]]
        assert len(seen[listeners[0].url]) == 7  # the MIG node: one series per GPU instance
        # Faults reach exactly the node they were sent to.
        httpx.post(f"{listeners[2].url}/sim/faults", json={"fault": "fell-off-bus", "gpu": 0})
        wait_for(
            lambda: (
                'gpuscope_exporter_gpu_lost{gpu="0"' in httpx.get(f"{listeners[2].url}/metrics").text
                and 'gpu="0"' not in _temp_lines(listeners[2].url)
            ),
            what="GPU 0 lost on node 2",
        )
        assert 'gpu="0"' in _temp_lines(listeners[1].url)


def _temp_lines(url: str) -> str:
    return "\n".join(
        ln for ln in httpx.get(f"{url}/metrics").text.splitlines() if ln.startswith("DCGM_FI_DEV_GPU_TEMP{")
    )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"count": 0}, "at least 1"),
        ({"gpus_per_node": 0}, "between 1 and 16"),
        ({"base_address": "10.0.0.1"}, "leaves 127.0.0.0/8"),
        ({"base_address": "127.255.255.250", "count": 10}, "leaves 127.0.0.0/8"),
        ({"base_address": "nope"}, "not an IPv4 address"),
        ({"mig_nodes": 1}, "needs --mig-layout"),
    ],
)
def test_plan_rejects_bad_fleets(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, Any] = {"count": 2, "model": model_by_key("h100"), "gpus_per_node": 8, **kwargs}
    with pytest.raises(UsageError) as refused:
        plan_nodes(**args)
    # as `gpuscope sim` prints it: the library names its parameters, the CLI its flags (--mig-layout)
    assert message in refused.value.worded(flag_names("sim"))

"""A dashboard of a young local stack opens on the stack's whole life, not on "Last 3 hours" of which it fills 2 %;
production (no start given) and an older stack keep the dashboard's own default."""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx

from gpuscope.console.server import ConsoleSettings
from gpuscope.console.timerange import opening_from
from tests.support.console import in_process_console

NOW = 1_700_000_000_000
MINUTE = 60_000


def test_the_opening_start_is_the_later_of_the_default_and_the_data_s_start() -> None:
    assert opening_from("now-3h", NOW - 5 * MINUTE, NOW) == str(NOW - 5 * MINUTE)  # minutes old: its whole life
    assert opening_from("now-3h", NOW - 4 * 60 * MINUTE, NOW) == "now-3h"  # older than the default
    assert opening_from("now-3h", None, NOW) == "now-3h"  # no start known: production
    assert opening_from("now-3h", NOW + MINUTE, NOW) == "now-3h"  # a clock ahead of ours: nothing to show yet
    assert opening_from("yesterday", NOW - MINUTE, NOW) == "yesterday"  # not ours to judge: the page says so


def _bundle(root: Path) -> Path:
    folder = root / "grafana/dashboards"
    folder.mkdir(parents=True)
    model = {"uid": "d1", "title": "D", "panels": [], "time": {"from": "now-3h", "to": "now"}}
    (folder / "d1.json").write_text(json.dumps(model))
    return root


def test_the_console_serves_a_young_stack_s_dashboards_from_its_start(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path)
    started = time.time() - 300
    young = ConsoleSettings(bundle=bundle, prometheus_url="http://127.0.0.1:9", since=started)
    with in_process_console(young) as url:
        assert httpx.get(f"{url}/api/dashboards/d1").json()["time"] == {"from": str(int(started * 1000)), "to": "now"}
    production = ConsoleSettings(bundle=bundle, prometheus_url="http://127.0.0.1:9")
    with in_process_console(production) as url:
        assert httpx.get(f"{url}/api/dashboards/d1").json()["time"] == {"from": "now-3h", "to": "now"}

"""A fault the stack refuses, worded for whoever asked: ``gpuscope inject`` by its flags, the API by its names.

The stack's checks word their errors by the library's names (``{cluster}``), so the console reuses them; the
control API sends the template and the names it uses, and the CLI words them by its flags, as before the library
stopped naming flags (the API's answer alone read "needs cluster and node" in the terminal).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from gpuscope.httpd.guard import HttpLimits
from gpuscope.httpd.site import Site
from gpuscope.runner.control import control_app
from gpuscope.runner.plan import builtin_spec_text, plan_stack
from gpuscope.runner.stack import Stack
from gpuscope.runner.state import data_paths, write_state
from gpuscope.spec.load import parse_fleet
from tests.support.cli import gpuscope
from tests.support.net import free_port


@pytest.fixture
def control(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A stack's control API (the stack itself not started: the refusals come first), and its data directory."""
    loaded = parse_fleet(builtin_spec_text(), "builtin-fleet.yaml", tmp_path)
    data = tmp_path / "data"
    data.mkdir()
    stack = Stack(plan_stack(loaded.spec, fast=True), loaded, data)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    write_state(data_paths(data)["state"], {"urls": {"control": url}})
    loop = asyncio.new_event_loop()
    site = Site(control_app(stack), HttpLimits())
    loop.run_until_complete(site.start("127.0.0.1", port))
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield data, url
    finally:
        asyncio.run_coroutine_threadsafe(site.stop(), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(30)
        loop.close()


@pytest.mark.parametrize(
    ("args", "flags", "names"),
    [
        (["exporter-down"], "needs --cluster and --node", "needs cluster and node"),
        (["prometheus-down", "--replica", "c"], "needs --cluster and --replica a|b", "needs cluster and replica a|b"),
    ],
)
def test_a_refused_fault_names_the_flags_in_the_terminal_and_the_names_in_the_api(
    control: tuple[Path, str], args: list[str], flags: str, names: str
) -> None:
    data, url = control
    done = gpuscope("inject", *args, "--data-dir", str(data))
    assert done.returncode == 2, done.stderr
    assert flags in done.stderr and "Traceback" not in done.stderr, done.stderr
    fault = {"fault": args[0], "replica": args[2] if len(args) > 2 else "a"}
    answer = httpx.post(f"{url}/faults", json=fault, timeout=10)
    assert answer.status_code == 400 and names in answer.json()["error"], answer.text
    assert "--" not in answer.json()["error"]

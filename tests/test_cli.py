"""The CLI as a user meets it: real processes, one-line errors, exit codes."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import httpx

from tests.support.cli import assert_one_line_error, gpuscope
from tests.support.net import free_port, wait_for


def test_help_and_version() -> None:
    assert "exporter" in gpuscope("--help").stdout
    assert "--collect-interval" in gpuscope("exporter", "--help").stdout
    assert gpuscope("version").stdout.startswith("gpuscope ")


def test_bad_csv_names_file_line_and_suggestion(tmp_path: Path) -> None:
    csv = tmp_path / "fields.csv"
    csv.write_text("# fields\nDCGM_FI_DEV_GPU_TEMP, gauge, t\nDCGM_FI_DEV_SM_CLCK, gauge, c\n")
    assert_one_line_error(
        gpuscope("exporter", "--backend", "sim", "-f", str(csv)),
        f"{csv}:3: unknown field 'DCGM_FI_DEV_SM_CLCK' (did you mean 'DCGM_FI_DEV_SM_CLOCK'?)",
    )
    csv.write_text("DCGM_FI_DEV_GPU_TEMP, gauge\n")
    assert_one_line_error(gpuscope("exporter", "--backend", "sim", "-f", str(csv)), f"{csv}:1: expected 3 columns")
    assert_one_line_error(gpuscope("exporter", "-f", str(tmp_path / "none.csv")), "does not exist")
    assert_one_line_error(
        gpuscope("exporter", "--backend", "sim", env={"DCGM_EXPORTER_COLLECTORS": str(csv)}), f"{csv}:1:"
    )


def test_bad_flags_are_one_line_errors() -> None:
    assert_one_line_error(gpuscope("exporter", "-c", "fast"), "--collect-interval")
    assert_one_line_error(gpuscope("exporter", "--nope"), "No such option: --nope")
    assert_one_line_error(gpuscope("exporter", "-a", "9400"), "-a/--address '9400': expected host:port")
    assert_one_line_error(gpuscope("exporter", "--backend", "cuda"), "unknown backend 'cuda'")
    assert_one_line_error(gpuscope("exporter", "--dialect", "5.0"), "--dialect")
    assert_one_line_error(gpuscope("exporter", "--backend", "sim", "--sim-model", "b300"), "unknown GPU model")
    assert_one_line_error(gpuscope("sim", "--nodes", "2", "--base-address", "10.1.1.1"), "127.0.0.0/8")
    assert_one_line_error(gpuscope("sim", "inject", "melt"), "unknown fault 'melt'")


def test_address_in_use() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        assert_one_line_error(
            gpuscope("exporter", "--backend", "sim", "-a", f"127.0.0.1:{port}"),
            f"address 127.0.0.1:{port} is already in use (-a/--address)",
        )


def test_exporter_serves_and_sim_inject_reaches_it() -> None:
    port = free_port()
    env = {**os.environ, "NODE_NAME": "k8s-node-7", "DCGM_EXPORTER_LISTEN": f"127.0.0.1:{port}"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "gpuscope", "exporter", "--backend", "sim", "-c", "500"],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        text = wait_for(
            lambda: (
                (r := httpx.get(f"{url}/metrics")).status_code == 200 and "DCGM_FI_DEV_GPU_TEMP{" in r.text and r.text
            ),
            what="exporter up",
        )
        assert 'Hostname="k8s-node-7"' in text
        result = gpuscope("sim", "inject", "thermal", "--gpu", "2", "--url", url)
        assert result.returncode == 0 and '"thermal"' in result.stdout
        assert gpuscope("sim", "inject", "thermal", "--gpu", "99", "--url", url).returncode == 2
        assert gpuscope("sim", "clear", "--url", url).returncode == 0
        assert httpx.get(f"{url}/sim/faults").json() == {"active": []}
    finally:
        proc.terminate()
        _, stderr = proc.communicate(timeout=20)
    assert proc.returncode == 0
    assert "Traceback" not in stderr


def test_inject_into_nothing_is_a_clear_error() -> None:
    result = gpuscope("sim", "inject", "thermal", "--url", f"http://127.0.0.1:{free_port()}")
    assert result.returncode == 2 and "cannot reach" in result.stderr and "Traceback" not in result.stderr


def test_fields_lists_the_catalog() -> None:
    out = gpuscope("fields", "--default").stdout.splitlines()
    assert len(out) == 26 and any(line.startswith("DCGM_FI_DEV_GPU_TEMP ") for line in out)


def test_the_cli_does_not_load_the_bundle_compiler_into_the_exporter() -> None:
    # Every gpuscope process imports the whole CLI; the compiler, Grafana's SDK and the stack runner cost the
    # exporter ~10 MiB of RSS on every GPU node, so only the commands that use them may import them.
    code = (
        "import sys, gpuscope.cli, gpuscope.exporter.app; "
        "heavy = ('gpuscope.generate', 'gpuscope.dashboards', 'gpuscope.runner.plan', 'grafana_foundation_sdk', "
        "'pydantic'); print(sorted(m for m in sys.modules if m.split('.')[0] in heavy or m in heavy))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout

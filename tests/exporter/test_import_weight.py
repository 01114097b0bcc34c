"""What a real ``gpuscope exporter --backend nvml`` process imports: each feature's modules only when its flag is on.

The process runs on the fake NVML (``tests/fakenvml/module.py`` puts it in ``sys.modules`` as ``pynvml``), serves,
collects and answers scrapes, then exits on SIGTERM; ``GPUSCOPE_MODULES_FILE`` makes it write its ``sys.modules`` at
exit (docs/exporter.md, import weight). With default flags none of the kubelet client (gRPC), the API server client,
process metrics, TLS and basic auth, DCGM, the simulator or the other commands' modules is there, and aiohttp is
never there (the exporter serves on its own HTTP server); with the flags that need them, they are (the same check,
seen failing the other way).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx

from tests.support.certs import bcrypt_hash
from tests.support.exporter_process import clean_env, exporter_process
from tests.support.net import free_port, wait_for

REPO = Path(__file__).resolve().parents[2]

# By feature: the modules that feature alone needs. A package name stands for everything under it.
FEATURES = {
    "kubelet client (-k)": ("grpc", "google.protobuf", "gpuscope.exporter.attribution.kubelet"),
    "API server client (pod labels, DRA)": ("gpuscope.kube.client",),
    "process metrics": (
        "gpuscope.exporter.processes.procfs",
        "gpuscope.exporter.processes.cgroup",
        "gpuscope.exporter.processes.attribute",
        "gpuscope.exporter.processes.exposition",
    ),
    "TLS and basic auth (--web-config-file)": (
        "gpuscope.httpd.tls",
        "gpuscope.httpd.webconfig",
        "gpuscope.httpd.auth",
        "bcrypt",
    ),
}
# Never on an NVML exporter's start path, whatever its flags.
NEVER = (
    "aiohttp",  # the exporter serves on its own HTTP server (httpd/server.py), TLS and basic auth included
    "multidict",
    "yarl",
    "gpuscope.backends.dcgm",
    "gpuscope.backends.sim",
    "gpuscope.simulator",
    "gpuscope.spec",
    "gpuscope.generate",
    "gpuscope.rules",
    "gpuscope.runner",
    "gpuscope.doctor",
    "gpuscope.console",
    "gpuscope.dashboards",
    "gpuscope.report",
    "gpuscope.remediate",
    "gpuscope.cli.doctor",
    "gpuscope.cli.up",
    "gpuscope.cli.sim",
    "rich",
    "pydantic",  # typer's per-parameter validators: the exporter's arguments are read without them (cli/_quickargs)
    "typer._adapters",
)
# What every such exporter must show, so an empty or foreign dump cannot pass.
ALWAYS = ("pynvml", "gpuscope.httpd.server", "gpuscope.backends.nvml.session", "gpuscope.exporter.app")


def _loaded(modules: set[str], name: str) -> bool:
    return name in modules or any(m.startswith(name + ".") for m in modules)


def _exporter_modules(tmp_path: Path, *flags: str, auth: tuple[str, str] | None = None) -> set[str]:
    """Run the exporter with ``flags`` until a collection is served, stop it with SIGTERM; its ``sys.modules``."""
    dump = tmp_path / "modules.txt"
    port = free_port()
    env = clean_env(
        {
            "GPUSCOPE_MODULES_FILE": str(dump),
            "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO), os.environ.get("PYTHONPATH", "")]),
        }
    )
    argv = [sys.executable, "-m", "tests.fakenvml.module", "--", "-m", "gpuscope", "exporter", "--backend", "nvml"]
    argv += ["-a", f"127.0.0.1:{port}", "-c", "200", *flags]
    url = f"http://127.0.0.1:{port}"
    with exporter_process(argv, url, tmp_path, env=env, cwd=REPO) as running:

        def served() -> bool:
            response = httpx.get(f"{url}/metrics", auth=auth, headers={"Accept-Encoding": "gzip"}, timeout=10)
            return response.status_code == 200 and response.text.count("DCGM_FI_DEV_GPU_TEMP{") == 8

        wait_for(served, what="8 GPUs' temperatures served")
        running.proc.send_signal(signal.SIGTERM)
        try:
            assert running.proc.wait(20) == 0, running.log()
        except subprocess.TimeoutExpired:
            raise AssertionError(f"the exporter did not exit on SIGTERM:\n{running.log()}") from None
    return set(dump.read_text(encoding="utf-8").split())


def test_default_flags_import_no_feature_module(tmp_path: Path) -> None:
    modules = _exporter_modules(tmp_path)
    assert [name for name in ALWAYS if not _loaded(modules, name)] == []
    loaded = {
        feature: [name for name in names if _loaded(modules, name)]
        for feature, names in FEATURES.items()
        if any(_loaded(modules, name) for name in names)
    }
    assert loaded == {}
    assert [name for name in NEVER if _loaded(modules, name)] == []


def test_each_feature_loads_its_modules_when_its_flag_is_on(tmp_path: Path) -> None:
    web = tmp_path / "web.yml"
    web.write_text(f"basic_auth_users:\n  alice: {bcrypt_hash('a-pass')}\nauth_excluded_paths: [/health]\n")
    flags = ("-k", "--kubernetes-enable-pod-labels", "--process-metrics", "--web-config-file", str(web))
    modules = _exporter_modules(tmp_path, *flags, auth=("alice", "a-pass"))
    missing = {
        feature: [name for name in names if not _loaded(modules, name)]
        for feature, names in FEATURES.items()
        if not all(_loaded(modules, name) for name in names)
    }
    assert missing == {}
    assert [name for name in NEVER if _loaded(modules, name)] == []

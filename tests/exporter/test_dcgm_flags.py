"""Every dcgm-exporter flag and env var is accepted; the implemented ones work; bad values are one line, exit 2."""

from __future__ import annotations

import re
import socket
import sys
from pathlib import Path
from typing import Any

import pytest

from gpuscope.cli import main
from gpuscope.errors import UsageError
from gpuscope.exporter.devices import DeviceSelection, Selector, parse_devices
from tests.support.exporter import RuntimeFactory
from tests.support.exporter_process import GPUSCOPE, clean_env, exporter_process
from tests.support.net import free_port

ROOT = Path(__file__).resolve().parents[2]

# dcgm-exporter's CLI (pkg/cmd/app.go of its newest release; the rows marked 4.8.3/4.8.4 from the stored app.go that
# carries PRs #711 and #745): long flag, short flag, env var, a value to pass (None: a boolean), and whether gpuscope
# logs it as accepted without effect.
DCGM_EXPORTER_FLAGS: list[tuple[str, str | None, str, str | None, bool]] = [
    ("--collectors", "-f", "DCGM_EXPORTER_COLLECTORS", "<csv>", False),
    ("--config-file", None, "DCGM_EXPORTER_CONFIG_FILE", "<config>", False),  # 4.8.3 (PR #711)
    ("--address", "-a", "DCGM_EXPORTER_LISTEN", "<address>", False),
    ("--web-read-timeout", None, "DCGM_EXPORTER_WEB_READ_TIMEOUT", "15s", False),  # 4.8.3
    ("--web-write-timeout", None, "DCGM_EXPORTER_WEB_WRITE_TIMEOUT", "45s", False),  # 4.8.3
    ("--max-concurrent-scrapes", None, "DCGM_EXPORTER_MAX_CONCURRENT_SCRAPES", "8", True),  # 4.8.4 (PR #745)
    ("--enable-exporter-metrics", None, "DCGM_EXPORTER_ENABLE_EXPORTER_METRICS", None, True),  # 4.8.4
    ("--collect-interval", "-c", "DCGM_EXPORTER_INTERVAL", "1000", False),
    ("--watch-max-keep-age", None, "DCGM_EXPORTER_WATCH_MAX_KEEP_AGE", "5m", False),  # 4.8.4
    ("--watch-max-keep-samples", None, "DCGM_EXPORTER_WATCH_MAX_KEEP_SAMPLES", "10", False),  # 4.8.4
    ("--kubernetes", "-k", "DCGM_EXPORTER_KUBERNETES", None, False),
    ("--use-old-namespace", "-o", "DCGM_EXPORTER_USE_OLD_NAMESPACE", None, False),
    ("--cpu-devices", "-p", "DCGM_EXPORTER_CPU_DEVICES_STR", "g:0", True),
    ("--configmap-data", "-m", "DCGM_EXPORTER_CONFIGMAP_DATA", "none", False),
    ("--remote-hostengine-info", "-r", "DCGM_REMOTE_HOSTENGINE_INFO", "nvidia-dcgm:5555", False),
    ("--kubernetes-enable-pod-labels", None, "DCGM_EXPORTER_KUBERNETES_ENABLE_POD_LABELS", None, False),
    ("--kubernetes-enable-pod-uid", None, "DCGM_EXPORTER_KUBERNETES_ENABLE_POD_UID", None, False),
    ("--kubernetes-gpu-id-type", None, "DCGM_EXPORTER_KUBERNETES_GPU_ID_TYPE", "device-name", False),
    (
        "--kubernetes-pod-label-allowlist-regex",
        None,
        "DCGM_EXPORTER_KUBERNETES_POD_LABEL_ALLOWLIST_REGEX",
        "^app$",
        False,
    ),
    ("--devices", "-d", "DCGM_EXPORTER_DEVICES_STR", "g:0,1", False),
    ("--no-hostname", "-n", "DCGM_EXPORTER_NO_HOSTNAME", None, False),
    ("--health-require-gpus", None, "DCGM_EXPORTER_HEALTH_REQUIRE_GPUS", None, False),
    ("--switch-devices", "-s", "DCGM_EXPORTER_OTHER_DEVICES_STR", "g", False),
    ("--fake-gpus", None, "DCGM_EXPORTER_USE_FAKE_GPUS", None, False),
    ("--web-config-file", None, "DCGM_EXPORTER_WEB_CONFIG_FILE", "<web>", False),
    ("--xid-count-window-size", "-x", "DCGM_EXPORTER_XID_COUNT_WINDOW_SIZE", "60000", False),
    ("--replace-blanks-in-model-name", "-rbmn", "DCGM_EXPORTER_REPLACE_BLANKS_IN_MODEL_NAME", None, False),
    ("--debug", None, "DCGM_EXPORTER_DEBUG", None, False),
    ("--clock-events-count-window-size", None, "DCGM_EXPORTER_CLOCK_EVENTS_COUNT_WINDOW_SIZE", "60000", False),
    ("--enable-dcgm-log", None, "DCGM_EXPORTER_ENABLE_DCGM_LOG", None, True),
    ("--dcgm-log-level", None, "DCGM_EXPORTER_DCGM_LOG_LEVEL", "WARN", True),
    ("--log-format", None, "DCGM_EXPORTER_LOG_FORMAT", "text", False),
    ("--pod-resources-kubelet-socket", None, "DCGM_POD_RESOURCES_KUBELET_SOCKET", "<socket>", False),
    ("--hpc-job-mapping-dir", None, "DCGM_HPC_JOB_MAPPING_DIR", "<hpc>", False),
    ("--container-labels", None, "DCGM_EXPORTER_CONTAINER_LABELS", None, True),
    ("--container-runtime-socket", None, "DCGM_CONTAINER_RUNTIME_SOCKET", "/run/containerd/containerd.sock", True),
    ("--nvidia-resource-names", None, "NVIDIA_RESOURCE_NAMES", "nvidia.com/a100", False),
    ("--kubernetes-virtual-gpus", None, "KUBERNETES_VIRTUAL_GPUS", None, False),
    ("--dump-enabled", None, "DCGM_EXPORTER_DUMP_ENABLED", None, True),
    ("--dump-directory", None, "DCGM_EXPORTER_DUMP_DIRECTORY", "/tmp/dumps", True),
    ("--dump-retention", None, "DCGM_EXPORTER_DUMP_RETENTION", "48", True),
    ("--dump-compression", None, "DCGM_EXPORTER_DUMP_COMPRESSION", None, True),
    ("--kubernetes-enable-dra", None, "KUBERNETES_ENABLE_DRA", None, False),
    ("--disable-startup-validate", None, "DISABLE_STARTUP_VALIDATE", None, True),
    ("--enable-gpu-bind-unbind-watch", None, "DCGM_EXPORTER_ENABLE_GPU_BIND_UNBIND_WATCH", None, False),
    ("--gpu-bind-unbind-poll-interval", None, "DCGM_EXPORTER_GPU_BIND_UNBIND_POLL_INTERVAL", "2s", False),
    ("--enable-pprof", None, "DCGM_EXPORTER_ENABLE_PPROF", None, False),
    ("--web-systemd-socket", None, "DCGM_EXPORTER_SYSTEMD_SOCKET", None, False),  # tested with a socket below
]


def _value(placeholder: str, tmp_path: Path, port: int) -> str:
    if placeholder == "<csv>":
        path = tmp_path / "fields.csv"
        path.write_text("DCGM_FI_DEV_GPU_TEMP, gauge, t\nDCGM_FI_DEV_POWER_USAGE, gauge, p\n")
        return str(path)
    if placeholder == "<config>":  # version 2, with nothing the other flags (which win) would not override
        path = tmp_path / "config.yaml"
        path.write_text("version: 2\nsources:\n  dcgm:\n    watch:\n      maxKeepAge: 1m\n")
        return str(path)
    if placeholder == "<address>":
        return f"127.0.0.1:{port}"
    if placeholder == "<web>":
        path = tmp_path / "web.yml"
        path.write_text("{}\n")
        return str(path)
    if placeholder == "<socket>":
        return str(tmp_path / "no-kubelet.sock")
    if placeholder == "<hpc>":
        (tmp_path / "hpc").mkdir(exist_ok=True)
        return str(tmp_path / "hpc")
    return placeholder


def _every_flag(tmp_path: Path, port: int) -> tuple[list[str], dict[str, str]]:
    """All flags but the socket one, as arguments and (the same) as env vars."""
    argv: list[str] = []
    env: dict[str, str] = {}
    for long, _short, var, value, _inert in DCGM_EXPORTER_FLAGS:
        if long == "--web-systemd-socket":
            continue
        if value is None:
            argv.append(f"{long}=true" if long == "--dump-compression" else long)
            env[var] = "true"
        else:
            real = _value(value, tmp_path, port)
            argv += [long, real]
            env[var] = real
    return argv, env


@pytest.mark.e2e
@pytest.mark.parametrize("form", ["flags", "env"])
def test_every_dcgm_exporter_flag_is_accepted_and_the_inert_ones_say_why(tmp_path: Path, form: str) -> None:
    port = free_port()
    argv, env = _every_flag(tmp_path, port)
    command = [*GPUSCOPE, "exporter", *argv] if form == "flags" else [*GPUSCOPE, "exporter"]
    run_env = clean_env(env if form == "env" else {})
    with exporter_process(command, f"http://127.0.0.1:{port}", tmp_path, env=run_env) as exporter:
        metrics = exporter.get("/metrics").text
        # -f and -d took effect: two fields, GPUs 0 and 1 only; --fake-gpus chose the simulator.
        assert set(re.findall(r"^(DCGM_FI_\w+)\{", metrics, re.M)) == {
            "DCGM_FI_DEV_GPU_TEMP",
            "DCGM_FI_DEV_POWER_USAGE",
        }
        assert sorted(set(re.findall(r'^DCGM_FI_DEV_GPU_TEMP\{gpu="(\d+)"', metrics, re.M))) == ["0", "1"]
        assert "Hostname=" not in metrics  # -n
        threads = exporter.get("/debug/pprof/goroutine")  # --enable-pprof
        assert threads.status_code == 200
        assert "thread " in threads.text
        log = exporter.log()
    for long, _short, _var, _val, inert in DCGM_EXPORTER_FLAGS:
        said = [ln for ln in log.splitlines() if f"{long} is accepted and has no effect" in ln]
        assert len(said) == (1 if inert else 0), (long, log)
    assert "-r/--remote-hostengine-info nvidia-dcgm:5555 recorded" in log
    assert "Traceback" not in log


FLAG_TABLE_MARKER = "<!-- flag table: generated from gpuscope.cli._dcgm_flags.markdown_table() -->\n"


def _flag_table_doc() -> str:
    """The text after the flag table's marker, in whichever page holds it (docs/exporter.md today)."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    holders = [p for p in pages if FLAG_TABLE_MARKER in p.read_text(encoding="utf-8")]
    assert len(holders) == 1, f"the flag table's marker must be on exactly one page, found {holders}"
    return holders[0].read_text(encoding="utf-8").split(FLAG_TABLE_MARKER, 1)[1]


def test_documented_flag_table_lists_every_dcgm_exporter_flag() -> None:
    rows = [ln for ln in _flag_table_doc().splitlines() if ln.startswith("| `")]
    for long, short, var, *_rest in DCGM_EXPORTER_FLAGS:
        row = next((r for r in rows if f"`{long}`" in r), None)
        assert row is not None, f"{long} is missing from the flag table (docs/exporter.md)"
        assert f"`{var}`" in row, f"{long}: env var {var} missing from its flag table row"
        if short:
            assert f"`{short}`" in row, f"{long}: short flag {short} missing from its flag table row"


def test_documented_flag_table_is_the_generated_one() -> None:
    from gpuscope.cli._dcgm_flags import markdown_table

    assert _flag_table_doc().startswith(markdown_table()), "paste markdown_table() after the flag table's marker"


def test_the_flag_table_holds_dcgm_exporters_flags_and_no_other() -> None:
    """The table's dcgm-exporter rows are the flags of dcgm-exporter's app.go (listed above, by hand), with the
    same short names, env vars and inert status: a flag is neither invented nor lost."""
    from gpuscope.cli._dcgm_flags import rows

    table = {r.flag.long: (r.flag.short or None, r.flag.env, bool(r.flag.inert)) for r in rows() if r.flag.dcgm}
    assert table == {long: (short, var, inert) for long, short, var, _value, inert in DCGM_EXPORTER_FLAGS}


@pytest.mark.parametrize("command", ["exporter", "sim"])
def test_every_row_is_one_settings_field_and_one_typer_option(command: str) -> None:
    import dataclasses

    from gpuscope.cli import root_command
    from gpuscope.cli._dcgm_flags import ExporterFlags, rows

    assert [f.name for f in dataclasses.fields(ExporterFlags)] == [r.name for r in rows()]
    root: Any = root_command()  # every command registered
    click_command = root.commands[command]
    for r in rows():
        params = [p for p in click_command.params if p.name == r.name]
        if command not in r.flag.commands:
            assert params == [], (command, r.name)
            continue
        assert len(params) == 1, (command, r.name)
        (param,) = params
        names = {r.flag.short, r.flag.long, r.flag.off} - {""}
        assert set(param.opts) | set(param.secondary_opts) == names, r.name
        assert param.envvar == (r.flag.env or None), r.name
        assert param.default == r.default, r.name
        assert param.help == r.flag.help, r.name
        others = [p.name for p in click_command.params if names & (set(p.opts) | set(p.secondary_opts))]
        assert others == [r.name], (r.name, others)  # no other option answers to these names


def test_choices_in_the_table_are_the_settings_values() -> None:
    from gpuscope.cli._app import LOG_FORMATS
    from gpuscope.cli._dcgm_flags import row
    from gpuscope.exporter.attribution.resolve import WorkloadLabels
    from gpuscope.fields.catalog import Dialect

    assert row("dialect").flag.choices == tuple(d.value for d in Dialect)
    assert row("workload_labels").flag.choices == tuple(m.value for m in WorkloadLabels)
    assert row("log_format").flag.choices == LOG_FORMATS


def test_the_record_maps_each_flag_to_its_setting() -> None:
    from gpuscope.cli._dcgm_flags import ExporterFlags
    from gpuscope.cli._options import exporter_settings

    settings = exporter_settings(
        ExporterFlags(
            kubernetes=True,
            kubernetes_enable_pod_labels=True,
            kubernetes_enable_pod_uid=True,
            kubernetes_pod_label_allowlist_regex="^app$",
            kubernetes_virtual_gpus=True,
            kubernetes_enable_dra=True,
            node_name="node-7",
            nvidia_resource_names="nvidia.com/a100, example.com/gpu",
            hpc_job_mapping_dir="/run/hpc",
            xid_count_window_size=60000,
            clock_events_count_window_size=120000,
            collect_interval=2500,
            use_old_namespace=True,
            no_hostname=True,
            replace_blanks_in_model_name=True,
            process_metrics=True,
            proc_root="/host/proc",
        )
    )
    wl = settings.workloads
    assert (wl.kubernetes, wl.pod_labels, wl.pod_uid, wl.virtual_gpus, wl.dra) == (True, True, True, True, True)
    assert (wl.label_allowlist, wl.node_name, wl.hpc_dir) == ("^app$", "node-7", "/run/hpc")
    assert wl.resource_names == ("nvidia.com/a100", "example.com/gpu")
    assert (settings.xid_window_ms, settings.clock_events_window_ms, settings.interval_s) == (60000, 120000, 2.5)
    assert (settings.use_old_namespace, settings.no_hostname, settings.replace_blanks_in_model_name) == (
        True,
        True,
        True,
    )
    assert (settings.processes.enabled, settings.processes.proc_root) == (True, "/host/proc")
    assert exporter_settings(ExporterFlags()).workloads.node_name == socket.gethostname()


def test_dcgm_exporter_boolean_value_form_is_rewritten_for_click() -> None:
    from gpuscope.cli import root_command
    from gpuscope.cli._dcgm_flags import normalise_dcgm_args
    from gpuscope.cli.exporter import exporter_command_click

    command = exporter_command_click(root_command(["exporter"]))
    argv = ["--kubernetes=false", "-n=true", "--dump-compression=false", "--debug=TRUE", "-f=x.csv", "--", "-k=1"]
    assert normalise_dcgm_args(command, argv) == ["--no-hostname", "--no-dump-compression", "--debug",
                                                  "--collectors=x.csv", "--", "-k=1"]  # fmt: skip
    assert normalise_dcgm_args(command, ["--kubernetes=maybe"]) == ["--kubernetes=maybe"]  # left for click to refuse


def test_go_style_flags_and_repeated_slices_are_rewritten_from_the_table() -> None:
    from gpuscope.cli import root_command
    from gpuscope.cli._dcgm_flags import normalise_dcgm_args, rows
    from gpuscope.cli.exporter import exporter_command_click

    command = exporter_command_click(root_command(["exporter"]))
    argv = ["-collectors", "a.csv", "-collect-interval=500", "--f", "b.csv", "-kubernetes", "-c=700", "-no-hostname"]
    argv += ["-kubernetes-pod-label-allowlist-regex", "^team$", "--kubernetes-pod-label-allowlist-regex=^app,x"]
    argv += ["-dump-compression=false", "-c500", "--sim-gpus", "2"]
    assert normalise_dcgm_args(command, argv) == [
        "--collectors=a.csv", "--collect-interval=500", "--collectors=b.csv", "--kubernetes",
        "--collect-interval=700", "--no-hostname", "--kubernetes-pod-label-allowlist-regex=^team$,^app,x",
        "--no-dump-compression", "-c500", "--sim-gpus", "2",
    ]  # fmt: skip
    # every long flag of the table, with one dash: the long form click reads
    for r in rows():
        if "exporter" not in r.flag.commands:
            continue
        single = "-" + r.flag.long.removeprefix("--")
        got = normalise_dcgm_args(command, [single] if r.type is bool else [single, "v"])
        assert got == ([r.flag.long] if r.type is bool else [f"{r.flag.long}=v"]), r.flag.long


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("f", DeviceSelection()),
        ("g", DeviceSelection(kind=Selector.GPUS)),
        ("i", DeviceSelection(kind=Selector.INSTANCES)),
        ("g:0,1", DeviceSelection(kind=Selector.GPUS, ids=frozenset({0, 1}))),
        ("i:0,2-4", DeviceSelection(kind=Selector.INSTANCES, ids=frozenset({0, 2, 3, 4}))),
        (" g:3 ", DeviceSelection(kind=Selector.GPUS, ids=frozenset({3}))),
        # combined (dcgm-exporter 4.8.3): GPUs and GPU instances, in either order
        ("g+i", DeviceSelection(kind=Selector.BOTH)),
        ("i:1+g:0,2", DeviceSelection(kind=Selector.BOTH, ids=frozenset({0, 2}), instance_ids=frozenset({1}))),
    ],
)
def test_device_selector_grammar(text: str, expected: DeviceSelection) -> None:
    assert parse_devices(text) == expected


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("x", "'x' is not f, g or i"),
        ("f:0", "f takes no ids"),
        ("g:0:1", "at most one ':'"),
        ("g:1-", "'1-' is not an id or a range"),
        ("g:a", "'a' is not an id or a range"),
        ("i:4-2", "runs backwards"),
        ("g:", "'' is not an id or a range"),
        ("f+g", "f cannot be combined"),
        ("g+g:1", "each of g and i at most once"),
        ("g+", "an empty selector"),
        ("g:0+i:0:1", "at most one ':'"),
    ],
)
def test_malformed_device_selector_names_the_flag_and_the_fix(text: str, why: str) -> None:
    with pytest.raises(UsageError) as info:
        parse_devices(text)
    message = str(info.value)
    assert message.startswith(f"invalid device selector {text!r} for -d/--devices (env DCGM_EXPORTER_DEVICES_STR)")
    assert why in message
    assert message.endswith("write f, g, g:0,1, i, i:0,2-4 or g:0+i:1")


def test_gpu_selector_keeps_those_gpus_without_their_instances(make: RuntimeFactory) -> None:
    runtime, _sim, _clock = make(
        gpus=4, mig="1g.10gb:7", devices=DeviceSelection(kind=Selector.GPUS, ids=frozenset({1, 3}))
    )
    runtime.collect()
    reading = runtime.published.snapshot.reading
    assert reading is not None
    assert [g.identity.index for g in reading.gpus] == [1, 3]
    assert all(not g.instances for g in reading.gpus)


def test_combined_selector_keeps_those_gpus_and_those_instances(make: RuntimeFactory) -> None:
    # GPU 1 whole (no instance is selected on it), and instance 9 of every GPU that has one
    runtime, _sim, _clock = make(gpus=3, mig="1g.10gb:7", devices=parse_devices("g:1+i:99"))
    runtime.collect()
    reading = runtime.published.snapshot.reading
    assert reading is not None
    assert [(g.identity.index, g.instances) for g in reading.gpus] == [(1, ())]
    runtime, _sim, _clock = make(gpus=3, mig="1g.10gb:7", devices=parse_devices("g:1+i:9"))
    runtime.collect()
    reading = runtime.published.snapshot.reading
    assert reading is not None
    assert [g.identity.index for g in reading.gpus] == [0, 1, 2]
    assert [[i.identity.gpu_instance_id for i in g.instances] for g in reading.gpus] == [[9], [9], [9]]


def test_instance_selector_keeps_only_those_instances(make: RuntimeFactory) -> None:
    runtime, _sim, _clock = make(gpus=2, mig="1g.10gb:7", devices=parse_devices("i:7,9"))
    runtime.collect()
    reading = runtime.published.snapshot.reading
    assert reading is not None
    assert [g.identity.index for g in reading.gpus] == [0, 1]
    assert {i.identity.gpu_instance_id for g in reading.gpus for i in g.instances} == {7, 9}
    assert all(g.instances for g in reading.gpus)
    body = runtime.body(0.0, gzip=False).decode()
    assert re.findall(r'GPU_I_ID="(\d+)"', body)  # instance series are still served
    assert set(re.findall(r'GPU_I_ID="(\d+)"', body)) == {"7", "9"}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-d", "q"], "invalid device selector 'q' for -d/--devices"),
        (["-s", "g:x"], "for -s/--switch-devices"),
        (["-p", "f:1"], "for -p/--cpu-devices"),
        (["-m", "no-colon"], "invalid value 'no-colon' for -m/--configmap-data"),
        (["--dcgm-log-level", "LOUD"], "invalid value 'LOUD' for --dcgm-log-level"),
        (["--log-format", "yaml"], "invalid value 'yaml' for --log-format"),
        (["--kubernetes-gpu-id-type", "pci"], "invalid value 'pci' for --kubernetes-gpu-id-type"),
        (["--web-systemd-socket"], "--web-systemd-socket (env DCGM_EXPORTER_SYSTEMD_SOCKET): no socket was passed"),
        (["--fake-gpus", "--backend", "nvml"], "--fake-gpus asks for simulated GPUs"),
        (["-m", "gpu:metrics"], "-m/--configmap-data (env DCGM_EXPORTER_CONFIGMAP_DATA) gpu:metrics: not running in"),
    ],
)
def test_bad_compat_values_are_one_line_at_start(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for var in ("LISTEN_FDS", "LISTEN_PID", "KUBERNETES_SERVICE_HOST", "KUBERNETES_SERVICE_PORT"):
        monkeypatch.delenv(var, raising=False)
    code = main(["exporter", "-a", "127.0.0.1:1", *argv])
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if ln.startswith("gpuscope: error:")]
    assert len(lines) == 1, err
    assert message in lines[0]
    assert code == 2
    assert "Traceback" not in err


@pytest.mark.e2e
def test_systemd_socket_activation_serves_on_the_passed_socket(tmp_path: Path) -> None:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    port = listener.getsockname()[1]
    # As systemd does: the socket is fd 3 of the exporter process, LISTEN_PID is that process.
    launcher = (
        "import os, sys; os.dup2(int(sys.argv[1]), 3); os.environ['LISTEN_FDS'] = '1'; "
        "os.environ['LISTEN_PID'] = str(os.getpid()); os.execv(sys.executable, [sys.executable, *sys.argv[2:]])"
    )
    argv = [sys.executable, "-c", launcher, str(listener.fileno()), "-m", "gpuscope", "exporter", "--fake-gpus",
            "--web-systemd-socket", "-c", "500", "-a", "127.0.0.1:1"]  # fmt: skip
    try:
        with exporter_process(argv, f"http://127.0.0.1:{port}", tmp_path, pass_fds=(listener.fileno(),)) as exporter:
            assert "DCGM_FI_DEV_GPU_TEMP{" in exporter.get("/metrics").text
            assert f"on http://127.0.0.1:{port}/metrics" in exporter.log()
    finally:
        listener.close()


def test_kubernetes_only_flags_without_k_say_so_once_each(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KUBERNETES_VIRTUAL_GPUS", "true")  # the env var form counts as set, too
    # An address that cannot be served ends the run right after the start-up lines.
    code = main(["exporter", "--backend", "sim", "-a", "127.0.0.1:0", "--kubernetes-enable-dra", "-s", "g"])
    err = capsys.readouterr().err
    assert code == 2
    said = [ln.split("gpuscope: ", 1)[1] for ln in err.splitlines() if "has no effect" in ln]
    assert said == [
        "--kubernetes-virtual-gpus has no effect without -k/--kubernetes (env DCGM_EXPORTER_KUBERNETES)",
        "--kubernetes-enable-dra has no effect without -k/--kubernetes (env DCGM_EXPORTER_KUBERNETES)",
    ]

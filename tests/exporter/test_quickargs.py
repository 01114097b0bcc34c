"""``cli/_quickargs`` against typer: the same arguments and environment give the same values and the same "was it
set" answers, or the quick reader hands them to typer (None). Typer's own parse is the reference."""

from __future__ import annotations

from typing import Any

import pytest

from gpuscope.cli import _quickargs, root_command
from gpuscope.cli._dcgm_flags import rows
from gpuscope.cli.exporter import exporter_command, exporter_command_click

ENV_NAMES = sorted({r.flag.env for r in rows() if r.flag.env})

CASES: list[tuple[list[str], dict[str, str]]] = [
    ([], {}),
    (["--backend", "nvml", "-a", "127.0.0.1:9400", "-c", "1000"], {}),
    (["-f", "x.csv", "-k", "--kubernetes-enable-pod-labels", "-n", "-rbmn", "-o"], {}),
    (["--no-dump-compression"], {}),
    (["--dump-compression"], {"DCGM_EXPORTER_DUMP_COMPRESSION": "false"}),
    (["--collect-interval=500", "--address=:9500"], {}),
    (["-c=500"], {}),
    (["-f=x.csv"], {}),
    (["-c", "+500"], {}),
    (["-c", "1e3"], {}),
    (["-c", "50"], {}),
    (["-c", "1000", "-c", "2000"], {}),
    (["-c"], {}),
    (["-f", "-k"], {}),
    (["--kubernetes", "--kubernetes"], {}),
    (["--help"], {}),
    (["extra"], {}),
    (["--", "-k"], {}),
    (["-kn"], {}),
    (["--no-such-flag"], {}),
    (["--sim-gpus", "4", "--sim-model", "h200", "--sim-seed", "-3"], {}),
    (["--sim-gpus", "17"], {}),
    (["--sim-seed=-3", "--sim-mig-layout=1g.10gb:7"], {}),
    (["--node-name", "n1", "--web-config-file", "/etc/web.yml", "--process-metrics"], {}),
    ([], {"DCGM_EXPORTER_INTERVAL": "2000", "NODE_NAME": "n2", "DCGM_EXPORTER_COLLECTORS": "/x.csv"}),
    (["-c", "3000"], {"DCGM_EXPORTER_INTERVAL": "2000"}),
    ([], {"DCGM_EXPORTER_INTERVAL": "50"}),
    ([], {"DCGM_EXPORTER_INTERVAL": " 2000"}),
    ([], {"DCGM_EXPORTER_INTERVAL": ""}),
    ([], {"DCGM_EXPORTER_KUBERNETES": "true", "DCGM_EXPORTER_NO_HOSTNAME": "1", "GPUSCOPE_PROCESS_METRICS": "yes"}),
    ([], {"DCGM_EXPORTER_KUBERNETES": "TRUE", "DCGM_EXPORTER_DUMP_COMPRESSION": "off"}),
    ([], {"DCGM_EXPORTER_KUBERNETES": "false", "DCGM_EXPORTER_DEBUG": "0"}),
    ([], {"DCGM_EXPORTER_KUBERNETES": ""}),
    ([], {"DCGM_EXPORTER_KUBERNETES": "maybe"}),
    ([], {"DCGM_EXPORTER_KUBERNETES": " on "}),
    (["--no-hostname"], {"DCGM_EXPORTER_NO_HOSTNAME": "false"}),
    ([], {"DCGM_EXPORTER_DEVICES_STR": "g:0,2-3", "DCGM_EXPORTER_LISTEN": ":9401", "GPUSCOPE_BACKEND": "sim"}),
]


def _typer(args: list[str]) -> tuple[dict[str, Any], frozenset[str]] | None:
    command = exporter_command_click(root_command(["exporter"]))
    try:
        ctx = command.make_context("exporter", list(args))
    except Exception:  # a refusal, or --help (click's Exit): typer's answer is no values
        return None
    set_names = frozenset(
        name
        for name in ctx.params
        if (source := ctx.get_parameter_source(name)) is not None and source.name in ("COMMANDLINE", "ENVIRONMENT")
    )
    return dict(ctx.params), set_names


@pytest.mark.parametrize(("args", "env"), CASES, ids=[" ".join(a) + " " + str(e) for a, e in CASES])
def test_quick_reader_agrees_with_typer_or_leaves_it_to_typer(
    args: list[str], env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ENV_NAMES:
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    command = exporter_command_click(root_command(["exporter"]))
    params = _quickargs.params_of(command, exporter_command)
    assert params is not None  # every parameter of the command is of a kind the reader takes
    quick = _quickargs.parse(params, args, dict(env))
    reference = _typer(args)
    if quick is None:
        return  # typer reads these (it may accept or refuse them)
    assert reference is not None, "the quick reader accepted what typer refuses"
    values, set_names = reference
    assert dict(quick.values) == values
    assert quick.set_names == set_names


def test_the_common_starts_are_read_quickly() -> None:
    """Without this, the reader could hand everything to typer and the memory would quietly come back."""
    command = exporter_command_click(root_command(["exporter"]))
    params = _quickargs.params_of(command, exporter_command)
    assert params is not None
    env = {"DCGM_EXPORTER_KUBERNETES": "true", "DCGM_EXPORTER_INTERVAL": "30000", "NODE_NAME": "node-1"}
    for args in ([], ["--backend", "nvml", "-f", "/etc/dcgm-exporter/dcp-metrics-included.csv", "-a", ":9400"]):
        assert _quickargs.parse(params, args, env) is not None

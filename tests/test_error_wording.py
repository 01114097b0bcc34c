"""Library errors carry the value and what is wrong, by the library's own names for its parameters; only the CLI
words them in flags (issue 53). The console and the runner reuse the library's checks, and a message telling a
console user to pass ``--group-by`` names a flag they never had.

The scan: every ``raise`` outside ``gpuscope/cli`` whose exception is built from a string literal holding ``--`` (a
long flag), none excepted. A parameter is written ``{name}`` in the message and listed with ``naming``/``InvalidValue``;
``gpuscope.flagnames`` words it for the CLI and for the exporter's own runtime log (a reload, the kubelet). Then the
two wordings of the same errors: the library's (what the console gets) and the
CLI's (unchanged from when the library wrote the flags itself).
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable
from pathlib import Path

import pytest

import gpuscope
from gpuscope.bundle import Bundle, write_bundle
from gpuscope.cli import main
from gpuscope.cli._flagnames import FLAG_NAMES, flag_names
from gpuscope.errors import AuditError, EnvironmentProblem, GpuscopeError, InvalidValue, UsageError
from gpuscope.exporter.configmap import parse_configmap_ref
from gpuscope.hardware.models import MODELS
from gpuscope.httpd.systemd import inherited_sockets
from gpuscope.httpd.webconfig import load_web_config
from gpuscope.report.collect import ReportRequest, validate
from gpuscope.simulator.fleet import plan_nodes

SRC = Path(gpuscope.__file__).parent


def flag_worded_raises() -> list[tuple[str, int, str]]:
    """(module, line, text) of each raise whose message holds a long flag, written there or in a module constant."""
    found = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel.startswith("cli/"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants: dict[str, str] = {
            target.id: str(node.value.value)
            for node in tree.body
            if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        for node in ast.walk(tree):
            if not isinstance(node, ast.Raise) or node.exc is None:
                continue
            texts = [
                str(sub.value) if isinstance(sub, ast.Constant) else constants[sub.id]
                for sub in ast.walk(node.exc)
                if (isinstance(sub, ast.Constant) and isinstance(sub.value, str))
                or (isinstance(sub, ast.Name) and sub.id in constants)
            ]
            # "-----BEGIN CERTIFICATE-----" is PEM, not a flag
            words = [t for t in texts if any(w.startswith("--") and w[2:3].isalpha() for w in _words(t))]
            if words:
                found.append((rel, node.lineno, words[0]))
    return found


def _words(text: str) -> list[str]:
    return text.replace("(", " ").replace("/", " ").split()


def test_no_library_error_is_worded_in_flags() -> None:
    left = [f"{rel}:{line}: {text!r}" for rel, line, text in flag_worded_raises()]
    assert not left, "library errors worded in flags (name the parameter, let the CLI word it):\n" + "\n".join(left)


def test_a_name_is_one_flag_in_every_command() -> None:
    """A name is one parameter wherever it is raised, and no two names of one command share a flag."""
    flags: dict[str, set[str]] = {}
    for table in FLAG_NAMES.values():
        assert len(set(table.values())) == len(table), table
        for name, flag in table.items():
            flags.setdefault(name, set()).add(flag)
    assert {name: f for name, f in flags.items() if len(f) > 1} == {}


@pytest.mark.parametrize(
    ("request_", "library", "cli"),
    [
        (
            ReportRequest(start=10.0, end=5.0),
            "start must be before end (e.g. start 2026-11-01 end 2026-12-01)",
            "--from must be before --to (e.g. --from 2026-11-01 --to 2026-12-01)",
        ),
        (
            ReportRequest(start=0.0, end=3600.0, group_by="owner"),
            "group_by 'owner': choose one of namespace, team, job, cluster",
            "--group-by 'owner': choose one of namespace, team, job, cluster",
        ),
        (
            ReportRequest(start=0.0, end=90 * 86400.0, group_by="job"),
            "group_by job: the 1 h rollups carry namespace, team, cluster only (no pod); use a range of at most 15 "
            "days or tier raw",
            "--group-by job: the 1 h rollups carry namespace, team, cluster only (no pod); use a range of at most 15 "
            "days or --tier raw",
        ),
        (
            ReportRequest(start=0.0, end=3600.0, kwh_price=math.nan),
            "kwh_price nan: give a price of zero or more",
            "--price-per-kwh nan: give a price of zero or more",
        ),
    ],
)
def test_the_report_checks_word_parameters_for_the_console_and_flags_for_the_cli(
    request_: ReportRequest, library: str, cli: str
) -> None:
    with pytest.raises(InvalidValue) as err:
        validate(request_)
    assert (str(err.value), err.value.worded(flag_names("report"))) == (library, cli)
    assert "--" not in str(err.value)


def test_the_simulated_fleet_words_its_parameters() -> None:
    with pytest.raises(InvalidValue) as err:
        plan_nodes(count=1, model=next(iter(MODELS.values())), gpus_per_node=8, mig_nodes=1)
    assert str(err.value) == "mig_nodes needs mig_layout, e.g. mig_layout 1g.10gb:7"
    assert err.value.worded(flag_names("sim")) == "--mig-nodes needs --mig-layout, e.g. --mig-layout 1g.10gb:7"


def _refusal(call: Callable[[], object]) -> GpuscopeError:
    with pytest.raises(GpuscopeError) as err:
        call()
    return err.value


def test_the_exporter_s_start_up_checks_word_parameters_and_its_cli_the_flags_with_their_env_vars(
    tmp_path: Path,
) -> None:
    """dcgm-exporter's -m and --web-systemd-socket are worded with their env vars, as the exporter always said;
    the web config and the systemd socket are gpuscope.httpd's, which the remediator and sim reuse."""
    exporter = flag_names("exporter")
    configmap = _refusal(lambda: parse_configmap_ref("no-colon"))
    assert str(configmap).startswith("invalid value 'no-colon' for configmap_data: write NAMESPACE:NAME")
    assert configmap.worded(exporter).startswith(
        "invalid value 'no-colon' for -m/--configmap-data (env DCGM_EXPORTER_CONFIGMAP_DATA): write NAMESPACE:NAME"
    )
    systemd = _refusal(lambda: inherited_sockets({}))
    assert str(systemd) == (
        "web_systemd_socket: no socket was passed (LISTEN_FDS is not set); start the exporter from a systemd .socket "
        "unit, or drop the flag and use address"
    )
    assert systemd.worded(exporter) == (
        "--web-systemd-socket (env DCGM_EXPORTER_SYSTEMD_SOCKET): no socket was passed (LISTEN_FDS is not set); "
        "start the exporter from a systemd .socket unit, or drop the flag and use -a/--address"
    )
    web = _refusal(lambda: load_web_config(str(tmp_path / "web.yml")))
    assert "(web_config_file): No such file" in str(web)
    for command in ("exporter", "sim", "remediate"):  # each reads --web-config-file
        assert "(--web-config-file): No such file" in web.worded(flag_names(command)), command


def test_a_value_is_shown_as_given_even_when_it_looks_like_a_parameter() -> None:
    """Only the message's own ``{name}`` are worded: a hostile value spelling one stays as the user typed it."""
    err = InvalidValue("group_by", repr("{group_by}\n"), "choose one of namespace, team")
    assert err.worded(flag_names("report")) == "--group-by '{group_by}\\n': choose one of namespace, team"
    assert str(err) == "group_by '{group_by}\\n': choose one of namespace, team"


def test_an_error_re_raised_as_another_kind_is_still_worded_by_the_cli() -> None:
    inner = EnvironmentProblem("cannot listen on :1 ({listen}): in use").naming("listen")
    outer = AuditError(inner.template).naming(*inner.refs)
    assert str(outer) == "cannot listen on :1 (listen): in use"
    remediate = flag_names("remediate")
    assert outer.worded(remediate) == inner.worded(remediate) == "cannot listen on :1 (--listen): in use"


def test_the_cli_prints_the_flag(capsys: pytest.CaptureFixture[str]) -> None:
    """End to end through ``main``: the user who typed ``--group-by`` reads ``--group-by`` (no server is asked:
    the request is refused first)."""
    code = main(["report", "--prometheus", "http://127.0.0.1:9", "--from", "now-1h", "--group-by", "owner"])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("gpuscope: error: --group-by 'owner': choose one of"), err


def test_a_bundle_write_names_the_flag_only_under_generate(tmp_path: Path) -> None:
    """``gpuscope up`` writes its bundle with the same function as ``gpuscope generate``, but has no -o/--output:
    its line names the parameter, generate's the flag."""
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with pytest.raises(UsageError) as err:
        write_bundle(Bundle(files={"x.yml": "a: 1\n"}), str(blocker / "out"))
    assert "(-o/--output): " in err.value.worded(flag_names("generate"))
    assert "(output): " in err.value.worded(flag_names("up")) and "--" not in str(err.value)

"""SIGHUP reloads the collectors CSV, the ConfigMap of -m and the web config; a bad new one keeps the old serving."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from gpuscope.errors import EnvironmentProblem, UsageError
from gpuscope.exporter.configmap import ConfigMapRef, parse_configmap_ref, read_configmap_csv
from gpuscope.flagnames import flag_names
from tests.support.certs import bcrypt_hash
from tests.support.exporter_process import GPUSCOPE, ExporterProcess, clean_env, exporter_process
from tests.support.kubeapi import fake_kube_api
from tests.support.net import free_port, wait_for

TWO_FIELDS = "DCGM_FI_DEV_GPU_TEMP, gauge, t\nDCGM_FI_DEV_POWER_USAGE, gauge, p\n"
THREE_FIELDS = TWO_FIELDS + "DCGM_FI_DEV_SM_CLOCK, gauge, c\n"


def families(exporter: ExporterProcess, **kwargs: object) -> set[str]:
    return set(re.findall(r"^(DCGM_FI_\w+)\{", exporter.get("/metrics", **kwargs).text, re.M))


def reload_state(exporter: ExporterProcess, **kwargs: object) -> tuple[int, float]:
    text = exporter.get("/metrics", **kwargs).text
    ok = re.search(r"^gpuscope_exporter_config_last_reload_successful (\d)$", text, re.M)
    at = re.search(r"^gpuscope_exporter_config_last_reload_success_timestamp_seconds (\S+)$", text, re.M)
    assert ok and at, text
    return int(ok.group(1)), float(at.group(1))


def log_lines(exporter: ExporterProcess, needle: str) -> list[str]:
    return [ln for ln in exporter.log().splitlines() if needle in ln]


@pytest.mark.e2e
def test_sighup_reloads_a_good_csv_and_keeps_the_old_one_when_the_new_is_bad(tmp_path: Path) -> None:
    csv = tmp_path / "fields.csv"
    csv.write_text(TWO_FIELDS)
    port = free_port()
    argv = [*GPUSCOPE, "exporter", "--fake-gpus", "-a", f"127.0.0.1:{port}", "-c", "500", "-f", str(csv)]
    with exporter_process(argv, f"http://127.0.0.1:{port}", tmp_path) as exporter:
        assert families(exporter) == {"DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_POWER_USAGE"}
        ok, started = reload_state(exporter)
        assert ok == 1

        csv.write_text(THREE_FIELDS)
        exporter.hup()
        wait_for(lambda: "DCGM_FI_DEV_SM_CLOCK" in families(exporter), what="the reloaded field list")
        ok, reloaded = reload_state(exporter)
        assert ok == 1
        assert reloaded > started

        csv.write_text(TWO_FIELDS + "DCGM_FI_DEV_NOT_A_FIELD, gauge, x\n")
        exporter.hup()
        wait_for(lambda: reload_state(exporter)[0] == 0, what="the failed reload in the self-metrics")
        assert reload_state(exporter)[1] == reloaded  # the last success is still the previous reload
        assert "DCGM_FI_DEV_SM_CLOCK" in families(exporter)  # the old list keeps serving
        failed = log_lines(exporter, "SIGHUP reload failed")
        assert len(failed) == 1
        assert f"{csv}:3: unknown field 'DCGM_FI_DEV_NOT_A_FIELD'" in failed[0]

        csv.unlink()
        exporter.hup()
        wait_for(lambda: len(log_lines(exporter, "SIGHUP reload failed")) == 2, what="the second failed reload")
        assert "does not exist" in log_lines(exporter, "SIGHUP reload failed")[1]
        assert exporter.proc.poll() is None
        assert exporter.get("/health").status_code == 200


@pytest.mark.e2e
def test_a_rewritten_collectors_file_is_reloaded_without_sighup(tmp_path: Path) -> None:
    """dcgm-exporter reloads when its -f file is rewritten (an fsnotify watch); so does gpuscope (a stat poll)."""
    csv = tmp_path / "fields.csv"
    csv.write_text(TWO_FIELDS)
    port = free_port()
    argv = [*GPUSCOPE, "exporter", "--fake-gpus", "--sim-gpus", "2", "-a", f"127.0.0.1:{port}", "-c", "300"]
    argv += ["-f", str(csv)]
    with exporter_process(argv, f"http://127.0.0.1:{port}", tmp_path) as exporter:
        assert families(exporter) == {"DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_POWER_USAGE"}
        _, started = reload_state(exporter)

        csv.write_text(THREE_FIELDS)  # rewritten in place
        wait_for(lambda: "DCGM_FI_DEV_SM_CLOCK" in families(exporter), what="the rewritten field list")
        ok, reloaded = reload_state(exporter)
        assert (ok, reloaded > started) == (1, True)
        assert len(log_lines(exporter, "fields.csv was rewritten: configuration reloaded (3 fields")) == 1

        broken = tmp_path / "fields.new"
        broken.write_text(TWO_FIELDS + "DCGM_FI_DEV_NOT_A_FIELD, gauge, x\n")
        broken.replace(csv)  # replaced by a rename, as a ConfigMap update or an editor does
        wait_for(lambda: reload_state(exporter)[0] == 0, what="the failed reload in the self-metrics")
        assert reload_state(exporter)[1] == reloaded
        assert "DCGM_FI_DEV_SM_CLOCK" in families(exporter)  # the old list keeps serving
        failed = log_lines(exporter, "fields.csv was rewritten: reload failed, keeping the previous configuration")
        assert len(failed) == 1 and "unknown field 'DCGM_FI_DEV_NOT_A_FIELD'" in failed[0]

        csv.write_text("DCGM_FI_DEV_GPU_TEMP, gauge, t\n")  # fixed: reloaded, and the state says so again
        wait_for(lambda: families(exporter) == {"DCGM_FI_DEV_GPU_TEMP"}, what="the fixed file")
        assert reload_state(exporter)[0] == 1
        assert exporter.proc.poll() is None


@pytest.mark.e2e
def test_sighup_reloads_the_web_config(tmp_path: Path) -> None:
    web = tmp_path / "web.yml"
    web.write_text(f"basic_auth_users:\n  alice: {bcrypt_hash('a-pass')}\nauth_excluded_paths: [/health]\n")
    port = free_port()
    argv = [*GPUSCOPE, "exporter", "--fake-gpus", "-a", f"127.0.0.1:{port}", "-c", "500", "--web-config-file", str(web)]
    with exporter_process(argv, f"http://127.0.0.1:{port}", tmp_path) as exporter:
        refused = exporter.get("/metrics")
        assert refused.status_code == 401
        assert refused.text == "Unauthorized\n"  # dcgm-exporter's (exporter-toolkit's) body
        assert exporter.get("/metrics", auth=("alice", "a-pass")).status_code == 200

        web.write_text(f"basic_auth_users:\n  bob: {bcrypt_hash('b-pass')}\nauth_excluded_paths: [/health]\n")
        exporter.hup()
        wait_for(lambda: exporter.get("/metrics", auth=("bob", "b-pass")).status_code == 200, what="bob let in")
        assert exporter.get("/metrics", auth=("alice", "a-pass")).status_code == 401

        web.write_text("basic_auth_users:\n  carol: not-a-bcrypt-hash\n")
        exporter.hup()
        wait_for(lambda: log_lines(exporter, "SIGHUP reload failed"), what="the failed reload")
        assert exporter.get("/metrics", auth=("bob", "b-pass")).status_code == 200
        assert reload_state(exporter, auth=("bob", "b-pass"))[0] == 0


def test_configmap_reference_grammar() -> None:
    assert parse_configmap_ref("none") is None
    assert parse_configmap_ref("") is None
    assert parse_configmap_ref("gpu-operator:dcgm-metrics") == ConfigMapRef("gpu-operator", "dcgm-metrics")
    for bad in ("metrics", ":metrics", "ns:", "NS:metrics", "ns:me/trics"):
        with pytest.raises(UsageError, match="write NAMESPACE:NAME"):
            parse_configmap_ref(bad)


@pytest.mark.e2e
def test_configmap_is_read_through_the_api_server_with_the_service_account(tmp_path: Path) -> None:
    with fake_kube_api(tmp_path) as api:
        api.configmaps[("gpu", "metrics")] = {"metrics": TWO_FIELDS}
        api.configmaps[("gpu", "empty")] = {"other": "x"}
        env = api.env()
        assert read_configmap_csv(ConfigMapRef("gpu", "metrics"), env) == TWO_FIELDS
        assert api.requests[-1] == "/api/v1/namespaces/gpu/configmaps/metrics"

        problems = {
            ConfigMapRef("gpu", "absent"): "no such ConfigMap (HTTP 404)",
            ConfigMapRef("gpu", "empty"): "the ConfigMap has no 'metrics' key",
        }
        for ref, why in problems.items():
            with pytest.raises(UsageError) as info:
                read_configmap_csv(ref, env)
            assert str(info.value).startswith(f"configmap_data {ref}: {why}")  # by the flag where the exporter says it
            said = info.value.worded(flag_names("exporter"))
            assert said.startswith(f"-m/--configmap-data (env DCGM_EXPORTER_CONFIGMAP_DATA) {ref}: {why}")

        api.readable_namespaces = {"elsewhere"}
        with pytest.raises(UsageError, match="may not read it \\(HTTP 403\\): grant get on configmaps"):
            read_configmap_csv(ConfigMapRef("gpu", "metrics"), env)
        api.readable_namespaces = None

        (api.sa_dir / "token").write_text("stale-token\n")
        with pytest.raises(UsageError, match="HTTP 401"):
            read_configmap_csv(ConfigMapRef("gpu", "metrics"), env)

        with pytest.raises(EnvironmentProblem, match="cannot read the service-account token or CA"):
            read_configmap_csv(
                ConfigMapRef("gpu", "metrics"), {**env, "GPUSCOPE_SERVICEACCOUNT_DIR": str(tmp_path / "x")}
            )


@pytest.mark.e2e
def test_datadog_style_configmap_invocation_serves_and_reloads(tmp_path: Path) -> None:
    """Datadog's chart runs the exporter with ``-m <namespace>:<configmap>``."""
    with fake_kube_api(tmp_path) as api:
        api.configmaps[("datadog", "dcgm-metrics")] = {"metrics": TWO_FIELDS}
        port = free_port()
        argv = [
            *GPUSCOPE,
            "exporter",
            "--fake-gpus",
            "-a",
            f"127.0.0.1:{port}",
            "-c",
            "500",
            "-m",
            "datadog:dcgm-metrics",
        ]
        env = clean_env(api.env())
        with exporter_process(argv, f"http://127.0.0.1:{port}", tmp_path, env=env) as exporter:
            assert families(exporter) == {"DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_POWER_USAGE"}
            assert "from ConfigMap datadog:dcgm-metrics (key metrics)" in exporter.log()

            api.configmaps[("datadog", "dcgm-metrics")] = {"metrics": THREE_FIELDS}
            exporter.hup()
            wait_for(lambda: "DCGM_FI_DEV_SM_CLOCK" in families(exporter), what="the ConfigMap's new list")

            api.configmaps[("datadog", "dcgm-metrics")] = {"metrics": "this is, not a, field list\n"}
            exporter.hup()
            wait_for(lambda: reload_state(exporter)[0] == 0, what="the failed reload")
            assert "DCGM_FI_DEV_SM_CLOCK" in families(exporter)
            line = log_lines(exporter, "SIGHUP reload failed")[0]
            assert "ConfigMap datadog:dcgm-metrics (key metrics):1: unknown field 'this is'" in line

            # The exporter's own log names the flag the user set, as its start-up line does (below).
            del api.configmaps[("datadog", "dcgm-metrics")]
            exporter.hup()
            wait_for(lambda: len(log_lines(exporter, "SIGHUP reload failed")) == 2, what="the second failed reload")
            line = log_lines(exporter, "SIGHUP reload failed")[1]
            assert "-m/--configmap-data (env DCGM_EXPORTER_CONFIGMAP_DATA) datadog:dcgm-metrics: no such" in line

        # At start, a ConfigMap that is not there is one line and exit 2.
        code, out = _run_to_exit([*argv[:-1], "datadog:dcgm-metrics"], env)
        assert code == 2
        assert (
            out.strip()
            .splitlines()[-1]
            .startswith(
                "gpuscope: error: -m/--configmap-data (env DCGM_EXPORTER_CONFIGMAP_DATA) datadog:dcgm-metrics: "
                "no such ConfigMap (HTTP 404)"
            )
        )


def _run_to_exit(argv: list[str], env: dict[str, str]) -> tuple[int, str]:
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60, check=False)
    return done.returncode, done.stderr


def test_a_file_watch_acts_once_per_settled_version(tmp_path: Path) -> None:
    from gpuscope.exporter.filewatch import FileWatch

    path = tmp_path / "fields.csv"
    path.write_text("a\n")
    watch = FileWatch(str(path))
    assert watch.poll() is False  # unchanged
    path.write_text("ab\n")
    assert [watch.poll(), watch.poll(), watch.poll()] == [False, True, False]  # settled for one poll, acted on once
    path.unlink()
    assert watch.poll() is False and watch.poll() is False  # gone: no change until a new version is there
    path.write_text("abc\n")
    watch.mark()  # a reload (SIGHUP) read this version: the watch does not act on it again
    assert [watch.poll(), watch.poll()] == [False, False]

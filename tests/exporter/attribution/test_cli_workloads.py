"""The real `gpuscope exporter` process with the fake kubelet, an HPC mapping directory and a web config."""

from __future__ import annotations

import os
import ssl
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from gpuscope.simulator.kubelet import kubelet_server, pod
from tests.support.certs import CertAuthority, bcrypt_hash
from tests.support.cli import assert_one_line_error, gpuscope
from tests.support.kubeapi import fake_kube_api
from tests.support.net import free_port, wait_for


def test_exporter_process_with_kubelet_jobs_tls_and_auth(tmp_path: Path) -> None:
    ca = CertAuthority(tmp_path, "ca")
    ca.issue("server", server=True, ips=("127.0.0.1",))
    web = tmp_path / "web.yml"
    web.write_text(
        "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n"
        f"basic_auth_users:\n  prom: {bcrypt_hash('pw')}\n"
    )
    jobs = tmp_path / "jobs"
    jobs.mkdir()
    (jobs / "3").write_text("slurm-77\n")
    port = free_port()
    with kubelet_server() as kubelet:
        kubelet.set_pods([pod("ml", "trainer", ("main", "nvidia.com/gpu", ["nvidia1"]))])
        env = {
            **os.environ,
            "DCGM_EXPORTER_LISTEN": f"127.0.0.1:{port}",
            "DCGM_EXPORTER_KUBERNETES": "true",
            "DCGM_POD_RESOURCES_KUBELET_SOCKET": kubelet.socket_path,
            "DCGM_HPC_JOB_MAPPING_DIR": str(jobs),
            "DCGM_EXPORTER_WEB_CONFIG_FILE": str(web),
            "GPUSCOPE_WORKLOAD_LABELS": "info",  # -k alone would be dcgm-exporter's labels mode
        }
        proc = subprocess.Popen(
            [sys.executable, "-m", "gpuscope", "exporter", "--backend", "sim", "-c", "500"],
            env=env,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            trust = ssl.create_default_context(cafile=str(ca.path))
            with httpx.Client(verify=trust, auth=("prom", "pw"), timeout=10) as client:
                url = f"https://127.0.0.1:{port}/metrics"
                text = wait_for(
                    lambda: (
                        (r := client.get(url)).status_code == 200 and "gpuscope_gpu_workload_info{" in r.text and r.text
                    ),
                    what="attributed metrics over TLS",
                )
                assert 'pod="trainer"' in text and 'gpu="1"' in text.split("gpuscope_gpu_workload_info{")[1]
                assert 'gpuscope_gpu_job_info{gpu="3"' in text and 'hpc_job="slurm-77"' in text
                assert httpx.get(url, verify=trust, timeout=10).status_code == 401
                kubelet.set_pods([])  # the pod ends: its attribution is gone within a collection or two
                wait_for(lambda: "gpuscope_gpu_workload_info{" not in client.get(url).text, what="pod gone")
        finally:
            proc.terminate()
            _, stderr = proc.communicate(timeout=20)
    assert proc.returncode == 0, stderr
    assert "Traceback" not in stderr


@pytest.mark.e2e
def test_exporter_process_follows_pod_labels_through_dcgm_exporter_env_vars(tmp_path: Path) -> None:
    port = free_port()
    with fake_kube_api(tmp_path) as api, kubelet_server() as kubelet:
        uid = api.create_pod("ml", "trainer", "gpu-node-7", {"team": "vision", "secret": "no"})
        kubelet.set_pods([pod("ml", "trainer", ("main", "nvidia.com/gpu", ["nvidia1"]))])
        env = {
            **os.environ,
            **api.env(),
            "NODE_NAME": "gpu-node-7",
            "DCGM_EXPORTER_LISTEN": f"127.0.0.1:{port}",
            "DCGM_EXPORTER_KUBERNETES": "true",
            "DCGM_POD_RESOURCES_KUBELET_SOCKET": kubelet.socket_path,
            "DCGM_EXPORTER_KUBERNETES_ENABLE_POD_LABELS": "true",
            "DCGM_EXPORTER_KUBERNETES_ENABLE_POD_UID": "true",
            "DCGM_EXPORTER_KUBERNETES_POD_LABEL_ALLOWLIST_REGEX": "^team$",
        }
        proc = subprocess.Popen(
            [sys.executable, "-m", "gpuscope", "exporter", "--backend", "sim", "-c", "300"],
            env=env,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            url = f"http://127.0.0.1:{port}/metrics"

            def info() -> str:  # -k and no --workload-labels: dcgm-exporter's labels, on the DCGM series
                text = httpx.get(url, timeout=10).text
                return next((ln for ln in text.splitlines() if ln.startswith('DCGM_FI_DEV_GPU_TEMP{gpu="1"')), "")

            line = wait_for(lambda: 'team="vision"' in info() and info(), what="pod labels from the API server")
            assert f'pod_uid="{uid}"' in line and "secret" not in line and 'gpu="1"' in line
            api.relabel_pod("ml", "trainer", {"team": "robotics"})
            wait_for(lambda: 'team="robotics"' in info(), what="the relabel while the exporter runs")
            assert all("spec.nodeName%3Dgpu-node-7" in r for r in api.requests)
        finally:
            proc.terminate()
            _, stderr = proc.communicate(timeout=20)
    assert proc.returncode == 0, stderr
    assert "Traceback" not in stderr


def test_bad_attribution_flags_and_web_config(tmp_path: Path) -> None:
    assert_one_line_error(
        gpuscope("exporter", "--backend", "sim", "--workload-labels", "pods"),
        "invalid value 'pods' for --workload-labels: choose one of info, labels, off",
    )
    assert_one_line_error(
        gpuscope("exporter", "--backend", "sim", "--kubernetes-gpu-id-type", "uuid"),
        "invalid value 'uuid' for --kubernetes-gpu-id-type: choose one of uid, device-name",
    )
    web = tmp_path / "web.yml"
    web.write_text("tls_server_config:\n  cert_file: server.crt\n")
    assert_one_line_error(
        gpuscope("exporter", "--backend", "sim", "--web-config-file", str(web)),
        f"{web}:1:1: tls_server_config: missing key_file (or key, inline PEM)",
    )
    assert_one_line_error(
        gpuscope("sim", "--web-config-file", str(tmp_path / "none.yml")),
        "cannot read web config file",
        "(--web-config-file)",
    )


@pytest.mark.e2e
def test_go_style_single_dash_flags_and_a_repeated_allowlist_as_dcgm_exporter_reads_them(tmp_path: Path) -> None:
    """urfave/cli v2 (dcgm-exporter's parser) reads ``-name value`` and ``-name=value`` as ``--name``, and adds the
    values of a repeated ``StringSliceFlag`` (the allowlist): a command line that starts dcgm-exporter starts us."""
    csv = tmp_path / "fields.csv"
    csv.write_text("DCGM_FI_DEV_GPU_TEMP, gauge, Temperature.\n")
    port = free_port()
    with fake_kube_api(tmp_path) as api, kubelet_server() as kubelet:
        api.create_pod("ml", "trainer", "gpu-node-7", {"team": "vision", "app": "bert", "secret": "no"})
        kubelet.set_pods([pod("ml", "trainer", ("main", "nvidia.com/gpu", ["nvidia1"]))])
        env = {**os.environ, **api.env(), "NODE_NAME": "gpu-node-7"}
        argv = [sys.executable, "-m", "gpuscope", "exporter", "--backend", "sim", "--sim-gpus", "2"]
        argv += ["-address", f"127.0.0.1:{port}", "-collect-interval=300", "-collectors", str(csv), "-kubernetes"]
        argv += ["-pod-resources-kubelet-socket", kubelet.socket_path, "-kubernetes-enable-pod-labels"]
        argv += ["-kubernetes-pod-label-allowlist-regex", "^team$", "--kubernetes-pod-label-allowlist-regex=^app$"]
        argv += ["--workload-labels", "labels"]
        proc = subprocess.Popen(argv, env=env, stderr=subprocess.PIPE, text=True)
        try:
            url = f"http://127.0.0.1:{port}/metrics"

            def held() -> str:
                text = httpx.get(url, timeout=10).text
                return next((ln for ln in text.splitlines() if ln.startswith('DCGM_FI_DEV_GPU_TEMP{gpu="1"')), "")

            line = wait_for(lambda: 'team="vision"' in held() and held(), what="pod labels under Go-style flags")
            assert 'app="bert"' in line and "secret" not in line  # both patterns of the repeated flag hold
            metrics = httpx.get(url, timeout=10).text
            assert "DCGM_FI_DEV_POWER_USAGE" not in metrics  # -collectors was read: only the file's one field
        finally:
            proc.terminate()
            _, stderr = proc.communicate(timeout=20)
    assert proc.returncode == 0, stderr
    assert "Traceback" not in stderr
    assert "collect every 0.3s, 1 fields from" in stderr  # -collect-interval=300 and -collectors were read

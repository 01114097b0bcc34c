"""Pod label names, the allowlist, shared-GPU replicas, DRA slices and label sets (pure functions)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpuscope.exporter.attribution.dra import PodClaim, claim_devices, slice_decoder
from gpuscope.exporter.attribution.labels import attribute_variants
from gpuscope.exporter.attribution.podmeta import (
    MAX_LABELS,
    PodIndex,
    PodMeta,
    compile_allowlist,
    pod_decoder,
    pod_labels,
    sanitize_label_name,
)
from gpuscope.exporter.attribution.resolve import Assignment, DeviceRef, Workload, replica_of


@pytest.mark.parametrize(
    ("key", "name"),
    [
        ("team", "team"),
        ("app.kubernetes.io/name", "app_kubernetes_io_name"),  # dcgm-exporter's rule: anything else becomes _
        ("example.com/cost-center", "example_com_cost_center"),
        ("9lives", "_9lives"),  # a leading digit is no label name: prefixed (dcgm-exporter would break the scrape)
    ],
)
def test_label_names(key: str, name: str) -> None:
    assert sanitize_label_name(key) == name


def test_allowlist_is_unanchored_any_match_and_drops_clashes() -> None:
    raw = {
        "team": "vision", "teammate": "x", "app.kubernetes.io/name": "trainer", "pod": "clash", "gpu": "clash",
        "DCGM_FI_DEV_GPU_TEMP": "clash", "a.b": "first", "a/b": "second", "huge": "v" * 5000, "n": 3,
    }  # fmt: skip
    assert pod_labels(raw, compile_allowlist("^team$, app\\.kubernetes")) == (
        ("app_kubernetes_io_name", "trainer"),
        ("team", "vision"),
    )
    assert pod_labels(raw, compile_allowlist("team")) == (("team", "vision"), ("teammate", "x"))
    # Empty allowlist: every label, minus the exporter's own names; of a.b and a/b (both a_b) the first key wins.
    assert pod_labels(raw, ()) == (
        ("a_b", "first"),
        ("app_kubernetes_io_name", "trainer"),
        ("team", "vision"),
        ("teammate", "x"),
    )
    many = {f"k{i:03}": "v" for i in range(200)}
    assert len(pod_labels(many, ())) == MAX_LABELS


def test_invalid_allowlist_pattern_is_skipped_with_a_warning_naming_it(caplog: pytest.LogCaptureFixture) -> None:
    kept = compile_allowlist("^team$,[a-")  # as dcgm-exporter: the bad pattern is skipped, the good one kept
    assert pod_labels({"team": "a", "x": "b"}, kept) == (("team", "a"),)
    (warning,) = [r.getMessage() for r in caplog.records]
    assert "skipping '[a-'" in warning and "--kubernetes-pod-label-allowlist-regex" in warning
    caplog.clear()
    assert compile_allowlist("[a-") == ()  # none compiles: every label kept, and the warning says so
    assert "every pod label is kept" in caplog.records[-1].getMessage()
    assert compile_allowlist(" , ") == ()


def test_pod_decoder_keeps_identity_and_allowed_labels_only() -> None:
    obj = {"metadata": {"namespace": "ml", "name": "p", "uid": "u-1", "labels": {"team": "a", "x": "b"}}, "spec": {}}
    assert pod_decoder(labels=True, allowlist=compile_allowlist("^team$"))(obj) == (
        "u-1",
        PodMeta("ml", "p", "u-1", (("team", "a"),)),
    )
    assert pod_decoder(labels=False)(obj) == ("u-1", PodMeta("ml", "p", "u-1"))
    assert pod_decoder(labels=True)({"metadata": {"name": "no-namespace"}}) is None
    status = {
        "containerStatuses": [{"name": "main", "containerID": "containerd://abc123"}, {"name": "waiting"}],
        "initContainerStatuses": [{"name": "setup", "containerID": "cri-o://def456"}],
    }
    decoded = pod_decoder(labels=False)({**obj, "status": status})
    assert decoded is not None
    _, meta = decoded
    assert meta.containers == (("abc123", "main"), ("def456", "setup"))
    index = PodIndex({"u-1": meta})
    assert index.by_uid("u-1") == index.by_name("ml", "p") == meta
    assert index.container("u-1", "abc123") == "main" and index.container("u-1", "zzz") is None
    assert index.by_uid("u-2") is None and index.container("u-2", "abc123") is None


@pytest.mark.parametrize(
    ("raw", "replica"),
    [("GPU-1::3", "3"), ("MIG-7::0", "0"), ("nvidia0/vgpu5", "5"), ("nvidia0/vgpu", ""), ("nvidia1/gi2/vgpu1", "1"),
     ("GPU-1", ""), ("nvidia0", "")],
)  # fmt: skip
def test_replicas(raw: str, replica: str) -> None:
    assert replica_of(raw) == replica


def test_labels_mode_variants_with_shared_gpus_and_jobs() -> None:
    a = Workload("web", "a", "srv", uid="u-a", labels=(("team", "x"),), vgpu="0")
    b = Workload("web", "b", "srv", vgpu="1")
    variants = attribute_variants(Assignment(pods=(a, b), jobs=("j1",)), old_namespace=False)
    assert variants == (
        (("container", "srv"), ("hpc_job", "j1"), ("namespace", "web"), ("pod", "a"), ("pod_uid", "u-a"),
         ("team", "x"), ("vgpu", "0")),
        (("container", "srv"), ("hpc_job", "j1"), ("namespace", "web"), ("pod", "b"), ("vgpu", "1")),
    )  # fmt: skip
    # Without virtual GPUs (vgpu None), dcgm-exporter's rule: the last pod listed wins.
    plain = attribute_variants(Assignment(pods=(Workload("w", "a", "c"), Workload("w", "b", "c"))), False)
    assert plain == ((("container", "c"), ("namespace", "w"), ("pod", "b")),)


def test_resource_slices_of_each_api_version_and_claims() -> None:
    decode = slice_decoder()
    v1 = {
        "metadata": {"name": "s1"},
        "spec": {
            "driver": "gpu.nvidia.com",
            "pool": {"name": "node-a"},
            "devices": [
                {"name": "gpu-0", "attributes": {"type": {"string": "gpu"}, "uuid": {"string": "GPU-0"}}},
                {
                    "name": "gpu-1-mig-1g10gb-0",
                    "attributes": {
                        "type": {"string": "mig"},
                        "uuid": {"string": "MIG-9"},
                        "parentUUID": {"string": "GPU-1"},
                        "gpu.nvidia.com/profile": {"string": "1g.10gb"},  # qualified names are read too
                    },
                },
                {"name": "no-uuid", "attributes": {"type": {"string": "gpu"}}},
            ],
        },
    }
    decoded_slice = decode(v1)
    assert decoded_slice is not None
    key, devices = decoded_slice
    assert key == "s1" and set(devices) == {"node-a/gpu-0", "node-a/gpu-1-mig-1g10gb-0"}
    assert decode({"metadata": {"name": "x"}, "spec": {"driver": "fpga.example.com", "pool": {"name": "p"}}}) is None
    claims = [
        PodClaim("ml", "a", "main", "c1", "ml", "gpu.nvidia.com", "node-a", "gpu-1-mig-1g10gb-0"),
        PodClaim("ml", "b", "main", "c2", "ml", "gpu.nvidia.com", "node-a", "unknown-device"),
        PodClaim("ml", "c", "main", "c3", "ml", "other.example.com", "node-a", "gpu-0"),
    ]
    mig, unknown = claim_devices(claims, {"s1": devices})
    assert mig.refs == (DeviceRef(uuid="MIG-9"), DeviceRef(uuid="GPU-1"))  # the instance, else its parent GPU
    assert dict(mig.workload.dra) == {
        "dra_claim_name": "c1", "dra_claim_namespace": "ml", "dra_device_name": "gpu-1-mig-1g10gb-0",
        "dra_driver_name": "gpu.nvidia.com", "dra_pool_name": "node-a", "dra_mig_device_uuid": "MIG-9",
        "dra_mig_profile": "1g.10gb",
    }  # fmt: skip
    assert unknown.refs == () and unknown.name == "gpu.nvidia.com/node-a/unknown-device"


FUZZ = settings(max_examples=200, deadline=None, derandomize=True, database=None)
KEY_CHARS = st.sampled_from([*"abZ09._-/", "é", "\n", '"', "\\", "__", "DCGM_", "gpu"])


@FUZZ
@given(st.text(max_size=120))
def test_the_allowlist_parser_never_raises(text: str) -> None:
    patterns = compile_allowlist(text)  # a bad pattern is a warning, never an exception
    assert len(patterns) <= text.count(",") + 1
    assert pod_labels({"team": "a"}, patterns) in ((), (("team", "a"),))


@FUZZ
@given(st.dictionaries(st.lists(KEY_CHARS, min_size=1, max_size=12).map("".join), st.text(max_size=20), max_size=30))
def test_any_pod_labels_become_valid_unique_label_names(raw: dict[str, str]) -> None:
    pairs = pod_labels(raw, ())
    names = [n for n, _ in pairs]
    assert len(set(names)) == len(names) and names == sorted(names)
    assert all(re.fullmatch(r"[a-zA-Z_][a-zA-Z0-9_]*", n) and not n.startswith("__") for n in names)
    assert not {"gpu", "pod", "namespace", "pod_uid"} & set(names)

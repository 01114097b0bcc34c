"""Budget figures against hand-computed cases (MIG, churn, 1,000 nodes x 8 GPUs x 60 metrics = 480k series)."""

from __future__ import annotations

import math
from pathlib import Path

from gpuscope.fields.catalog import BY_ID, Entity, MigScope
from gpuscope.fields.ids import FieldId
from gpuscope.generate.budget import HEAD_WINDOW_HOURS, compute_budget
from gpuscope.generate.budget_report import BudgetReport
from gpuscope.spec.load import load_fleet, parse_fleet
from tests.support.specs import fleet

SELF_PER_NODE = 8 + 1 + 1 + 6  # exporter-wide self-metrics, dcgm_info, snapshot age, process metrics
SELF_PER_GPU = 3  # gpu_lost, profiling_supported, profiling_available


def budget_of(clusters: str, tmp_path: Path, extra: str = "") -> BudgetReport:
    loaded = parse_fleet(fleet(clusters, extra), "fleet.yaml", tmp_path)
    return compute_budget(loaded.spec, loaded.collectors)


def test_plain_h100_node(tmp_path: Path) -> None:
    report = budget_of("  - name: a\n    node_groups: [{name: g, gpu_model: h100, nodes: 10}]\n", tmp_path)
    (group,) = report.node_groups
    # 25 default families, the vGPU license unsupported on bare metal: 24 series per GPU, and one
    # "unsupported" marker per GPU for it.
    per_node = 24 * 8 + 1 * 8 + SELF_PER_GPU * 8 + SELF_PER_NODE
    assert group.exporter_series_per_node == per_node == 240
    assert group.exporter_series == 10 * per_node


def test_mig_node(tmp_path: Path) -> None:
    report = budget_of(
        "  - name: a\n    node_groups: [{name: g, gpu_model: h100, nodes: 2, mig: {layout: '1g.10gb:7', nodes: 1}}]\n",
        tmp_path,
    )
    # Default list on a MIG GPU: 12 parent-scope fields repeated on each of 7 instances, 8 instance-scope fields
    # (framebuffer, profiling) per instance, 4 utilization fields gone (NVML cannot read them with MIG on) and
    # marked unsupported along with the vGPU license.
    mig_node = (12 + 8) * 7 * 8 + 5 * 8 + SELF_PER_GPU * 8 + SELF_PER_NODE
    assert mig_node == 1200
    (group,) = report.node_groups
    assert group.exporter_series == 240 + mig_node


def test_info_and_labels_modes_under_churn(tmp_path: Path) -> None:
    clusters = "  - name: a\n    pod_restarts_per_hour: 30\n    node_groups: [{name: g, gpu_model: h100, nodes: 4}]\n"
    info = budget_of(clusters, tmp_path, "exporter: {workload_labels: info}")
    labels = budget_of(clusters, tmp_path, "exporter: {workload_labels: labels}")
    churned = 30 * HEAD_WINDOW_HOURS
    assert info.clusters[0].workload_series == 32 + churned  # one info series per GPU, plus one per restart
    assert labels.clusters[0].workload_series == math.ceil(churned * 240 / 8)  # every series of the GPU, per restart


def test_1000_nodes_x_8_gpus_x_60_metrics_is_480k_not_1_4m(tmp_path: Path) -> None:
    # 1,000 nodes x 8 GPUs x 60 metrics: pick 60 GPU-level fields an H100 supports without MIG.
    fields = [
        f
        for fid, f in sorted(BY_ID.items())
        if fid > 2
        and f.entity is Entity.GPU
        and not f.exporter
        and not f.is_label
        and fid
        not in (
            191,
            390,
            391,
            392,
            526,
            FieldId.DCGM_FI_DEV_SM_CLOCK_HERTZ,
            FieldId.DCGM_FI_DEV_MEMORY_CLOCK_HERTZ,
            FieldId.DCGM_FI_DEV_GPU_ENERGY_JOULES_TOTAL,
            FieldId.DCGM_FI_DEV_GPU_UTIL_RATIO,
            FieldId.DCGM_FI_DEV_MEMORY_UTIL_RATIO,
            FieldId.DCGM_FI_DEV_ENC_UTIL_RATIO,
            FieldId.DCGM_FI_DEV_DEC_UTIL_RATIO,
        )
        and f.mig is not MigScope.UNAVAILABLE
        and fid < 1017
    ][:60]
    csv = tmp_path / "sixty.csv"
    csv.write_text("".join(f"{f.name}, {f.type.value}, x\n" for f in fields))
    report = budget_of(
        "  - name: a\n    node_groups: [{name: g, gpu_model: h100, nodes: 1000}]\n",
        tmp_path,
        f"exporter: {{collectors: {csv.name}, workload_labels: 'off'}}",
    )
    (group,) = report.node_groups
    assert len(fields) == 60
    # No profiling field in this list, so only gpu_lost remains of the per-GPU self-metrics.
    dcgm = group.exporter_series - 1000 * (1 * 8 + SELF_PER_NODE)
    assert dcgm == 1000 * 8 * 60 == 480_000


def test_verdicts_head_memory_and_remote_write(tmp_path: Path) -> None:
    clusters = "  - name: a\n    node_groups: [{name: g, gpu_model: h100, nodes: 100}]\n"
    report = budget_of(clusters, tmp_path, "budget: {head_series: 100000}\nlong_term_store: mimir")
    (cluster,) = report.clusters
    assert cluster.head_series > 100_000 and cluster.verdict == "over budget"
    assert cluster.head_memory_bytes == cluster.head_series * 6144
    assert cluster.samples_per_second == cluster.head_series / 15
    # Rollups only: a few series every 5 minutes, far below the scraped rate.
    assert cluster.remote_write_samples_per_second * 20 < cluster.samples_per_second
    full = budget_of(clusters, tmp_path, "retention: {cold_tier: full}")
    assert full.clusters[0].remote_write_samples_per_second == full.clusters[0].samples_per_second
    assert budget_of(clusters, tmp_path).clusters[0].verdict == "ok"


REPO = Path(__file__).resolve().parents[2]
FABRIC_CSV = REPO / "docs" / "examples" / "nvl72-counters.csv"


def test_switch_and_link_series_are_counted(tmp_path: Path) -> None:
    """An HGX H100 node with the fabric fields listed: every GPU link, every NVSwitch and every switch port is a
    series of its own, counted from the model's figures (18 links per GPU, 4 switches, a port per GPU link)."""
    (tmp_path / "fabric.csv").write_text(FABRIC_CSV.read_text())
    group = "  - name: a\n    node_groups: [{name: g, gpu_model: h100, nodes: 3}]\n"
    fabric = budget_of(group, tmp_path, "exporter: {collectors: fabric.csv}")
    default = budget_of(group, tmp_path)
    gpus, links, switches = 8, 18, 4
    link_fields = 6  # state, four error totals, throughput
    gpu_fabric_fields = 3  # clique, health summary, health mask (the cluster UUID is a label)
    switch_fields, port_fields = 3, 1  # fatal and non-fatal SXid, temperature; port status
    unsupported = 1  # per GPU: the switch-port status, which a GPU link does not have (field_unsupported)
    added = (
        gpus * (gpu_fabric_fields + links * link_fields + unsupported)
        + switches * switch_fields
        + gpus * links * port_fields
    )
    (f,), (d,) = fabric.node_groups, default.node_groups
    assert f.exporter_series_per_node - d.exporter_series_per_node == added
    assert fabric.clusters[0].exporter_series - default.clusters[0].exporter_series == 3 * added


def test_an_nvl72_rack_spec_counts_72_gpus_of_18_links(tmp_path: Path) -> None:
    loaded = load_fleet(str(REPO / "docs" / "examples" / "nvl72-rack.yaml"))
    report = compute_budget(loaded.spec, loaded.collectors)
    (group,) = report.node_groups
    assert (group.nodes, group.gpus) == (18, 72)
    tray = budget_of(
        "  - name: a\n    node_groups: [{name: g, gpu_model: gb200, gpus_per_node: 4, nodes: 1}]\n", tmp_path
    )
    # A tray has no NVSwitch of its own: what the example list adds is its 4 GPUs' fabric fields and 18 links each.
    # (and one unsupported marker per GPU for the switch-port status, which a GPU link does not have)
    assert group.exporter_series_per_node - tray.node_groups[0].exporter_series_per_node == 4 * (3 + 18 * 6 + 1)

"""Rule evaluation cost at fleet scale: the generated rules against the rules as they were (``bench/baseline/``).

For each fleet size, ``gpuscope sim`` serves N nodes x 8 simulated H100s exporting about 100 metrics per GPU
(``bench/fields-100.csv``), and one real Prometheus runs the config ``gpuscope generate`` writes for that fleet
with the frozen baseline rule files loaded beside the generated ones (renamed, ``bench/rule_sets.py``): both
sets are evaluated on the same samples, by the same process, at the same time. After a warm-up that fills the
5 m windows, a measurement window:

- per group, every evaluation's ``prometheus_rule_group_last_duration_seconds`` (``/api/v1/rules``
  ``evaluationTime``, polled), and per rule the query log's timings and samples of each evaluation;
- after the run, on a Prometheus started bare on the run's data (no rule group, no scrape competing), every
  rule's expression through the query API at the window's end (``stats=all``, median of 5, the two sets
  interleaved): the per-expression ranking, and the cost of the 5 m / 1 h groups, which a short window may not
  see evaluated;
- at the largest size, ``gpuscope doctor`` against this Prometheus: wall time, queries (from the query log), the
  heaviest query.

Fixed and per-GPU parts are fitted over the sizes (least squares). Besides, ``gpuscope budget`` and
``gpuscope generate`` for a 10,000-node fleet spec, timed as a user runs them.

Usage: ``python bench/rules_cost.py [--quick] [--nodes 125,500,1000] [--warmup S] [--window S] [--keep]``.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import datetime as dt
import itertools
import json
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import httpx
import yaml

import rules_cost_report
from common import (
    GPUSCOPE,
    BenchError,
    ProcWatch,
    Prom,
    Section,
    child,
    ensure_running,
    free_port,
    gpuscope,
    in_workdir,
    print_sections,
    prometheus_cmd,
    wait_for,
    wait_ready,
    wait_sim_healthy,
)
from fleet_ingest import FIELDS_CSV, spec_yaml
from rule_sets import (
    BASELINE_DIR,
    BASELINE_FILES,
    Rule,
    baseline_files,
    query_log_queries,
    query_log_rules,
    rules_of,
    seconds,
)

BASE_ADDRESS = (127, 212)  # 127.212.0.1 ...: clear of the ingest benchmark's block and of `gpuscope up`
GPUS_PER_NODE = 8
POLL_S = 5.0
ROUNDS = 5  # each rule alone: the median of five, the two sets interleaved
BIG_FLEET_NODES = 10_000


@dataclass(frozen=True)
class CostConfig:
    nodes: tuple[int, ...]
    warmup_s: int
    window_s: int
    quick: bool
    baseline: Path = BASELINE_DIR  # the frozen rule files run beside the generated ones


QUICK = CostConfig(nodes=(25, 75), warmup_s=45, window_s=30, quick=True)
# 300 s of warm-up: every [5m] window is full when the window opens; 90 s: six evaluations of each 15 s group,
# one or two of each 1 m group.
FULL = CostConfig(nodes=(125, 500, 1000), warmup_s=300, window_s=90, quick=False)


def _rfc3339(t: dt.datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _targets(nodes: int, port: int) -> list[str]:
    a, b = BASE_ADDRESS
    first = (a << 24) + (b << 16) + 1
    return [f"{n >> 24 & 255}.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}:{port}" for n in range(first, first + nodes)]


def prepare(
    workdir: Path, nodes: int, port: int, prom_port: int, baseline: Path = BASELINE_DIR
) -> tuple[Path, Path, list[Rule]]:
    """The fleet spec, its generated bundle, and the Prometheus config: the generated one with the renamed
    baseline rule files added, a query log, and no remote_write (its queue is not rule cost)."""
    hosts = _targets(nodes, port)
    spec = workdir / "fleet.yaml"
    spec.write_text(spec_yaml(hosts, prom_port, "http://127.0.0.1:1"))
    gpuscope("generate", str(spec), "-o", str(workdir / "bundle"))
    cluster = workdir / "bundle" / "clusters" / "bench"
    config = cluster / "prometheus-a.yml"
    data = yaml.safe_load(config.read_text())
    (cluster / "baseline").mkdir()
    for name, text in baseline_files(baseline).items():
        (cluster / "baseline" / name).write_text(text)
        data["rule_files"].append(f"baseline/{name}")
    data.pop("remote_write", None)
    data["global"]["query_log_file"] = str(workdir / "query.log")
    config.write_text(yaml.safe_dump(data, sort_keys=False))
    interval = seconds(data["global"]["evaluation_interval"])
    texts = [(cluster / f).read_text() for f in data["rule_files"]]
    return config, spec, rules_of(texts, interval)


def _poll_groups(
    prom: Prom, seen: dict[tuple[str, str], tuple[float, float]], names: dict[tuple[str, str], str]
) -> None:
    """Record each group evaluation once: (group, its lastEvaluation) -> (duration, interval); and each rule's
    expression as Prometheus prints it (the query log's form) -> the rule's name."""
    for group in prom.api("/api/v1/rules")["groups"]:
        if not group["lastEvaluation"].startswith("0001"):
            seen[(group["name"], group["lastEvaluation"])] = (float(group["evaluationTime"]), float(group["interval"]))
        for rule in group["rules"]:
            names[(group["name"], rule["query"])] = rule["name"]


def _window(prom: Prom, since: str, until_mono: float, names: dict[tuple[str, str], str]) -> dict[str, dict[str, Any]]:
    seen: dict[tuple[str, str], tuple[float, float]] = {}
    while time.monotonic() < until_mono:
        _poll_groups(prom, seen, names)
        time.sleep(POLL_S)
    _poll_groups(prom, seen, names)
    groups: dict[str, dict[str, Any]] = {}
    for (name, last), (duration, interval) in seen.items():
        if last >= since:
            g = groups.setdefault(name, {"interval_s": interval, "durations": []})
            g["durations"].append(duration)
    return groups


def _doctor(prom: Prom, spec: Path, log: Path) -> dict[str, Any]:
    since = _rfc3339(_now())
    requests_before = prom.own_metric("prometheus_http_requests_total")
    t0 = time.monotonic()
    try:
        done = subprocess.run(
            [*GPUSCOPE, "doctor", "--prometheus", prom.url, "--fleet", str(spec), "--timeout", "600", "--json"],
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise BenchError("gpuscope doctor did not finish in 900 s") from None
    wall = time.monotonic() - t0
    requests = prom.own_metric("prometheus_http_requests_total") - requests_before - 1  # less our own read
    time.sleep(1)  # the query log is written as each query ends
    queries = query_log_queries(log.read_text().splitlines(), since, _rfc3339(_now()))
    heaviest = max(queries, key=lambda q: q["stats"]["timings"]["evalTotalTime"], default=None)
    return {
        "wall_s": wall,
        "exit": done.returncode,
        "requests": requests,
        "queries": len(queries),
        "query_s": sum(q["stats"]["timings"]["evalTotalTime"] for q in queries),
        "heaviest": heaviest,
        "error": done.stderr.strip().splitlines()[-1] if done.returncode == 3 and done.stderr.strip() else "",
    }


def _isolated(prom: Prom, rules: list[Rule], at: float) -> dict[tuple[str, str], dict[str, float]]:
    """Each rule's expression evaluated alone at ``at`` through the query API: median time of ``ROUNDS``, samples.

    Rounds over every rule, the two sets' rules taken in turn, so that a slower or busier moment of the machine
    (Prometheus's heap grows and is collected as the queries allocate) falls on both alike; which set goes first
    alternates from round to round: with the baseline always first, identical expressions measured 15-20 % slower
    on the second side (the first query's garbage is collected during the second)."""
    before = [r for r in rules if r.baseline]
    after = [r for r in rules if not r.baseline]
    pairs = list(itertools.zip_longest(before, after))
    times: dict[tuple[str, str], list[float]] = {}
    samples: dict[tuple[str, str], float] = {}
    with httpx.Client(timeout=300) as client:
        for round_ in range(ROUNDS):
            order = [r for pair in pairs for r in (pair if round_ % 2 == 0 else pair[::-1]) if r is not None]
            for rule in order:
                params = {"query": rule.expr, "time": f"{at:.3f}", "stats": "all"}
                try:
                    body = client.get(f"{prom.url}/api/v1/query", params=params).raise_for_status().json()
                except httpx.HTTPError as exc:
                    raise BenchError(f"{rule.group}/{rule.name} through the query API: {exc}") from None
                key = (rule.group, rule.name)
                times.setdefault(key, []).append(float(body["data"]["stats"]["timings"]["evalTotalTime"]))
                samples[key] = float(body["data"]["stats"]["samples"]["totalQueryableSamples"])
    return {k: {"eval_s": statistics.median(v), "samples": samples[k]} for k, v in times.items()}


def _bare_config(size_dir: Path) -> Path:
    """The size's Prometheus config without rule files, scrapes or alerting: the each-rule-alone phase queries
    the run's data on a Prometheus doing nothing else (no rule group, no scrape, no staleness markers to write)."""
    config = size_dir / "bundle" / "clusters" / "bench" / "prometheus-a.yml"
    kept = yaml.safe_load(config.read_text())["global"]
    bare = size_dir / "prometheus-alone.yml"
    bare.write_text(yaml.safe_dump({"global": {k: kept[k] for k in ("scrape_interval", "evaluation_interval")}}))
    return bare


def _alone(size_dir: Path, rules: list[Rule], at: float, log: Path) -> dict[tuple[str, str], dict[str, float]]:
    """Every rule alone at ``at``, on a Prometheus started bare on the size's data (its WAL replayed first)."""
    port = free_port()
    with child(prometheus_cmd(_bare_config(size_dir), size_dir / "data", port), log, "prometheus") as proc:
        prom = Prom(f"http://127.0.0.1:{port}")
        wait_ready(prom, proc, log, timeout=900)
        return _isolated(prom, rules, at)


def _in_run_rules(
    log: Path, since: str, until: str, names: dict[tuple[str, str], str]
) -> dict[tuple[str, str], dict[str, float]]:
    """Per rule, the mean time and samples of its evaluations in the window, from the query log."""
    out = {}
    for (group, query), stats in query_log_rules(log.read_text().splitlines(), since, until).items():
        name = names.get((group, query))
        if name:
            out[(group, name)] = {
                "eval_s": statistics.mean(s["timings"]["evalTotalTime"] for s in stats),
                "samples": statistics.mean(s["samples"]["totalQueryableSamples"] for s in stats),
            }
    return out


def measure_size(cfg: CostConfig, nodes: int, workdir: Path, doctor: bool, progress: Any) -> dict[str, Any]:
    port, prom_port = free_port(), free_port()
    config, spec, rules = prepare(workdir, nodes, port, prom_port, cfg.baseline)
    hosts = _targets(nodes, port)
    a, b = BASE_ADDRESS
    sim_cmd = [
        *GPUSCOPE, "sim", "--nodes", str(nodes), "--collectors", str(FIELDS_CSV), "--base-address", f"{a}.{b}.0.1",
        "--port", str(port), "--hostname-prefix", "bench-node", "--workload-labels", "off",
    ]  # fmt: skip
    out: dict[str, Any] = {"nodes": nodes, "gpus": nodes * GPUS_PER_NODE}
    plog, qlog = workdir / "prometheus.log", workdir / "query.log"
    with child(prometheus_cmd(config, workdir / "data", prom_port), plog, "prometheus") as prom_proc:
        prom = Prom(f"http://127.0.0.1:{prom_port}")
        wait_ready(prom, prom_proc, plog)
        with child(sim_cmd, workdir / "sim.log", "gpuscope sim") as sim_proc:
            wait_sim_healthy(sim_proc, workdir / "sim.log", hosts, 300, f"{nodes} simulated nodes healthy")
            wait_for(
                lambda: prom.scalar('count(up{job="dcgm-exporter"} == 1)') == nodes,
                timeout=600,  # a loaded machine takes minutes to bring 1,000 simulated nodes up
                what=f"all {nodes} exporter targets up",
            )
            progress(f"rules_cost: {nodes} nodes up, warming up {cfg.warmup_s} s")
            deadline = time.monotonic() + cfg.warmup_s
            while time.monotonic() < deadline:
                ensure_running(sim_proc, "gpuscope sim", workdir / "sim.log")
                time.sleep(min(10.0, max(0.0, deadline - time.monotonic())))
            watch = ProcWatch(prom_proc.pid)
            watch.start_window()
            start = _now()
            names: dict[tuple[str, str], str] = {}
            out["groups"] = _window(prom, _rfc3339(start), time.monotonic() + cfg.window_s, names)
            end = _now()
            out["prom_cpu_pct"], out["prom_rss_mib"] = watch.cpu_percent(), watch.rss_mib()
            out["head_series"] = prom.own_metric("prometheus_tsdb_head_series")
            out["failures"] = prom.own_metric("prometheus_rule_evaluation_failures_total")
            out["missed"] = prom.own_metric("prometheus_rule_group_iterations_missed_total")
            if doctor:
                progress(f"rules_cost: gpuscope doctor against the {nodes}-node Prometheus")
                out["doctor"] = _doctor(prom, spec, qlog)
        out["in_run"] = _in_run_rules(qlog, _rfc3339(start), _rfc3339(end), names)
    out["end"] = end.timestamp()
    progress(f"rules_cost: {len(rules)} expressions one by one, on a bare Prometheus over the run's data")
    out["isolated"] = _alone(workdir, rules, out["end"], workdir / "prometheus-alone.log")
    out["rules"] = rules
    return out


def big_fleet(workdir: Path) -> dict[str, float]:
    """``gpuscope budget`` and ``gpuscope generate`` for the example spec grown to 10,000 nodes, timed."""
    spec = workdir / "fleet-10k.yaml"
    subprocess.run([*GPUSCOPE, "init", str(spec)], check=True, capture_output=True)
    data = yaml.safe_load(spec.read_text())
    template = next(c for c in data["clusters"] if c["kind"] == "kubernetes")
    clusters = []
    for i in range(4):  # four Kubernetes clusters of 2,500 H100 nodes (100 of them MIG)
        groups = [
            {**template["node_groups"][0], "nodes": BIG_FLEET_NODES // 4, "mig": {"layout": "1g.10gb:7", "nodes": 100}}
        ]
        endpoints = {k: (v.replace("gpu-monitoring", f"c{i}") if isinstance(v, str) else v)
                     for k, v in template["endpoints"].items()}  # fmt: skip
        clusters.append({**template, "name": f"gpu-{i}", "node_groups": groups, "endpoints": endpoints})
    data["clusters"] = clusters
    data["budget"]["head_series"] = 10_000_000
    spec.write_text(yaml.safe_dump(data, sort_keys=False))
    out = {}
    for what, args in (
        ("budget", ["budget", str(spec)]),
        ("generate", ["generate", str(spec), "-o", str(workdir / "b")]),
    ):
        t0 = time.monotonic()
        gpuscope(*args)
        out[what] = time.monotonic() - t0
    return out


def _jsonable(value: Any) -> Any:
    """The raw figures as JSON (kept with ``--keep``): (group, rule) keys joined by a slash, rules as dicts."""
    if isinstance(value, dict):
        return {"/".join(k) if isinstance(k, tuple) else k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    return value


def remeasure(workdir: Path, progress: Any) -> dict[str, Any]:
    """The each-rule-alone phase again on a kept run (``--keep``): a bare Prometheus on each size's own data,
    every rule evaluated at that size's window end. The in-run figures stay the run's."""
    result = from_json((workdir / "rules-cost.json").read_text())
    for size in result["sizes"]:
        size_dir = workdir / f"n{size['nodes']}"
        at = size.get("end") or _window_end(size_dir / "query.log")
        progress(f"rules_cost: {size['nodes']} nodes, {len(size['rules'])} expressions again")
        size["isolated"] = _alone(size_dir, size["rules"], at, size_dir / "prometheus-remeasure.log")
    (workdir / "rules-cost.json").write_text(json.dumps(_jsonable(result), indent=1))
    return result


def _window_end(query_log: Path) -> float:
    """The time the each-rule-alone queries were evaluated at, from the query log (runs before ``end`` was kept)."""
    ends = collections.Counter(
        q["params"]["end"] for q in query_log_queries(query_log.read_text().splitlines(), "", "9")
    )
    end = ends.most_common(1)[0][0]  # three queries per rule at that one time; the doctor's are few and later
    return dt.datetime.fromisoformat(end.replace("Z", "+00:00")).timestamp()


def from_json(text: str) -> dict[str, Any]:
    """The raw figures of a kept run (``rules-cost.json``) as ``run`` measured them, to render the tables again."""
    result: dict[str, Any] = json.loads(text)
    for size in result["sizes"]:
        for key in ("in_run", "isolated"):
            size[key] = {tuple(k.rsplit("/", 1)): v for k, v in size[key].items()}
        size["rules"] = [Rule(**r) for r in size["rules"]]
    return result


def run(cfg: CostConfig, command: str, keep: bool = False, progress: Any = print) -> list[Section]:
    def measure(workdir: Path) -> dict[str, Any]:
        sizes = []
        for nodes in sorted(cfg.nodes, reverse=True):  # the largest first: the one most likely to fail
            size_dir = workdir / f"n{nodes}"
            size_dir.mkdir()
            sizes.append(measure_size(cfg, nodes, size_dir, nodes == max(cfg.nodes), progress))
        sizes.sort(key=lambda size: size["gpus"])
        result = {"sizes": sizes, "big": big_fleet(workdir), "command": command}
        (workdir / "rules-cost.json").write_text(json.dumps(_jsonable(result), indent=1))
        return result

    return rules_cost_report.sections(cfg, in_workdir("rules", keep, measure), command)


def _baseline_dir(parser: argparse.ArgumentParser, base: Path) -> Path:
    missing = [name for name in BASELINE_FILES if not (base / name).is_file()]
    if missing:
        parser.error(f"--baseline {str(base)!r}: no {', '.join(missing)} there (a directory of frozen rule files)")
    try:
        baseline_files(base)  # read and renamed now: a bad file is one line here, not a traceback after warm-up
    except (OSError, UnicodeDecodeError, yaml.YAMLError, KeyError, TypeError, AttributeError) as exc:
        parser.error(f"--baseline {str(base)!r}: not rule files gpuscope generate writes ({type(exc).__name__}: {exc})")
    return base


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"{QUICK.nodes} nodes, short warm-up (make bench)")
    parser.add_argument("--nodes", help="comma-separated node counts (8 GPUs each), e.g. 125,500,1000")
    parser.add_argument("--warmup", type=int, help="seconds between all targets up and the window")
    parser.add_argument("--window", type=int, help="measurement window, seconds")
    parser.add_argument(
        "--baseline",
        metavar="DIR",
        help="frozen rule files to run beside the generated ones (default bench/baseline; "
        "bench/baseline-counting holds the rules before the counting changes)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the work directory (bundle, data, query log)")
    parser.add_argument("--report", metavar="JSON", help="only render the tables of a kept run's rules-cost.json")
    parser.add_argument("--remeasure", metavar="DIR", help="a kept run's directory: time each rule alone again")
    args = parser.parse_args()
    cfg = QUICK if args.quick else FULL
    if args.nodes:
        try:
            nodes = tuple(sorted({int(n) for n in args.nodes.split(",") if n.strip()}))
        except ValueError:
            parser.error(f"--nodes: {args.nodes!r} is not a comma-separated list of node counts")
        if not nodes or not all(1 <= n <= 5000 for n in nodes):
            parser.error("--nodes: each count between 1 and 5000")
        cfg = replace(cfg, nodes=nodes)
    if args.warmup is not None:
        if args.warmup < 0:
            parser.error("--warmup must be at least 0 seconds")
        cfg = replace(cfg, warmup_s=args.warmup)
    if args.window is not None:
        if args.window < 15:
            parser.error("--window must be at least 15 seconds (one evaluation)")
        cfg = replace(cfg, window_s=args.window)
    if args.baseline:
        cfg = replace(cfg, baseline=_baseline_dir(parser, Path(args.baseline)))
    if args.remeasure:
        done = remeasure(Path(args.remeasure), lambda m: print(m, file=sys.stderr, flush=True))
        print_sections("rules_cost", lambda: rules_cost_report.sections(cfg, done, done.get("command", "")))
        return
    if args.report:
        try:
            kept = from_json(Path(args.report).read_text())
        except (OSError, ValueError, KeyError, TypeError) as exc:
            parser.error(f"--report {args.report}: not a kept rules-cost.json ({exc})")
        print_sections("rules_cost", lambda: rules_cost_report.sections(cfg, kept, kept.get("command", "")))
        return
    command = " ".join(["python bench/rules_cost.py", *sys.argv[1:]])
    print_sections("rules_cost", lambda: run(cfg, command, args.keep, lambda m: print(m, file=sys.stderr, flush=True)))


if __name__ == "__main__":
    main()

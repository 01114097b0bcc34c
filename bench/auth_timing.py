"""Basic-auth timing: is a wrong password for an unknown user answered as slowly as one for a known user?

A real ``gpuscope exporter --backend sim`` with a web config of basic-auth users (bcrypt costs ``--costs``, one user
per cost), plain HTTP on loopback. One client sends, each round one of each kind:

- a fresh wrong password for each known user (one bcrypt run at that user's cost),
- a fresh wrong password for an unknown user (what an attacker probing for user names sends),
- a fresh wrong password of 110 bytes for the highest-cost known user and for an unknown user,
- a repeated wrong password for the highest-cost known user and for an unknown user (answered from the cache),

in a new random order each round (an answer right after a bcrypt run is ~0.2 ms slower, so a fixed order favours
whichever kind follows a cache hit), and times each answer (send to last byte, keep-alive). Twice: on the machine
as it is ("quiet"), and with one CPU-spinning process per core beside the exporter ("busy"), the condition the
unknown-user path was reported faster in. With ``--before TREE``, the same against the exporter of another
checkout (e.g. the tree before this change). The exporter's own counters
(``gpuscope_exporter_auth_bcrypt_verifications_total{cost}``) say how many bcrypt runs each condition cost, where
the tree exports them.

Usage: ``python bench/auth_timing.py [--costs 10,12] [--samples 15] [--before /path/to/other/checkout]``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import random
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing.synchronize import Event
from pathlib import Path

import httpx
from prometheus_client.parser import text_string_to_metric_families

REPO = Path(__file__).resolve().parents[1]
for _path in (str(REPO / "src"), str(REPO)):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from bench.common import load_average, percentile  # noqa: E402
from tests.support.certs import bcrypt_hash  # noqa: E402
from tests.support.net import free_port  # noqa: E402

_LONG = "\0long"  # a kind's marker: a fresh guess of 110 bytes (bcrypt takes 72; python-bcrypt 5 refuses more)


def _spin(stop: Event) -> None:
    while not stop.is_set():
        sum(range(10_000))


@contextmanager
def _busy(enabled: bool) -> Iterator[None]:
    """One CPU-spinning process per core while the block runs (nothing when not ``enabled``)."""
    if not enabled:
        yield
        return
    stop = multiprocessing.Event()
    spinners = [multiprocessing.Process(target=_spin, args=(stop,), daemon=True) for _ in range(os.cpu_count() or 2)]
    for proc in spinners:
        proc.start()
    try:
        yield
    finally:
        stop.set()
        for proc in spinners:
            proc.join(10)


@contextmanager
def _exporter(tree: Path, web: Path, workdir: Path) -> Iterator[str]:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    argv = [sys.executable, "-m", "gpuscope", "exporter", "--backend", "sim", "--sim-gpus", "1",
            "-a", f"127.0.0.1:{port}", "--web-config-file", str(web)]  # fmt: skip
    log_path = workdir / f"exporter-{port}.log"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=log)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                httpx.get(f"{url}/health", timeout=5)  # 401 without credentials: it answers, that is enough
                break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                tail = log_path.read_text(errors="replace").strip().splitlines()[-1:] or ["(empty log)"]
                sys.exit(f"auth_timing.py: error: the exporter of {tree} did not start: {tail[0]}")
            time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(20)


def _runs(client: httpx.Client, url: str, auth: tuple[str, str]) -> dict[str, float] | None:
    """bcrypt runs by cost as the exporter counts them; None where the tree does not export them."""
    text = client.get(f"{url}/metrics", auth=auth).text
    runs = {
        s.labels["cost"]: s.value
        for f in text_string_to_metric_families(text)
        for s in f.samples
        if s.name == "gpuscope_exporter_auth_bcrypt_verifications_total"
    }
    return runs or (None if "gpuscope_exporter_auth_checks_total" not in text else {})


def _measure(url: str, costs: list[int], samples: int) -> tuple[dict[str, list[float]], dict[str, float] | None]:
    users = {f"user{cost}": cost for cost in costs}
    top = f"user{max(costs)}"
    kinds: dict[str, tuple[str, str | None]] = {  # user, and the password of a repeated guess
        f"known user, cost {cost}, fresh guess": (name, None) for name, cost in users.items()
    }
    kinds["unknown user, fresh guess"] = ("nobody", None)
    kinds[f"known user, cost {max(costs)}, 100-byte guess"] = (top, _LONG)
    kinds["unknown user, 100-byte guess"] = ("nobody", _LONG)
    kinds[f"known user, cost {max(costs)}, repeated guess"] = (top, "same-wrong")
    kinds["unknown user, repeated guess"] = ("nobody", "same-wrong")
    times: dict[str, list[float]] = {kind: [] for kind in kinds}
    with httpx.Client(timeout=120) as client:
        client.get(f"{url}/metrics", auth=(top, "s3cret"))  # a valid login, cached: reads the counters below
        for name, repeated in {(n, p) for n, p in kinds.values() if p and p != _LONG}:
            client.get(f"{url}/metrics", auth=(name, repeated))  # the repeated guesses' first run, not timed
        before = _runs(client, url, (top, "s3cret"))
        order = list(kinds.items())
        for _ in range(samples):
            random.shuffle(order)  # in a new order each round: an answer right after a bcrypt run is a little slower
            for kind, (name, password) in order:
                guess = f"guess-{secrets.token_hex(8)}"  # never seen before: no cache can answer
                if password == _LONG:
                    guess = guess * 5
                elif password is not None:
                    guess = password
                t0 = time.perf_counter()
                status = client.get(f"{url}/metrics", auth=(name, guess)).status_code
                elapsed = time.perf_counter() - t0
                if status != 401:
                    sys.exit(f"auth_timing.py: error: {kind} was answered {status}, not 401")
                times[kind].append(elapsed)
        after = _runs(client, url, (top, "s3cret"))
    delta = None if before is None or after is None else {k: v - before.get(k, 0) for k, v in after.items()}
    return times, delta


def _row(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.1f} ms (p90 {percentile(values, 0.9) * 1000:.1f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--costs", default="10,12", help="bcrypt costs of the configured users, comma-separated")
    parser.add_argument("--samples", type=int, default=15, help="answers timed per kind and condition")
    parser.add_argument("--before", type=Path, help="another checkout to measure the same way, e.g. before a change")
    args = parser.parse_args()
    try:
        costs = sorted({int(c) for c in args.costs.split(",")})
    except ValueError:
        parser.error(f"--costs {args.costs!r}: expected comma-separated integers such as 10,12")
    if not costs or not all(4 <= c <= 16 for c in costs):
        parser.error(f"--costs {args.costs!r}: bcrypt costs from 4 to 16")
    trees = [("after", REPO)] + ([("before", args.before.resolve())] if args.before else [])
    for _, tree in trees:
        if not (tree / "src" / "gpuscope").is_dir():
            parser.error(f"--before {tree}: not a gpuscope checkout (no src/gpuscope)")
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"bcrypt costs {costs}, load average at start {load_average()}"
    )
    with tempfile.TemporaryDirectory(prefix="gpuscope-bench-auth-") as tmp:
        workdir = Path(tmp)
        web = workdir / "web.yml"
        web.write_text("basic_auth_users:\n" + "".join(f"  user{c}: {bcrypt_hash('s3cret', c)}\n" for c in costs))
        for label, tree in trees:
            with _exporter(tree, web, workdir) as url:
                for busy in (False, True):
                    with _busy(busy):
                        times, runs = _measure(url, costs, args.samples)
                    condition = f"busy ({os.cpu_count()} spinners)" if busy else "quiet"
                    print(f"\n{label} ({tree}), {condition}, {args.samples} answers per kind:")
                    for kind, values in times.items():
                        print(f"  {kind:40s} {_row(values)}")
                    if runs is not None:
                        print(f"  bcrypt runs by cost during the timed answers: {dict(sorted(runs.items()))}")


if __name__ == "__main__":
    main()

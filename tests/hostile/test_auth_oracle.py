"""Round one left this: on a busy machine a wrong password for an unknown user was answered faster than one for a
known user, which tells an attacker which user names exist. The unknown-user path is now the known users' path:
the same negative cache, the same queue and its bounds, the same bcrypt verification, at the highest configured
cost. Checked by structure, not by the clock (bench/auth_timing.py measures): through the real exporter's HTTP
interface, with the checks and bcrypt runs it exports, and on the queue itself.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from gpuscope.httpd.auth import MAX_PENDING, PER_CLIENT, BasicAuth, Verdict
from tests.support.certs import bcrypt_hash
from tests.support.exporter_process import GPUSCOPE, ExporterProcess, exporter_process
from tests.support.net import free_port

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]
LOW, HIGH = 4, 6  # two users' bcrypt costs: an unknown user must cost the higher
ALICE = ("alice", "al1ce")  # cost LOW
BOB = ("bob", "b0b")  # cost HIGH
LONG = "p" * 72  # carol's password: bcrypt's whole 72 bytes


@pytest.fixture(scope="module")
def exporter(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ExporterProcess]:
    tmp = tmp_path_factory.mktemp("auth")
    web = tmp / "web.yml"
    web.write_text(
        "basic_auth_users:\n"
        f"  alice: {bcrypt_hash(ALICE[1], LOW)}\n"
        f"  bob: {bcrypt_hash(BOB[1], HIGH)}\n"
        f"  carol: {bcrypt_hash(LONG, LOW)}\n"
        "auth_excluded_paths: [/health]\n"
    )
    port = free_port()
    argv = [*GPUSCOPE, "exporter", "--backend", "sim", "--sim-gpus", "1", "-a", f"127.0.0.1:{port}"]
    with exporter_process([*argv, "--web-config-file", str(web)], f"http://127.0.0.1:{port}", Path(tmp)) as running:
        yield running


def _auth_counts(running: ExporterProcess) -> tuple[dict[str, float], dict[str, float]]:
    """(checks by outcome, bcrypt runs by cost), scraped as alice (answered from the cache after the first time)."""
    scrape = running.get("/metrics", auth=ALICE)
    assert scrape.status_code == 200
    outcomes: dict[str, float] = {}
    runs: dict[str, float] = {}
    for family in text_string_to_metric_families(scrape.text):
        for sample in family.samples:
            if sample.name == "gpuscope_exporter_auth_checks_total":
                outcomes[sample.labels["outcome"]] = sample.value
            elif sample.name == "gpuscope_exporter_auth_bcrypt_verifications_total":
                runs[sample.labels["cost"]] = sample.value
    return outcomes, runs


def _delta(after: dict[str, float], before: dict[str, float]) -> dict[str, float]:
    return {k: v - before.get(k, 0) for k, v in after.items() if v != before.get(k, 0)}


def test_an_unknown_user_costs_one_bcrypt_run_at_the_highest_configured_cost(exporter: ExporterProcess) -> None:
    outcomes, runs = _auth_counts(exporter)
    steps = []
    for auth in (("alice", "guess-1"), ("ghost", "guess-1"), ("bob", "guess-1")):
        assert exporter.get("/metrics", auth=auth).status_code == 401
        after, runs_after = _auth_counts(exporter)
        steps.append((_delta(runs_after, runs), _delta(after, outcomes)))
        outcomes, runs = after, runs_after
    # Each guess: one bcrypt run through the queue ("bcrypt_denied"; "cached_ok" is the scrape that reads the
    # counts). alice's at her own cost; the unknown user's at the highest configured cost, as bob's.
    queued = {"bcrypt_denied": 1, "cached_ok": 1}
    assert steps == [({str(LOW): 1}, queued), ({str(HIGH): 1}, queued), ({str(HIGH): 1}, queued)]


def test_a_repeated_guess_is_answered_from_the_same_negative_cache_for_both(exporter: ExporterProcess) -> None:
    for auth in (("ghost", "again"), ("bob", "again")):
        assert exporter.get("/metrics", auth=auth).status_code == 401  # a run each, remembered as refused
    outcomes, runs = _auth_counts(exporter)
    for auth in (("ghost", "again"), ("bob", "again")):
        assert exporter.get("/metrics", auth=auth).status_code == 401
        after, runs_after = _auth_counts(exporter)
        assert runs_after == runs  # no bcrypt: one cache lookup, whoever the user
        assert _delta(after, outcomes) == {"cached_denied": 1, "cached_ok": 1}
        outcomes = after


def test_passwords_longer_than_72_bytes_cost_a_run_for_both_and_match_on_72(exporter: ExporterProcess) -> None:
    outcomes, runs = _auth_counts(exporter)
    for auth in (("ghost", "x" * 100), ("bob", "x" * 100)):
        assert exporter.get("/metrics", auth=auth).status_code == 401
    after, runs_after = _auth_counts(exporter)
    assert _delta(runs_after, runs) == {str(HIGH): 2}  # python-bcrypt 5 refuses them: they were a fast refusal
    assert _delta(after, outcomes) == {"bcrypt_denied": 2, "cached_ok": 1}
    assert exporter.get("/metrics", auth=("carol", LONG + "-anything")).status_code == 200  # as Go's bcrypt compares
    assert exporter.get("/metrics", auth=BOB).status_code == 200  # the bcrypt worker lives on
    assert "Traceback" not in exporter.log()


def _basic(user: str, password: str) -> str:
    return httpx.BasicAuth(user, password)._auth_header


def test_unknown_users_wait_in_the_known_users_queue_within_the_same_bounds() -> None:
    auth = BasicAuth({"alice": bcrypt_hash(ALICE[1], LOW).encode(), "bob": bcrypt_hash(BOB[1], HIGH).encode()})

    async def run() -> list[Verdict]:
        # One client's share of the queue is taken by a known and an unknown user's guess alike; the next guess of
        # either kind is "busy", and so is everything once unknown users fill the whole queue.
        mine = [
            asyncio.create_task(auth.check(_basic(user, "guess"), client="10.0.0.1"))
            for user in ("alice", "ghost", "nobody", "bob")
        ]
        flood = [
            asyncio.create_task(auth.check(_basic(f"ghost-{i}", "guess"), client=f"10.1.0.{i}"))
            for i in range(MAX_PENDING)
        ]
        late = asyncio.create_task(auth.check(_basic("bob", "late"), client="10.2.0.1"))
        await asyncio.sleep(0)  # every check has been queued or refused; no bcrypt has run yet
        assert auth.pending == MAX_PENDING
        return await asyncio.gather(*mine, *flood, late)

    verdicts = asyncio.run(run())
    assert verdicts[:4] == [Verdict.DENIED] * PER_CLIENT + [Verdict.BUSY] * (4 - PER_CLIENT)
    flood_verdicts = verdicts[4:-1]
    assert flood_verdicts.count(Verdict.DENIED) == MAX_PENDING - PER_CLIENT
    assert flood_verdicts.count(Verdict.BUSY) == PER_CLIENT
    assert verdicts[-1] is Verdict.BUSY
    # alice's guess ran at her cost, every unknown user's at the highest configured one: the same call for all.
    assert auth.stats.verifications == {LOW: 1, HIGH: MAX_PENDING - 1}
    assert auth.stats.outcomes == {"bcrypt_denied": MAX_PENDING, "busy": (4 - PER_CLIENT) + PER_CLIENT + 1}

"""The XID table: a text and a catalogue action for every code, and the same action on alerts and in the CLI."""

from __future__ import annotations

import subprocess
import sys

from gpuscope.fields import xid
from gpuscope.fields.xid import ACTIONS, CATALOG_BUCKETS, CRITICAL_XIDS, Bucket, xid_action, xid_info


def test_every_catalogue_code_has_exactly_one_bucket_and_every_bucket_an_action() -> None:
    listed = [code for codes in xid._CODES_BY_BUCKET.values() for code in codes]
    assert sorted(listed) == list(range(1, 163))  # each code of the catalogue revision once
    assert set(ACTIONS) == set(Bucket)
    assert all(ACTIONS[b].strip() for b in Bucket)


def test_catalogue_facts_of_well_known_codes() -> None:
    assert CATALOG_BUCKETS[79] is Bucket.RESTART_BM  # fallen off the bus: reboot the node
    assert CATALOG_BUCKETS[13] is Bucket.RESTART_APP  # graphics exception: the application's fault
    assert CATALOG_BUCKETS[95] is Bucket.RESET_GPU  # uncontained ECC error
    assert CATALOG_BUCKETS[48] is Bucket.WORKFLOW_XID_48


def test_every_critical_xid_has_an_action() -> None:
    for code in CRITICAL_XIDS:
        info = xid_info(code)
        assert info.bucket is not None and info.action == ACTIONS[info.bucket], code
    assert not xid_info(500).from_catalog and "look it up" in xid_action(500)


def gpuscope(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gpuscope", *args], capture_output=True, text=True, timeout=60, check=False
    )


def test_cli_lookup_and_bad_input() -> None:
    out = gpuscope("xid", "79")
    assert out.returncode == 0, out.stderr
    assert "GPU has fallen off the bus" in out.stdout and xid_action(79) in out.stdout
    assert "GPUFellOffBus" in out.stdout and xid.CATALOG_VERSION in out.stdout
    bad = gpuscope("xid", "seventy")
    assert bad.returncode == 2 and bad.stdout == ""
    assert (
        bad.stderr
        == "gpuscope: error: invalid XID 'seventy': give a number between 1 and 999, e.g. 'gpuscope xid 79'\n"
    )

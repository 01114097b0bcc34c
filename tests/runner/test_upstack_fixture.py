"""The ``gpuscope up`` fixture (tests/support/upstack.py) gives up as soon as the stack's process exits, and says
why: a stack that could not start used to be waited on for its whole timeout, its reason never shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.upstack import running_stack


def test_a_stack_that_exits_is_reported_at_once_with_its_log(tmp_path: Path) -> None:
    # `gpuscope up` refuses a fleet spec that does not exist: it exits 2 before planning anything
    missing = tmp_path / "no-such-fleet.yaml"
    with pytest.raises(AssertionError) as failed, running_stack(tmp_path / "data", str(missing), ready_s=60):
        pytest.fail("the stack came up")
    message = str(failed.value)
    assert "gave up waiting for the stack to come up: gpuscope up exited with status 2" in message
    assert f"file '{missing}' does not exist" in message  # the log's last line, shown

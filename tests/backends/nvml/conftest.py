from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from gpuscope.backends.nvml import Timing
from tests.backends.nvml.support import Rig


@pytest.fixture
def rig() -> Iterator[Callable[..., Rig]]:
    made: list[Rig] = []

    def make(node: str = "hgx-h100", **kw: object) -> Rig:
        kw.setdefault("event_timeout_ms", 50)
        r = Rig(node, timing=kw.pop("timing", Timing(reprobe_s=60.0, mig_check_s=3600.0)), **kw)
        made.append(r)
        return r

    yield make
    for r in made:
        r.backend.close()

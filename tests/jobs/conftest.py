from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.jobs import Pushgateway, run_pushgateway


@pytest.fixture
def pushgateway(tmp_path: Path) -> Iterator[Pushgateway]:
    with run_pushgateway(tmp_path / "pushgateway") as gateway:
        yield gateway

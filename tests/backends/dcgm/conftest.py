"""The fake libdcgm, compiled once per source version (cached under .pytest_cache), reset for every test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fakedcgm import FakeDcgm, build


@pytest.fixture(scope="session")
def fake_library(request: pytest.FixtureRequest) -> Path:
    return build(Path(request.config.cache.mkdir("fakedcgm")))


@pytest.fixture
def fake(fake_library: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeDcgm]:
    monkeypatch.setenv("GPUSCOPE_LIBDCGM_PATH", str(fake_library))
    controller = FakeDcgm(fake_library)
    controller.apply("reset")
    yield controller
    controller.release()  # a test that left a call hanging must not wedge the next one

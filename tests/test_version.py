"""One version: the installed package's metadata, the changelog's newest release and the fleet spec's default
exporter image all say ``gpuscope.__version__``."""

from __future__ import annotations

import re
from importlib.metadata import version
from pathlib import Path

from gpuscope import __version__
from gpuscope.spec.fleet import ExporterSpec

CHANGELOG = Path(__file__).resolve().parents[1] / "CHANGELOG.md"


def test_the_package_metadata_reads_the_one_version() -> None:
    assert version("gpuscope") == __version__


def test_the_default_image_is_this_release() -> None:
    assert ExporterSpec().image == f"ghcr.io/gpuscope/gpuscope:{__version__}"


def test_the_changelog_starts_with_unreleased_then_this_release() -> None:
    releases = re.findall(r"^## \[([^\]]+)\]", CHANGELOG.read_text(), flags=re.MULTILINE)
    assert releases[:2] == ["Unreleased", __version__], releases

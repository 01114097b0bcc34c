"""The CLI's flag table: ``gpuscope.flagnames``, where the exporter's runtime reaches it too."""

from __future__ import annotations

from gpuscope.flagnames import FLAG_NAMES, flag_names

__all__ = ["FLAG_NAMES", "flag_names"]

"""Prometheus text exposition (format 0.0.4): the one writer of families, samples, label values and numbers.

Every body gpuscope serves or pushes in the text format (the exporter's ``/metrics``, the simulated
kube-state-metrics and cAdvisor, the remediator's ``/metrics``, a job's Pushgateway group) is put together from
these pieces, so escaping and number formatting live here once and are pinned byte for byte by
``tests/test_exposition.py``. Byte compatibility with dcgm-exporter is the promise: a family's header is
``# HELP <name> <help>`` then ``# TYPE <name> <kind>``, its samples follow in the order given, and a family with no
sample is left out (dcgm-exporter writes none).

Text in, text out: the exporter renders thousands of series per collection from label text it builds once per GPU,
so the pieces take and return strings; ``Families`` gathers samples by family for writers that produce them in
any order. Standard library only: the bundle compiler and the exporter both import it.

Bytes leave through ``encode`` alone: label values come from outside (a pod label the API server sent as a lone
surrogate ``\ud800``, a pod log directory whose name is not UTF-8 and reads back with ``surrogateescape``), and one
such character must cost only itself, never the whole body, so every character UTF-8 cannot carry becomes U+FFFD.

Help texts are written as given, unescaped, as dcgm-exporter's template writes them: they come from the collectors
CSV (one line per row, so no line break) or from constants.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

COUNTER = "counter"
GAUGE = "gauge"

Pairs = Iterable[tuple[str, str]]

# Lone surrogates: what JSON's ``\ud800`` escapes and ``surrogateescape`` (undecodable bytes of a file name) leave in
# a str. A paired surrogate never survives decoding into a str, so each one here stands alone.
_SURROGATE = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"


def valid_text(text: str) -> str:
    """``text`` with every character UTF-8 cannot encode (a lone surrogate) replaced by U+FFFD."""
    return _SURROGATE.sub(REPLACEMENT, text)


def encode(text: str) -> bytes:
    """An exposition (or any text written to a client) as UTF-8 bytes; a lone surrogate becomes U+FFFD.

    The fast path is the plain encoder: the substitution runs only for a body that holds such a character."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return valid_text(text).encode("utf-8")


def escape(value: str) -> str:
    """A label value escaped for the text format: backslash, double quote and line feed, nothing else."""
    if "\\" in value or '"' in value or "\n" in value:
        return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return value


def label(name: str, value: str) -> str:
    """``name="value"``, the value escaped."""
    return f'{name}="{escape(value)}"'


def labels(pairs: Pairs) -> str:
    """Label pairs as the text between the braces: ``a="x",b="y"``."""
    return ",".join(f'{name}="{escape(value)}"' for name, value in pairs)


def label_suffix(pairs: Pairs) -> str:
    """Label pairs to append to label text that is already there: ``,a="x",b="y"`` (empty for no pairs)."""
    return "".join(f',{name}="{escape(value)}"' for name, value in pairs)


def sample(name: str, label_text: str, value: str) -> str:
    """One sample line; ``label_text`` is what goes between the braces (none when it is empty)."""
    if label_text:
        return f"{name}{{{label_text}}} {value}\n"
    return f"{name} {value}\n"


def header(name: str, kind: str, help_text: str) -> str:
    """A family's ``# HELP`` and ``# TYPE`` lines."""
    return f"# HELP {name} {help_text}\n# TYPE {name} {kind}\n"


def family(name: str, kind: str, help_text: str, samples: Iterable[str]) -> str:
    """A family: its header and its sample lines, in the order given; empty when there is no sample."""
    text = "".join(samples)
    return header(name, kind, help_text) + text if text else ""


class Families:
    """Samples gathered by family: families in the order first seen, each family's samples in the order added.

    For writers that walk their objects rather than their families (the simulated kube-state-metrics adds a pod's
    series to several families): every sample still lands under its own family's single header.
    """

    def __init__(self) -> None:
        self._families: dict[str, tuple[str, str, list[str]]] = {}

    def add(self, name: str, kind: str, help_text: str, label_text: str, value: str) -> None:
        entry = self._families.get(name)
        if entry is None:
            entry = self._families[name] = (kind, help_text, [])
        entry[2].append(sample(name, label_text, value))

    def text(self) -> str:
        return "".join(family(name, kind, text, lines) for name, (kind, text, lines) in self._families.items())


# Numbers. Each writer keeps the format it has always written (dcgm-exporter's ``%d`` and ``%f``, fixed decimals
# for timestamps, ``%g``, Python's shortest repr); what they share is the spelling of the values that are not finite,
# Go's and client_python's (``NaN``, ``+Inf``, ``-Inf``), which is what dcgm-exporter's ``%f`` prints for them.


def _not_finite(value: float) -> str | None:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    return None


def integer(value: float) -> str:
    """``%d``: an integer's decimal digits (a float is truncated toward zero, as ``int`` does)."""
    if isinstance(value, float):
        special = _not_finite(value)
        if special is not None:
            return special
    return str(int(value))


def fixed(value: float, digits: int = 6) -> str:
    """``%.<digits>f``: fixed decimals (``%f``, six, is dcgm-exporter's format for doubles)."""
    value = float(value)
    return _not_finite(value) or f"{value:.{digits}f}"


def general(value: float, digits: int = 6) -> str:
    """``%.<digits>g``: at most ``digits`` significant digits, no trailing zeros, exponent for large and small."""
    value = float(value)
    return _not_finite(value) or f"{value:.{digits}g}"


def shortest(value: float) -> str:
    """The shortest text that reads back as the same double (Python's ``repr``), as client_python writes it."""
    value = float(value)
    return _not_finite(value) or repr(value)

"""/metrics text read back as a scraper reads it: families by name, label order as written, one series' value."""

from __future__ import annotations

import re

from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.samples import Sample


def families(text: str) -> dict[str, tuple[str, list[Sample]]]:
    """``{family name: (type, samples)}``, parsed by prometheus_client's own parser."""
    return {f.name: (f.type, f.samples) for f in text_string_to_metric_families(text)}


def label_order(text: str, metric: str) -> list[list[str]]:
    """The label names of each series of ``metric`` in the order the text writes them (a parser forgets it)."""
    orders = []
    for line in text.splitlines():
        if line.startswith(metric + "{"):
            inner = line[len(metric) + 1 : line.rindex("}")]
            orders.append(re.findall(r'(?:^|,)([A-Za-z_][A-Za-z0-9_]*)="', inner))
    return orders


def value(text: str, name: str, **labels: str) -> float | None:
    """The value of the one series of ``name`` whose labels include ``labels``; None if there is none."""
    found = []
    for line in text.splitlines():
        if not line.startswith(name + "{"):
            continue
        body, _, number = line.rpartition(" ")
        have = dict(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', body))
        if all(have.get(k) == v for k, v in labels.items()):
            found.append(float(number))
    assert len(found) <= 1, f"{len(found)} series of {name} match {labels}"
    return found[0] if found else None

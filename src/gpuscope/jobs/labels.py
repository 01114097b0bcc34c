"""What a job may put in its grouping key and labels: checked once, before the job starts, with a message that
says what is wrong and how to fix it.

Identity (job name, job id, instance, user, extra label values) is rejected when invalid rather than silently
rewritten: two jobs whose ids sanitize to the same string would overwrite each other's Pushgateway group. Custom
gauge names arrive in the training loop, where raising would crash the job, so those are sanitized instead (and
the few that cannot be are dropped with one warning, by the caller).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

from gpuscope.errors import UsageError

PREFIX = "gpuscope_job_"
MAX_VALUE_CHARS = 256
MAX_EXTRA_LABELS = 16
_LABEL_NAME = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_]*$")
_NOT_NAME_CHAR = re.compile(r"[^a-zA-Z0-9_]")

# Labels gpuscope sets itself, on the grouping key or on the info series; user labels may not shadow them.
RESERVED_LABELS = frozenset({"job", "job_id", "instance", "user", "UUID", "Hostname", "gpu", "GPU_I_ID", "device"})
# Metric names of the contract; a custom gauge may not take one (``gpuscope_job_<name>``).
BUILTIN_SUFFIXES = frozenset(
    {
        "info",
        "step_duration_seconds",
        "steps_total",
        "samples_per_second",
        "tokens_per_second",
        "start_time_seconds",
        "end_time_seconds",
        "exit_code",
    }
)


class InvalidJobInput(UsageError, ValueError):
    """A job id, label or option a job cannot report with. Raised before the job starts, never from ``step()``."""


def check_value(what: str, value: object, *, empty_ok: bool = False) -> str:
    """A label value as it will be pushed: a string of printable characters, not too long.

    Control characters are rejected because a newline or NUL in a grouping-key value reaches the Pushgateway's
    URL path and its persistence file; surrounding spaces because they make ids that look equal differ.
    """
    if not isinstance(value, str):
        raise InvalidJobInput(f"{what} must be a string, got {type(value).__name__} {value!r}")
    if not value and not empty_ok:
        raise InvalidJobInput(f"{what} is empty: give a non-empty value")
    if len(value) > MAX_VALUE_CHARS:
        raise InvalidJobInput(f"{what} is {len(value)} characters long; the limit is {MAX_VALUE_CHARS}")
    if value != value.strip():
        raise InvalidJobInput(f"{what} {value!r} has leading or trailing whitespace: strip it")
    bad = next((ch for ch in value if unicodedata.category(ch).startswith("C")), None)
    if bad is not None:
        raise InvalidJobInput(f"{what} {value!r} contains the control character {bad!r}: use printable characters")
    return value


def check_job_id(job_id: object) -> str:
    """The job id: any printable string (``/`` and spaces are fine, the URL encodes them)."""
    return check_value("job id", job_id)


def check_label_name(name: object) -> str:
    if not isinstance(name, str) or not _LABEL_NAME.match(name):
        raise InvalidJobInput(
            f"label name {name!r} is not a Prometheus label name: use letters, digits and '_', not starting "
            "with a digit"
        )
    if name.startswith("__"):
        raise InvalidJobInput(f"label name {name!r} starts with '__', which Prometheus reserves")
    if name in RESERVED_LABELS:
        raise InvalidJobInput(f"label {name!r} is set by gpuscope itself; choose another name")
    return name


def check_labels(labels: Mapping[str, str] | None) -> tuple[tuple[str, str], ...]:
    """Extra static labels for the info series, sorted by name."""
    if not labels:
        return ()
    if len(labels) > MAX_EXTRA_LABELS:
        raise InvalidJobInput(f"{len(labels)} extra labels given; at most {MAX_EXTRA_LABELS} (they are per GPU)")
    return tuple(
        sorted((check_label_name(k), check_value(f"value of label {k!r}", v, empty_ok=True)) for k, v in labels.items())
    )


def parse_label_pairs(pairs: list[str], what: str) -> dict[str, str]:
    """``["team=nlp", "project=x"]`` -> a dict; each pair is ``NAME=VALUE``. ``what`` is the caller's name for the
    pairs (the CLI's flag, ``--label``), said in the error."""
    out: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise InvalidJobInput(f"invalid {what} {pair!r}: write NAME=VALUE")
        out[name.strip()] = value
    return out


def gauge_metric(name: str) -> str | None:
    """``"loss"`` -> ``"gpuscope_job_loss"``; characters a metric name cannot hold become ``_``.

    ``None`` when the name is empty or would take one of the contract's own metrics (a gauge called
    ``steps_total`` would clash in type with the counter in the Pushgateway, which then rejects every push).
    """
    suffix = _NOT_NAME_CHAR.sub("_", name.removeprefix(PREFIX)).strip("_")
    if not suffix or suffix in BUILTIN_SUFFIXES:
        return None
    return PREFIX + suffix

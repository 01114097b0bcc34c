"""``gpuscope doctor``: audit a live deployment against the Phase 1 floor, the failure modes and label hygiene.

Read-only, over the Prometheus and Alertmanager HTTP APIs. Data flows one way: ``fetch`` asks the endpoints and
returns ``Observations``; the checks (``floor``, ``failures``, ``hygiene``) are pure functions of them; ``render``
prints the report. Nothing here prints or exits; the CLI does.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from gpuscope.doctor.checks import CHECKS, evaluate
from gpuscope.doctor.expect import Expectation, Predict, base_config, from_fleet, no_fleet
from gpuscope.doctor.fetch import Endpoints, observe
from gpuscope.doctor.results import CheckResult, Report, Section, Status
from gpuscope.doctor.timing import Timing, default_window
from gpuscope.errors import AuditError, UsageError
from gpuscope.inputs import MissingFile, read_text
from gpuscope.prom import Access
from gpuscope.spec.load import LoadedSpec, parse_fleet

__all__ = ["CHECKS", "Access", "CheckResult", "Endpoints", "Predict", "Report", "Section", "Status", "audit"]


def _fleet(path: str | None) -> LoadedSpec | None:
    if path is None:
        return None
    try:
        text = read_text(path, "{fleet}")
    except MissingFile:
        raise AuditError(f"cannot read {{fleet}} {path!r}: No such file or directory").naming("fleet") from None
    except UsageError as exc:
        raise AuditError(exc.template).naming("fleet") from None
    try:
        return parse_fleet(text, path, Path(path).parent)
    except UsageError as exc:  # could not audit: exit 3, not 2 (2 means checks failed)
        raise AuditError(exc.template).naming(*exc.refs) from None


def audit(
    endpoints: Endpoints,
    access: Access,
    *,
    fleet: str | None = None,
    window_s: float | None = None,
    speedup: int | None = None,
    predict: Predict | None = None,
    clock: Callable[[], float] = time.time,
) -> Report:
    """Audit the deployment behind ``endpoints``; raises ``AuditError`` when it cannot be audited at all.

    ``predict`` gives the head series the fleet's budget predicts (``gpuscope.generate.budget.predicted``, what the
    bundle's ``budget.json`` holds); without it the audit has no prediction to hold the head series to."""
    loaded = _fleet(fleet)
    speed = speedup or (loaded.spec.speedup if loaded else 1)
    timing = Timing(clock(), window_s or default_window(speed), speed)
    expectation: Callable[[str | None], Expectation] = (
        partial(from_fleet, loaded, fleet, predict(loaded) if predict else {})
        if loaded and fleet
        else lambda _cluster: no_fleet()
    )
    observed = observe(
        endpoints,
        access,
        base_config(loaded, speed),
        expectation,
        loaded.spec.exporter.host_label if loaded else None,
        timing,
    )
    detected = {
        **observed.detected.to_json(),
        "exporter_selector": observed.config.exporter_selector,
        "prometheus_selector": observed.config.prometheus_selector,
    }
    return Report(
        observed.url,
        observed.version,
        timing.window_s,
        speed,
        detected,
        evaluate(observed),
        (observed.expectation.note,) if observed.expectation.note else (),
    )

"""XID scenarios: every critical XID, 79 included, pages exactly once from the first evaluation that shows it.

Each shape an XID takes on its way to Prometheus (the last-XID gauge with ``err_code``/``err_msg``, the
``DCGM_EXP_XID_ERRORS_COUNT`` window, the ``DCGM_EXP_XID_ERRORS_TOTAL`` counter), from gpuscope and from a stock
dcgm-exporter (host label ``Hostname`` and ``hostname``), while the GPU's other series are still served, stop a
little later, or are gone. "Exactly once" is checked as: firing at the first evaluation, still firing (the same
alert, never resolved in between) across an exporter restart, quiet once the condition clears, and quiet again
when a sticky gauge or a restarted exporter brings the same series back. XID 79 is GPUFellOffBus's alone, so
GPUXidCritical stays quiet for it: one event, one page.
"""

from __future__ import annotations

from typing import Any

from gpuscope.rules import RulesConfig
from tests.rules.fixtures import change, flat, from_, gpu_labels, identity, self_labels, until, up
from tests.support.promtool import Case, Series, steps

TEMP = "DCGM_FI_DEV_GPU_TEMP"
XID = "DCGM_FI_DEV_XID_ERRORS"
TOTAL = "DCGM_EXP_XID_ERRORS_TOTAL"
COUNT = "DCGM_EXP_XID_ERRORS_COUNT"
HOSTNAME = RulesConfig(host_label="hostname")
_NO_ERROR = {"err_code": "0", "err_msg": "No Error"}
_XID_79 = {"err_code": "79", "err_msg": "GPU has fallen off the bus"}
_XID_48 = {"err_code": "48", "err_msg": "Double Bit ECC Error"}


def gap(value: float | int, at: str, start: str = "30m", total: str = "1h") -> str:
    """No samples before ``start``, then ``value`` to ``total`` with one missed scrape (a stale marker) at ``at``:
    an exporter restart."""
    before, after = steps(at) - steps(start), steps(total) - steps(at) - 1
    lead = f"_x{steps(start)} " if steps(start) else ""
    return f"{lead}{value:g}x{before - 1} stale {value:g}x{after}"


def up_gap(at: str, total: str = "1h") -> str:
    return f"1x{steps(at) - 1} 0 1x{steps(total) - steps(at) - 1}"


def last_xid(
    code_labels: dict[str, str], values: str, host_label: str = "Hostname", **kw: Any
) -> tuple[Series, Series]:
    """The last-XID gauge: "No Error" until 30m, then the code (a new series, as both exporters render it)."""
    return (
        Series(XID, gpu_labels(0, host_label=host_label, extra=_NO_ERROR, **kw), until(0)),
        Series(XID, gpu_labels(0, host_label=host_label, extra=code_labels, **kw), values),
    )


def temps(host_label: str = "Hostname", values: str = flat(60)) -> tuple[Series, ...]:
    return tuple(Series(TEMP, gpu_labels(g, host_label=host_label), values) for g in (0, 1))


FELL_OFF_BUS_79 = tuple(
    case
    for host_label, config in (("Hostname", RulesConfig()), ("hostname", HOSTNAME))
    for case in (
        Case(
            f"dcgm-exporter ({host_label}): XID 79 on the last-XID gauge while DCGM still serves the GPU's readings: "
            "pages at the first evaluation, resolves on the sticky gauge, never re-pages",
            "GPUFellOffBus",
            (up(), *temps(host_label), *last_xid(_XID_79, from_("79"), host_label)),
            fires_by="30m",
            expected=(identity(0, host_label=host_label),),
            still_firing_at=("37m", "44m45s"),
            quiet_at=("29m45s", "47m15s", "55m"),
            config=config,
        ),
        Case(
            f"dcgm-exporter ({host_label}): XID 79, then the readings stop five minutes later: one page throughout",
            "GPUFellOffBus",
            (
                up(),
                Series(TEMP, gpu_labels(0, host_label=host_label), until(60, start="35m")),
                Series(TEMP, gpu_labels(1, host_label=host_label), flat(60)),
                *last_xid(_XID_79, from_("79"), host_label),
            ),
            fires_by="30m",
            expected=(identity(0, host_label=host_label),),
            still_firing_at=("35m", "40m", "50m", "59m"),
            quiet_at=("29m45s",),
            config=config,
        ),
        Case(
            f"dcgm-exporter ({host_label}) with DCGM_EXP_XID_ERRORS_COUNT: XID 79 in the window",
            "GPUFellOffBus",
            (
                up(),
                *temps(host_label),
                Series(
                    COUNT,
                    gpu_labels(0, host_label=host_label, extra={"window_size_in_ms": "300000"}),
                    until(0),
                ),
                Series(
                    COUNT,
                    gpu_labels(0, host_label=host_label, extra={"window_size_in_ms": "300000", "xid": "79"}),
                    f"_x{steps('30m')} 1x{steps('5m') - 1} stale",
                ),
            ),
            fires_by="30m",
            expected=(identity(0, host_label=host_label),),
            still_firing_at=("34m45s",),
            quiet_at=("29m45s", "37m15s", "50m"),
            config=config,
        ),
        Case(
            f"dcgm-exporter ({host_label}): the exporter restarts five minutes after an XID 79 (one missed scrape, "
            "the sticky gauge comes back): still one page",
            "GPUFellOffBus",
            (
                up(values=up_gap("35m")),
                *(Series(TEMP, gpu_labels(g, host_label=host_label), gap(60, "35m", start="0m")) for g in (0, 1)),
                Series(XID, gpu_labels(0, host_label=host_label, extra=_NO_ERROR), until(0)),
                Series(XID, gpu_labels(0, host_label=host_label, extra=_XID_79), gap(79, "35m")),
            ),
            fires_by="30m",
            expected=(identity(0, host_label=host_label),),
            still_firing_at=("35m", "35m15s", "40m"),
            quiet_at=("47m15s", "55m"),
            config=config,
        ),
    )
)

FELL_OFF_BUS_GPUSCOPE = (
    Case(
        'gpuscope: the first XID 79 creates DCGM_EXP_XID_ERRORS_TOTAL{xid="79"} at 1 (increase() cannot see it)',
        "GPUFellOffBus",
        (up(), *temps(), Series(TOTAL, gpu_labels(0, extra={"xid": "79"}), from_("1"))),
        fires_by="30m",
        expected=(identity(0),),
        still_firing_at=("39m45s",),
        quiet_at=("29m45s", "42m15s", "55m"),
    ),
    Case(
        "gpuscope: every shape at once (lost gauge, last-XID gauge, window and counter) is one alert",
        "GPUFellOffBus",
        (
            up(),
            Series(TEMP, gpu_labels(0), until(60)),
            Series(TEMP, gpu_labels(1), flat(60)),
            Series("gpuscope_exporter_gpu_lost", self_labels(0), f"0x{steps('30m') - 1} 1x{steps('30m')}"),
            *last_xid(_XID_79, from_("79")),
            Series(COUNT, gpu_labels(0, extra={"window_size_in_ms": "300000", "xid": "79"}), from_("1")),
            Series(TOTAL, gpu_labels(0, extra={"xid": "79"}), from_("1")),
        ),
        fires_by="30m",
        expected=(identity(0),),
        still_firing_at=("45m", "59m"),
        quiet_at=("29m45s",),
    ),
    Case(
        "near miss: a restarted exporter serves no GPU series for two minutes, until its first collection",
        "GPUFellOffBus",
        (
            up(),
            *(
                Series(TEMP, gpu_labels(g), f"60x{steps('30m') - 1} stale _x{steps('2m') - 2} 60x{steps('28m') - 1}")
                for g in (0, 1)
            ),
            Series(
                XID,
                gpu_labels(0, extra=_NO_ERROR),
                f"0x{steps('30m') - 1} stale _x{steps('2m') - 2} 0x{steps('28m') - 1}",
            ),
        ),
        quiet_at=("31m", "31m45s", "32m15s", "35m"),
    ),
    Case(
        "near miss: a restarted exporter pod (new instance) serves the same GPU's old XID 79: no second page",
        "GPUFellOffBus",
        (
            Series("up", {"job": "dcgm-exporter", "instance": "node-a:9400"}, flat(1)),
            Series("up", {"job": "dcgm-exporter", "instance": "10.0.0.2:9400"}, from_("1", start="50m")),
            *temps(),
            Series(TEMP, gpu_labels(0, instance="10.0.0.2:9400"), from_("60", start="50m")),
            Series(XID, gpu_labels(0, extra=_XID_79), f"79x{steps('40m')} stale"),
            Series(XID, gpu_labels(0, instance="10.0.0.2:9400", extra=_XID_79), from_("79", start="50m")),
        ),
        quiet_at=("50m", "50m15s", "55m"),
    ),
)

XID_CRITICAL_SHAPES = (
    Case(
        "gpuscope: the first XID 95 creates its counter at 1: pages at the first evaluation, then resolves",
        "GPUXidCritical",
        (up(), *temps(), Series(TOTAL, gpu_labels(0, extra={"xid": "95"}), from_("1"))),
        fires_by="30m",
        expected=(identity(0, xid="95"),),
        still_firing_at=("39m45s",),
        quiet_at=("29m45s", "41m15s", "55m"),
    ),
    Case(
        "dcgm-exporter (hostname): XID 48 on the last-XID gauge",
        "GPUXidCritical",
        (up(), *temps("hostname"), *last_xid(_XID_48, from_("48"), "hostname")),
        fires_by="30m",
        expected=(identity(0, host_label="hostname", xid="48"),),
        quiet_at=("29m45s", "41m15s"),
        config=HOSTNAME,
    ),
    Case(
        "dcgm-exporter: the exporter restarts three minutes after an XID 48 and again after it resolved: one page",
        "GPUXidCritical",
        (
            up(values=f"1x{steps('33m') - 1} 0 1x{steps('12m') - 1} 0 1x{steps('15m') - 1}"),
            Series(XID, gpu_labels(0, extra=_NO_ERROR), until(0)),
            Series(
                XID,
                gpu_labels(0, extra=_XID_48),
                f"_x{steps('30m')} 48x{steps('3m') - 1} stale 48x{steps('12m') - 1} stale 48x{steps('15m') - 1}",
            ),
        ),
        fires_by="30m",
        expected=(identity(0, xid="48"),),
        still_firing_at=("33m", "33m15s", "39m45s"),
        quiet_at=("41m15s", "45m15s", "46m", "55m"),
    ),
    Case(
        "near miss: XID 79 in every shape is GPUFellOffBus's page, never a second one here",
        "GPUXidCritical",
        (
            up(),
            *temps(),
            *last_xid(_XID_79, from_("79")),
            Series(COUNT, gpu_labels(0, extra={"window_size_in_ms": "300000", "xid": "79"}), from_("1")),
            Series(TOTAL, gpu_labels(0, extra={"xid": "79"}), f"_x{steps('30m')} 1x{steps('5m')} 2x{steps('25m')}"),
        ),
        quiet_at=("30m", "31m", "36m", "45m"),
    ),
)

# dcgm-exporter before 3.3.6: the last-XID gauge has no err_code label (its value is the code) and the
# DCGM_EXP_XID_ERRORS_* series are not in its default counters.
OLD_EXPORTER = (
    Case(
        "dcgm-exporter < 3.3.6 (no err_code): the last-XID gauge goes from 0 to 48: pages with xid 48 at the first "
        "evaluation, resolves, and the sticky gauge never re-pages",
        "GPUXidCritical",
        (up(), *temps(), Series(XID, gpu_labels(0), change(0, 48))),
        fires_by="30m",
        expected=(identity(0, xid="48"),),
        still_firing_at=("39m45s",),
        quiet_at=("29m45s", "41m15s", "55m"),
    ),
    Case(
        "near miss: dcgm-exporter < 3.3.6 with a non-critical XID 13 on its gauge",
        "GPUXidCritical",
        (up(), *temps(), Series(XID, gpu_labels(0), change(0, 13))),
        quiet_at=("30m", "31m", "35m"),
    ),
    Case(
        "near miss: dcgm-exporter < 3.3.6 restarted (new instance) serves the same old XID 48: no page",
        "GPUXidCritical",
        (
            Series("up", {"job": "dcgm-exporter", "instance": "node-a:9400"}, until(1, start="50m", after="0")),
            Series("up", {"job": "dcgm-exporter", "instance": "10.0.0.2:9400"}, from_("1", start="50m")),
            Series(TEMP, gpu_labels(0, instance="10.0.0.2:9400"), from_("60", start="50m")),
            Series(XID, gpu_labels(0), f"48x{steps('40m')} stale"),
            Series(XID, gpu_labels(0, instance="10.0.0.2:9400"), from_("48", start="50m")),
        ),
        quiet_at=("50m", "50m15s", "55m"),
    ),
    Case(
        "dcgm-exporter < 3.3.6: XID 79 on the unlabelled gauge pages GPUFellOffBus",
        "GPUFellOffBus",
        (up(), *temps(), Series(XID, gpu_labels(0), change(0, 79))),
        fires_by="30m",
        expected=(identity(0),),
        quiet_at=("29m45s",),
    ),
)

CASES = FELL_OFF_BUS_79 + FELL_OFF_BUS_GPUSCOPE + XID_CRITICAL_SHAPES + OLD_EXPORTER

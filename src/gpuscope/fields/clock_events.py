"""The clock-event reasons: the bits of ``DCGM_FI_DEV_CLOCKS_EVENT_REASONS`` and the names gpuscope gives them.

The bit values are NVML's ``nvmlClocksEventReason*`` masks. The lower-case member names are the values of the
``clock_event`` label on ``DCGM_EXP_CLOCK_EVENTS_COUNT``/``_TOTAL`` and of the ``reason`` label the dashboards
decode the bitmask into, so renaming a member renames a label value.
"""

from __future__ import annotations

from enum import IntEnum


class ClockEventReason(IntEnum):
    """One bit of the clock-event bitmask (an ``IntEnum``, not an ``IntFlag``: masks stay plain integers)."""

    GPU_IDLE = 0x1
    CLOCKS_SETTING = 0x2
    POWER_CAP = 0x4
    HW_SLOWDOWN = 0x8
    SYNC_BOOST = 0x10
    SW_THERMAL = 0x20
    HW_THERMAL = 0x40
    HW_POWER_BRAKE = 0x80
    DISPLAY_CLOCKS = 0x100


# (bit, label value) in bit order.
CLOCK_EVENT_REASONS: tuple[tuple[int, str], ...] = tuple((int(r), r.name.lower()) for r in ClockEventReason)
# The clock_event label values of thermal slowdowns (a PromQL matcher).
THERMAL_EVENTS = 'clock_event=~"sw_thermal|hw_thermal"'

"""How ``make test`` hands the suite to its workers (pytest-xdist, ``--dist loadfile``): whole modules, as xdist
does, but the modules that run a whole ``gpuscope up`` first and at most ``MAX_STACKS`` of them at once.

A stack is a dozen processes (four Prometheus servers, the global store, the simulated nodes) taking a third to
half of a core for minutes; its tests wait on alert ``for:`` times and Alertmanager's group interval. xdist's own
order (most tests first) left the four stack modules, with few tests each, to the end of the run, one worker busy
with them after the others had finished; started first and all together, three stacks on two cores made one
stack's wait for health time out. Here two workers run the stack modules one after another, longest first, while
the others take every other module, the long ones first.
"""

from __future__ import annotations

from typing import Any

from xdist.scheduler import LoadFileScheduling

# The modules that run ``gpuscope up`` (tests/test_suite_order.py holds that every such module is listed), longest
# first, as measured with ``--durations`` on 2 cores.
STACK_MODULES = (
    "tests/doctor/test_stack.py",
    "tests/e2e/test_up_drills.py",
    "tests/e2e/test_up.py",
    "tests/console/test_console_live.py",
)
MAX_STACKS = 2
# Other modules that take a minute or more (they wait on real servers): started before the rest, so none of them
# is what the run waits for at the end. A module missing here only costs the tail of the run.
LONG_MODULES = (
    "tests/e2e/test_victoriametrics.py",
    "tests/doctor/test_hygiene.py",
    "tests/rules/test_rules.py",
    "tests/hostile/test_job_input.py",
    "tests/doctor/test_errors.py",
    "tests/e2e/test_generated_stack.py",
    "tests/hostile/test_report_input.py",
    "tests/doctor/test_dcgm_style.py",
)


class SuiteScheduling(LoadFileScheduling):  # type: ignore[misc]  # xdist ships no type information
    """xdist's ``loadfile`` with the order above and the cap on concurrent stacks."""

    def _assign_work_unit(self, node: Any) -> None:
        scope = self._next_scope(node)
        if scope is None:
            return  # only stack modules are left and enough stacks run: this worker waits for one to finish
        self.workqueue.move_to_end(scope, last=False)
        super()._assign_work_unit(node)

    def _next_scope(self, node: Any) -> str | None:
        running = self._running_stacks()
        if node in running or len(running) < MAX_STACKS:
            stack = next((m for m in STACK_MODULES if m in self.workqueue), None)
            if stack is not None:
                return stack
        rest = [scope for scope in self.workqueue if scope not in STACK_MODULES]
        return next((m for m in LONG_MODULES if m in rest), rest[0] if rest else None)

    def _running_stacks(self) -> list[Any]:
        """The workers with a stack module not finished yet."""
        return [
            node
            for node, work in self.assigned_work.items()
            if any(not all(work[scope].values()) for scope in STACK_MODULES if scope in work)
        ]

    def mark_test_complete(self, node: Any, item_index: int, duration: float = 0) -> None:
        super().mark_test_complete(node, item_index, duration)
        # A finished stack module frees a place: a worker left waiting by the cap may take the next one.
        for other in self.nodes:
            if other is not node and not self._pending_of(self.assigned_work.get(other, {})):
                self._reschedule(other)

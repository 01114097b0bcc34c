"""How ``make test`` hands the suite to its workers (pytest-xdist, ``--dist loadfile``): whole modules, as xdist
does, but the modules that run a whole ``gpuscope up`` first and at most ``MAX_STACKS`` of them at once.

A stack is a dozen processes (four Prometheus servers, the global store, the simulated nodes) taking a third to
half of a core for minutes; its tests wait on alert ``for:`` times and Alertmanager's group interval. xdist's own
order (most tests first) left the four stack modules, with few tests each, to the end of the run, one worker busy
with them after the others had finished; started first and all together, three stacks on two cores made one
stack's wait for health time out. Here two workers run the stack modules one after another, longest first, while
the others take every other module, the long ones first.

Only the first ``MAX_STACKS`` workers (gw0, gw1) take stack modules, one after another, so a stack module follows
the one before on the same worker and never a third runs. (Running the other workers at a lower CPU priority was
tried: on a slow host the stacks then took nearly all of both cores, and the other workers' own servers, starved,
failed their tests.)
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
    # starts `gpuscope up` through the fixture, on a spec it refuses: it exits at once (the fixture's own test)
    "tests/runner/test_upstack_fixture.py",
)
MAX_STACKS = 2
STACK_WORKERS = tuple(f"gw{i}" for i in range(MAX_STACKS))
# Other modules that take a minute or more (they wait on real servers): started before the rest, so none of them
# is what the run waits for at the end; then those of 20-50 s, longest first (measured on 2 cores): started last,
# one of them left the other workers idle for the run's last half minute. A module missing here only costs the
# tail of the run.
LONG_MODULES = (
    "tests/e2e/test_victoriametrics.py",
    "tests/doctor/test_hygiene.py",
    "tests/rules/test_rules.py",
    "tests/hostile/test_job_input.py",
    "tests/doctor/test_errors.py",
    "tests/e2e/test_generated_stack.py",
    "tests/hostile/test_report_input.py",
    "tests/doctor/test_dcgm_style.py",
    "tests/hostile/test_doctor_limits.py",
    "tests/remediate/test_kubernetes.py",
    "tests/hostile/test_spec_values.py",
    "tests/remediate/test_slurm.py",
    "tests/dashboards/test_live.py",
    "tests/prom/test_client.py",
    "tests/generate/test_bundle.py",
    "tests/report/test_report_backfilled.py",
    "tests/hostile/test_remediate_clients.py",
    "tests/hostile/test_remediate_safety.py",
    "tests/hostile/test_console_input.py",
    "tests/console/test_console_failures.py",
    "tests/console/test_console_hostile.py",
    "tests/generate/test_links.py",
    "tests/hostile/test_fuzz.py",
    "tests/hostile/test_kube_input.py",
    "tests/generate/test_host_signals.py",
    "tests/jobs/test_prometheus.py",
    "tests/test_cli.py",
    "tests/httpd/test_listen.py",
)


def takes_stacks(worker: str, workers: int) -> bool:
    """Whether this worker (``gw3``) runs stack modules: one of the first ``MAX_STACKS``, or any if no others run."""
    return worker in STACK_WORKERS or workers <= MAX_STACKS


class SuiteScheduling(LoadFileScheduling):  # type: ignore[misc]  # xdist ships no type information
    """xdist's ``loadfile`` with the order above, the stack modules on the stack workers only."""

    def _assign_work_unit(self, node: Any) -> None:
        scope = self._next_scope(node)
        if scope is None:
            return  # only stack modules are left, and this worker takes none: it has finished
        self.workqueue.move_to_end(scope, last=False)
        super()._assign_work_unit(node)

    def _next_scope(self, node: Any) -> str | None:
        if takes_stacks(node.gateway.id, self.numnodes):
            stack = next((m for m in STACK_MODULES if m in self.workqueue), None)
            if stack is not None:
                return stack
        rest = [scope for scope in self.workqueue if scope not in STACK_MODULES]
        return next((m for m in LONG_MODULES if m in rest), rest[0] if rest else None)

    def mark_test_complete(self, node: Any, item_index: int, duration: float = 0) -> None:
        super().mark_test_complete(node, item_index, duration)
        # xdist looks at a worker again only when that worker completes a test: one left idle while stack modules
        # were still queued must be told when the queue has emptied (it shuts down then), or the run never ends.
        for other in self.nodes:
            if other is not node and not self._pending_of(self.assigned_work.get(other, {})):
                self._reschedule(other)

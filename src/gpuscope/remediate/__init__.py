"""From page to action: ``gpuscope remediate`` drains Slurm nodes and taints/cordons Kubernetes nodes for GPU alerts.

An Alertmanager webhook receiver (``server.py``) feeds a planner (``engine.py``) that maps alerts to actions by a
policy file (``policy.py``) within a per-cluster budget, idempotently, never undoing a person's action, and audits
every decision (``audit.py``). Actuators: ``slurm.py`` (scontrol) and ``kubernetes.py`` (the API server, with a
leader ``lease.py``); a dry run, the default, uses none of them. docs/remediation.md is the user's guide.

Nothing here starts at import: ``run.run_remediator`` is the entry point.
"""

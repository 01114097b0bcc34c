"""Fleet spec -> monitoring bundle (pure): ``compose.generate_bundle`` puts every generator of this package together.

Nothing is imported here: ``gpuscope doctor`` and the budget read ``generate.budget`` alone, without the
dashboards' Grafana SDK and the Kubernetes objects the whole bundle needs (a tenth of a second on every start).
"""

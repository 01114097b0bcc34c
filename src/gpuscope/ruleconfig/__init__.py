"""What the recording rules and alerts are generated from, apart from the rules themselves: ``config``
(``RulesConfig``: selectors, label names, thresholds, budgets), ``host`` (the host-signal rules' settings) and
``groups`` (the records of pod-label groups, and which labels cannot be one).

A leaf below ``gpuscope.rules``: the spec exposes these per cluster and checks them where they are written, the
doctor and the report read them, and none of them needs the rules' builders to do so.
"""

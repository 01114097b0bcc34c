"""``gpuscope report``: efficiency and chargeback over a time range, from Prometheus, as HTML, CSV or JSON.

Data flows one way: ``queries`` (PromQL, pure) → ``gpuscope.prom`` (HTTP) → ``collect`` (a ``Report``) → ``compute``
(pure arithmetic) → ``html`` or ``tables`` (pure rendering) → ``write`` (one atomic file).
"""

"""The web console: the bundle's own Grafana dashboards rendered live where Grafana is not running.

The server (``server``) serves a page that draws the bundle's ``grafana/dashboards/*.json`` and answers its
questions: variables (``templating``), panel data (``panels``, ``frames``) and alerts (``alerts``), all asked of
Prometheus through gpuscope's one client, bounded (``gpuscope.prom.AsyncClient``). Interval and variable rules
follow Grafana's (``timerange``, ``variables``), so a panel shows here what it shows in Grafana.
"""

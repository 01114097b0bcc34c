"""The local stack behind `gpuscope up`: simulated nodes, real Prometheus/Alertmanager/Pushgateway, supervision."""

# Here rather than in plan.py: the CLI needs it for a flag default, and importing plan would load the bundle
# compiler (and Grafana's SDK) into every gpuscope process, the exporter's included.
DEFAULT_DATA_DIR = ".gpuscope"

"""The local stack behind `gpuscope up`: simulated nodes, real Prometheus/Alertmanager/Pushgateway, supervision."""

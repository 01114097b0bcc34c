"""Test helpers: free ports, real Prometheus-family processes, in-process exporters."""

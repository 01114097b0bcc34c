"""gpuscope: GPU fleet telemetry, from NVML to Grafana."""

# The one place the version is written: pyproject.toml reads it (dynamic version), and so do the default image
# tag of the fleet spec, the exporter's build_info and `gpuscope version`. Bump it with CHANGELOG.md.
__version__ = "0.1.0"

__all__ = ["__version__"]

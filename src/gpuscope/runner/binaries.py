"""Finding the Prometheus-family and VictoriaMetrics binaries: Debian's package names first, upstream second."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Mapping
from types import MappingProxyType

from gpuscope.errors import EnvironmentProblem

# tool -> (names to look for, Debian package that ships it)
BINARIES: Mapping[str, tuple[tuple[str, ...], str]] = MappingProxyType(
    {
        "prometheus": (("prometheus",), "prometheus"),
        "promtool": (("promtool",), "prometheus"),
        "alertmanager": (("prometheus-alertmanager", "alertmanager"), "prometheus-alertmanager"),
        "amtool": (("amtool",), "prometheus-alertmanager"),
        "pushgateway": (("prometheus-pushgateway", "pushgateway"), "prometheus-pushgateway"),
        "victoria-metrics": (("victoria-metrics", "victoria-metrics-prod"), "victoria-metrics"),
        "vmalert": (("vmalert", "vmalert-prod"), "victoria-metrics"),
        "node-exporter": (("prometheus-node-exporter", "node_exporter"), "prometheus-node-exporter"),
    }
)


def find_binary(tool: str) -> str:
    """Path of ``tool``; a missing one is one clear line saying how to install it."""
    names, package = BINARIES[tool]
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    raise EnvironmentProblem(
        f"{tool} not found on PATH (looked for {', '.join(names)}): install it with "
        f"`sudo apt-get install {package}` (Debian/Ubuntu; `make up` does this when run as root), or put the "
        f"upstream `{names[-1]}` binary on PATH"
    )


def version(path: str) -> str:
    """The first line of ``<binary> --version`` (they print to stderr)."""
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"unknown ({exc})"
    text = (out.stdout or out.stderr).strip().splitlines()
    return text[0] if text else "unknown"

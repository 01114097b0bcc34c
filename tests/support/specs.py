"""Fleet specs for tests, as YAML text (what users write)."""

from __future__ import annotations

RECEIVERS = """
receivers:
  infra: {pagerduty: {routing_key_file: /etc/am/pd}, slack: {api_url_file: /etc/am/slack, channel: "#infra"},
          tickets_to: slack}
  platform: {slack: {api_url_file: /etc/am/slack, channel: "#platform"}}
  workload: {webhook: {url: "http://127.0.0.1:1/hook"}}
"""


def fleet(clusters: str, extra: str = "") -> str:
    return f"name: test-fleet\nclusters:\n{clusters}\n{RECEIVERS}\n{extra}\n"


ONE = """
  - name: gpu-a
    kind: baremetal
    node_groups:
      - {name: h100, gpu_model: h100, nodes: 2}
"""


def clusters(n: int, kind: str = "kubernetes") -> str:
    return "".join(
        f"  - name: c{i}\n    kind: {kind}\n    node_groups:\n      - {{name: g, gpu_model: a100, nodes: 1}}\n"
        for i in range(n)
    )

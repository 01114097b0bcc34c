"""A generated bundle (relative path -> text) and the one place that writes bundles to disk.

Serialisation is fixed here so the same spec always gives the same bytes: YAML in the generators' key order,
JSON sorted and indented. Writing replaces each file atomically, and a manifest of what the previous run wrote
lets a re-run delete files that are no longer generated without touching anything else in the directory.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from gpuscope.errors import UsageError

MANIFEST = ".gpuscope-bundle.json"


class _Dumper(yaml.SafeDumper):
    """Block style, multi-line strings as literal blocks (PromQL, CSV), no aliases."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|" if "\n" in value else None)


_Dumper.add_representer(str, _str)


def to_yaml(data: Any) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, width=120, allow_unicode=True)


def serialize(path: str, content: Any) -> str:
    """Text for one bundle file: strings as they are, structures as YAML or JSON by extension."""
    if isinstance(content, str):
        return content
    if path.endswith(".json"):
        return json.dumps(content, indent=2, sort_keys=True) + "\n"
    if path.endswith((".yml", ".yaml")):
        return to_yaml(content)
    raise ValueError(f"no serialisation for {path}")


@dataclass(frozen=True, slots=True)
class Bundle:
    files: Mapping[str, str]

    @classmethod
    def of(cls, files: Mapping[str, Any]) -> Bundle:
        return cls({path: serialize(path, content) for path, content in sorted(files.items())})

    def digest(self) -> str:
        h = hashlib.sha256()
        for path, text in sorted(self.files.items()):
            h.update(path.encode() + b"\0" + text.encode() + b"\0")
        return h.hexdigest()


def write_bundle(bundle: Bundle, directory: str) -> list[str]:
    """Write the bundle under ``directory``; returns the paths whose content changed."""
    root = Path(directory)
    try:
        root.mkdir(parents=True, exist_ok=True)
        previous = _manifest(root)
        changed = []
        for rel, text in bundle.files.items():
            target = root / rel
            digest = hashlib.sha256(text.encode()).hexdigest()
            if previous.get(rel) == digest and target.exists():
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            # mkstemp's 0600 would hide the files from Grafana, Prometheus and config-management copies; the
            # bundle holds no secrets (only paths to them), so it is world-readable like any config.
            os.chmod(tmp, 0o644)
            os.replace(tmp, target)
            changed.append(rel)
        for rel in sorted(set(previous) - set(bundle.files)):
            (root / rel).unlink(missing_ok=True)
        manifest = {rel: hashlib.sha256(text.encode()).hexdigest() for rel, text in bundle.files.items()}
        (root / MANIFEST).write_text(json.dumps({"files": manifest}, indent=2, sort_keys=True) + "\n")
    except OSError as exc:
        raise UsageError(f"cannot write the bundle to {directory!r} (-o/--output): {exc.strerror or exc}") from None
    return changed


def _manifest(root: Path) -> dict[str, str]:
    try:
        data = json.loads((root / MANIFEST).read_text())
        files = data.get("files", {})
        return {str(k): str(v) for k, v in files.items()}
    except (OSError, ValueError, AttributeError):
        return {}

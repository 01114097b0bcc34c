"""A generated bundle (relative path -> text) and the one place that writes bundles to disk.

Serialisation is fixed here so the same spec always gives the same bytes: YAML in the generators' key order,
JSON sorted and indented. Writing stages every changed file first and only then renames them into place, and a
manifest of what the previous run wrote lets a re-run delete files that are no longer generated without touching
anything else in the directory, and nothing outside it.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from gpuscope.errors import UsageError
from gpuscope.inputs import MAX_SECRET_BYTES, read_text

MANIFEST = ".gpuscope-bundle.json"
_STAGING = ".gpuscope-staging-"  # the directory a write stages its files in, inside the output root


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
    """Write the bundle under ``directory``; returns the paths whose content changed.

    Nothing outside ``directory`` is ever written or deleted: every path, the bundle's own and those the previous
    run's manifest lists, goes through ``inside`` (a manifest is a file anyone who can write the directory can
    edit). Changed files are first written to a staging directory in the output root; only when all of them are
    on disk are they renamed into place, so a failed write (disk full, permissions) leaves the previous bundle as
    it was, and the error names the file.
    """
    root = Path(directory)
    try:
        root.mkdir(parents=True, exist_ok=True)
        real_root = root.resolve(strict=True)
    except OSError as exc:
        raise UsageError(f"cannot write the bundle to {directory!r} ({{output}}): {exc.strerror or exc}").naming(
            "output"
        ) from None
    previous = _manifest(root)
    targets = {rel: inside(real_root, rel, "the bundle") for rel in bundle.files}
    stale = {
        rel: inside(real_root, rel, f"{root / MANIFEST} (written by the previous run; delete it if it was edited)")
        for rel in sorted(set(previous) - set(bundle.files))
    }
    changed = [
        rel
        for rel, text in bundle.files.items()
        if previous.get(rel) != _digest(text) or not targets[rel].is_file() or targets[rel].is_symlink()
    ]
    for stale_dir in root.glob(f"{_STAGING}*"):  # left by a run that was killed half-way
        shutil.rmtree(stale_dir, ignore_errors=True)
    current = root
    try:
        staging = Path(tempfile.mkdtemp(dir=real_root, prefix=_STAGING))
    except OSError as exc:
        raise UsageError(f"cannot write the bundle to {directory!r} ({{output}}): {exc.strerror or exc}").naming(
            "output"
        ) from None
    try:
        for rel in changed:
            current = root / rel
            staged = staging / rel
            staged.parent.mkdir(parents=True, exist_ok=True)
            staged.write_text(bundle.files[rel], encoding="utf-8")
            # The bundle holds no secrets (only paths to them), so it is world-readable like any config: Grafana,
            # Prometheus and config-management copies must be able to read it.
            os.chmod(staged, 0o644)
        for rel in changed:  # what would make a rename fail, checked before the first one
            current = root / rel
            if targets[rel].is_dir() and not targets[rel].is_symlink():
                raise IsADirectoryError(errno.EISDIR, "a directory is in the way")
            targets[rel].parent.mkdir(parents=True, exist_ok=True)
        for rel in changed:
            current = root / rel
            os.replace(staging / rel, targets[rel])
        for rel, target in stale.items():
            current = root / rel
            if target.is_file() or target.is_symlink():
                target.unlink()
        current = root / MANIFEST
        manifest = {rel: _digest(text) for rel, text in bundle.files.items()}
        staged_manifest = staging / MANIFEST
        staged_manifest.write_text(json.dumps({"files": manifest}, indent=2, sort_keys=True) + "\n")
        os.replace(staged_manifest, real_root / MANIFEST)
    except OSError as exc:
        raise UsageError(
            f"cannot write the bundle to {directory!r} ({{output}}): {current}: {exc.strerror or exc}"
        ).naming("output") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return changed


def inside(root: Path, rel: str, source: str) -> Path:
    """``root / rel`` when it stays inside ``root`` (already resolved), symbolic links included; else UsageError.

    The one path-safety rule of everything that writes or deletes a bundle file: a relative path without ``..``,
    whose parent directory, resolved, is ``root`` or below it. The last component is not resolved, so a link is
    replaced or removed as a link, never followed.
    """
    pure = PurePosixPath(rel)
    if not rel or pure.is_absolute() or ".." in pure.parts or "\0" in rel or rel.startswith(_STAGING):
        raise UsageError(f"refusing to write or delete {rel!r} listed in {source}: not a path inside {root}")
    target = root / pure
    try:
        parent = target.parent.resolve()
    except (OSError, RuntimeError) as exc:  # RuntimeError: a symbolic link loop
        raise UsageError(f"refusing to write or delete {rel!r} listed in {source}: {exc}") from None
    if parent != root and root not in parent.parents:
        raise UsageError(
            f"refusing to write or delete {rel!r} listed in {source}: it leads to {parent / target.name}, "
            f"outside {root} (through a symbolic link)"
        )
    return parent / target.name


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _manifest(root: Path) -> dict[str, str]:
    """The previous run's manifest; a missing or damaged one lists nothing (so nothing is deleted)."""
    try:
        data = json.loads(read_text(str(root / MANIFEST), "bundle manifest", MAX_SECRET_BYTES))
        files = data.get("files", {})
        return {str(k): str(v) for k, v in files.items()}
    except (UsageError, ValueError, AttributeError, RecursionError):
        return {}

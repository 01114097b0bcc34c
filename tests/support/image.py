"""What the Dockerfile says about the image: its command, port and the files it copies in (outside the wheel)."""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class ImageFacts:
    entrypoint: list[str]
    cmd: list[str]
    port: int
    files: dict[str, Path]  # path in the image -> the repository file copied there

    def realise(self, root: Path) -> dict[str, str]:
        """Put the image's copied files under ``root``; returns image path -> local path."""
        mapping = {}
        for image_path, source in self.files.items():
            local = root / image_path.lstrip("/")
            local.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, local)
            mapping[image_path] = str(local)
        return mapping


def _instruction(pattern: str, stage: str) -> str:
    """The argument of the one Dockerfile line ``pattern`` matches in ``stage``."""
    found = re.search(pattern, stage, re.M)
    assert found, f"the Dockerfile's runtime stage has no line matching {pattern}"
    return found.group(1)


def image_facts(dockerfile: Path = ROOT / "Dockerfile") -> ImageFacts:
    text = dockerfile.read_text(encoding="utf-8")
    final = text.split("\nFROM ")[-1]  # the runtime stage
    entrypoint = json.loads(_instruction(r"^ENTRYPOINT (\[.*\])$", final))
    cmd = json.loads(_instruction(r"^CMD (\[.*\])$", final))
    port = int(_instruction(r"^EXPOSE (\d+)$", final))
    files = {dest: ROOT / src for src, dest in re.findall(r"^COPY (?!--)(\S+) (/\S+)$", final, re.M)}
    return ImageFacts(entrypoint=entrypoint, cmd=cmd, port=port, files=files)


def map_paths(value: str, mapping: dict[str, str]) -> str:
    """An argument or env value with image paths replaced by their local copies."""
    for image_path, local in mapping.items():
        value = value.replace(image_path, local)
    return value

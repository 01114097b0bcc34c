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


def image_facts(dockerfile: Path = ROOT / "Dockerfile") -> ImageFacts:
    text = dockerfile.read_text(encoding="utf-8")
    final = text.split("\nFROM ")[-1]  # the runtime stage
    entrypoint = json.loads(re.search(r"^ENTRYPOINT (\[.*\])$", final, re.M).group(1))  # type: ignore[union-attr]
    cmd = json.loads(re.search(r"^CMD (\[.*\])$", final, re.M).group(1))  # type: ignore[union-attr]
    port = int(re.search(r"^EXPOSE (\d+)$", final, re.M).group(1))  # type: ignore[union-attr]
    files = {dest: ROOT / src for src, dest in re.findall(r"^COPY (?!--)(\S+) (/\S+)$", final, re.M)}
    return ImageFacts(entrypoint=entrypoint, cmd=cmd, port=port, files=files)


def map_paths(value: str, mapping: dict[str, str]) -> str:
    """An argument or env value with image paths replaced by their local copies."""
    for image_path, local in mapping.items():
        value = value.replace(image_path, local)
    return value

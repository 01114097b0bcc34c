"""Item 1 and 11 of the hostile-input audit: `generate` touches nothing outside its output directory, and a failed
write leaves the previous bundle as it was, with an error naming the file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gpuscope.bundle import MANIFEST, Bundle, write_bundle
from gpuscope.errors import UsageError

BUNDLE = Bundle.of({"a.yml": {"x": 1}, "rules/b.yaml": {"y": 2}, "README.md": "hello\n"})


def victim(tmp_path: Path) -> Path:
    target = tmp_path / "victim.txt"
    target.write_text("precious")
    return target


def edit_manifest(out: Path, *extra: str) -> None:
    data = json.loads((out / MANIFEST).read_text())
    data["files"].update(dict.fromkeys(extra, "0" * 64))
    (out / MANIFEST).write_text(json.dumps(data))


@pytest.mark.parametrize("entry", ["../victim.txt", "rules/../../victim.txt", "{abs}"])
def test_a_manifest_entry_outside_the_output_is_refused_and_not_deleted(tmp_path: Path, entry: str) -> None:
    target = victim(tmp_path)
    out = tmp_path / "out"
    write_bundle(BUNDLE, str(out))
    edit_manifest(out, entry.format(abs=target))
    with pytest.raises(UsageError, match=r"refusing to write or delete .*victim\.txt.* listed in .*gpuscope-bundle"):
        write_bundle(BUNDLE, str(out))
    assert target.read_text() == "precious"


def test_a_symbolic_link_out_of_the_output_is_not_followed_to_delete(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "victim.txt").write_text("precious")
    out = tmp_path / "out"
    write_bundle(BUNDLE, str(out))
    (out / "old").symlink_to(outside)
    edit_manifest(out, "old/victim.txt")
    with pytest.raises(UsageError, match=r"outside .* \(through a symbolic link\)"):
        write_bundle(BUNDLE, str(out))
    assert (outside / "victim.txt").read_text() == "precious"


def test_a_symbolic_link_in_place_of_a_directory_is_not_written_through(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    (out / "rules").symlink_to(outside)
    with pytest.raises(UsageError, match=r"rules/b\.yaml"):
        write_bundle(BUNDLE, str(out))
    assert list(outside.iterdir()) == []


def test_stale_entries_inside_are_still_deleted_and_a_damaged_manifest_deletes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "out"
    write_bundle(Bundle.of({**BUNDLE.files, "gone.yml": "old\n"}), str(out))
    write_bundle(BUNDLE, str(out))
    assert not (out / "gone.yml").exists()
    (out / "mine.txt").write_text("mine")
    (out / MANIFEST).write_text('{"files": ["mine.txt"]')  # damaged JSON
    write_bundle(BUNDLE, str(out))
    (out / MANIFEST).write_text('["mine.txt"]')  # valid JSON, wrong type
    write_bundle(BUNDLE, str(out))
    assert (out / "mine.txt").read_text() == "mine"


def test_a_write_that_fails_half_way_leaves_the_old_bundle_and_names_the_file(tmp_path: Path) -> None:
    out = tmp_path / "out"
    old = Bundle.of({"a.yml": {"x": 1}, "z.yml": {"small": True}})
    write_bundle(old, str(out))
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    # A real I/O failure: the second file is larger than the process may write (RLIMIT_FSIZE), the first is not.
    # SIGXFSZ ignored: a write past the limit fails with EFBIG instead of killing. The child lifts the limit again
    # before it exits, or its coverage data could not be written.
    script = (
        "import resource, signal, sys\n"
        "from gpuscope.bundle import Bundle, write_bundle\n"
        "from gpuscope.errors import UsageError\n"
        "b = Bundle.of({'a.yml': {'x': 2}, 'z.yml': {'big': 'x' * 10000}})\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        "soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (4096, hard))\n"
        "try:\n    write_bundle(b, sys.argv[1])\n"
        "except UsageError as e:\n    print(e)\n    sys.exit(2)\n"
        "finally:\n    resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script, str(out)], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 2, result.stderr
    assert f"{out / 'z.yml'}: File too large" in result.stdout
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # old content, no staging directory left

"""The README's tour runs as pasted on a fresh clone after ``make up``: every command it shows starts with
something that exists then (a make target, the virtualenv's activate script, a gpuscope command once activated),
and what it writes lands where git ignores it."""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

from gpuscope.cli import root_command

ROOT = Path(__file__).resolve().parents[1]


def tour_commands() -> list[list[str]]:
    """The shell commands of the README's tour section, in order, comments dropped and continuations joined."""
    text = (ROOT / "README.md").read_text()
    section = text.split("## A three-minute tour", 1)[1].split("\n## ", 1)[0]
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", section, flags=re.S):
        for line in block.replace("\\\n", " ").splitlines():
            words = shlex.split(line, comments=True)
            if words:
                commands.append(words)
    return commands


def make_targets() -> set[str]:
    return set(re.findall(r"^([a-z][\w-]*):", (ROOT / "Makefile").read_text(), flags=re.M))


def test_every_tour_command_starts_with_something_that_exists_after_make_up() -> None:
    venv = re.search(r"^VENV \?= (\S+)$", (ROOT / "Makefile").read_text(), flags=re.M)
    assert venv, "the Makefile names the virtualenv make up creates"
    commands = tour_commands()
    assert commands[0] == ["make", "up"]
    gpuscope = root_command().commands
    activated = False
    for words in commands:
        match words:
            case ["make", target, *_]:
                assert target in make_targets(), words
            case ["." | "source", script]:
                assert script == f"{venv[1]}/bin/activate", words  # where make up puts gpuscope
                activated = True
            case ["gpuscope", command, *_]:
                assert activated, f"{shlex.join(words)}: gpuscope is not on the PATH yet (activate the venv first)"
                assert command in gpuscope, words
            case ["mkdir", "-p", directory]:
                assert directory
            case _:
                raise AssertionError(f"the README's tour runs {shlex.join(words)}, which a fresh clone may not have")


def test_what_the_tour_writes_stays_out_of_the_repository() -> None:
    written = [words[words.index("-o") + 1] for words in tour_commands() if "-o" in words]
    assert written, "the tour's report command writes a file"
    for path in written:
        ignored = subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT, check=False)
        assert ignored.returncode == 0, f"{path}: the tour would leave it in the repository (write under build/)"
        made = [w for w in tour_commands() if w[:2] == ["mkdir", "-p"] and Path(path).parent == Path(w[2])]
        assert made or Path(path).parent == Path(), f"{path}: its directory may not exist on a fresh clone"

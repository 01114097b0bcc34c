"""One meaning of a listen address for every command that listens: ``:PORT`` is every interface (IPv4 and IPv6),
``[IPv6]:PORT`` an IPv6 address, and a bad value is one line naming it."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from gpuscope.httpd.listen import ListenAddress, ListenAddressError, parse_listen
from tests.support.net import free_port, wait_for


@pytest.mark.parametrize(
    ("text", "address", "shown"),
    [
        (":9400", ListenAddress("", 9400), ":9400"),
        ("0.0.0.0:9400", ListenAddress("0.0.0.0", 9400), "0.0.0.0:9400"),
        ("127.0.0.1:3300", ListenAddress("127.0.0.1", 3300), "127.0.0.1:3300"),
        ("node-1.example:9450", ListenAddress("node-1.example", 9450), "node-1.example:9450"),
        ("[::1]:3300", ListenAddress("::1", 3300), "[::1]:3300"),
        ("[::]:9400", ListenAddress("::", 9400), "[::]:9400"),
        (" :9400 ", ListenAddress("", 9400), ":9400"),
    ],
)
def test_the_forms_of_a_listen_address(text: str, address: ListenAddress, shown: str) -> None:
    assert parse_listen(text) == address
    assert str(address) == shown


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("9400", "expected host:port, :port (every interface) or [IPv6]:port, with a port from 1 to 65535"),
        (":0", "with a port from 1 to 65535"),
        (":65536", "with a port from 1 to 65535"),
        ("host:http", "with a port from 1 to 65535"),
        ("::1:9400", "an IPv6 address goes in brackets, e.g. [::1]:9400"),
        ("[::1]9400", "with a port from 1 to 65535"),
        ("[nope]:9400", "'nope' is not an IPv6 address"),
        ("a b:9400", "'a b' is not a host name or address"),
    ],
)
def test_a_bad_listen_address_names_the_value_and_the_forms(text: str, why: str) -> None:
    with pytest.raises(ListenAddressError) as caught:
        parse_listen(text)
    message = str(caught.value)  # the library's words: the parameter is ``listen``
    assert message.startswith(f"listen {text!r}: ") and why in message and "\n" not in message
    assert caught.value.worded({"listen": "--listen"}) == f"--{message}"  # the CLI's: the flag


def _answers(url: str) -> bool:
    with contextlib.suppress(httpx.HTTPError):
        httpx.get(url, timeout=2)
        return True
    return False


def _argv(command: str, address: str, tmp: Path) -> tuple[list[str], str]:
    """Each command that listens, started on ``address``, and the path that answers once it listens."""
    gpuscope = [sys.executable, "-m", "gpuscope"]
    if command == "exporter":
        return [*gpuscope, "exporter", "--backend", "sim", "-a", address], "/health"
    if command == "console":
        return [
            *gpuscope,
            "console",
            "--bundle",
            str(tmp),
            "--prometheus",
            "http://127.0.0.1:9",
            "--listen",
            address,
        ], "/"
    policy = tmp / "policy.yaml"
    policy.write_text("clusters:\n  - name: gpu-k\n    kind: slurm\n")
    audit = tmp / "audit.jsonl"
    return [*gpuscope, "remediate", f"--policy={policy}", f"--listen={address}", f"--audit-log={audit}"], "/-/ready"


@contextlib.contextmanager
def _running(argv: list[str], log: Path) -> Iterator[subprocess.Popen[bytes]]:
    with log.open("wb") as out:
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT)
    try:
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


@pytest.mark.e2e
@pytest.mark.parametrize(
    ("command", "every_interface"),
    [("exporter", True), ("console", True), ("remediate", True), ("console", False)],
    ids=["exporter-port", "console-port", "remediate-port", "console-ipv6"],  # [::1] was refused by the console only
)
def test_every_command_serves_port_alone_on_every_interface_and_brackets_on_ipv6(
    command: str, every_interface: bool, tmp_path: Path
) -> None:
    port = free_port()
    argv, path = _argv(command, f":{port}" if every_interface else f"[::1]:{port}", tmp_path)
    with _running(argv, tmp_path / "log") as proc:
        wait_for(lambda: _answers(f"http://[::1]:{port}{path}") or proc.poll() is not None, what=command)
        assert proc.poll() is None, (tmp_path / "log").read_text()
        with socket.socket() as v4:
            reached = v4.connect_ex(("127.0.0.1", port)) == 0
        assert reached is every_interface  # :PORT is IPv4 too; [::1] alone is not


@pytest.mark.parametrize(
    "argv",
    [
        ["exporter", "-a", "::1:9400"],
        ["console", "--prometheus", "http://127.0.0.1:9", "--listen", "::1:9400"],
        ["remediate", "--policy=/nonexistent", "--listen", "::1:9400"],
    ],
    ids=["exporter", "console", "remediate"],
)
def test_every_command_refuses_a_bad_address_in_one_line_naming_it(argv: list[str]) -> None:
    done = subprocess.run([sys.executable, "-m", "gpuscope", *argv], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert "'::1:9400': expected host:port, :port (every interface) or [IPv6]:port" in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr

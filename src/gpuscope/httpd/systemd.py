"""``--web-systemd-socket``: serve on the listening socket systemd passes (socket activation).

systemd hands inherited sockets over as file descriptors 3, 4, ... and says how many in ``LISTEN_FDS``, and for
which process in ``LISTEN_PID``. Both variables are removed once read, so a child never takes the sockets for its
own. The sockets replace ``-a/--address``.
"""

from __future__ import annotations

import os
import socket
import stat
from collections.abc import MutableMapping

from gpuscope.errors import UsageError

FIRST_FD = 3
_FIX = "start the exporter from a systemd .socket unit, or drop the flag and use {address}"


def inherited_sockets(env: MutableMapping[str, str] | None = None, pid: int | None = None) -> list[socket.socket]:
    """The listening TCP sockets passed by systemd; anything else is one clear ``UsageError``."""
    env = os.environ if env is None else env
    count_text = env.pop("LISTEN_FDS", "")
    owner = env.pop("LISTEN_PID", "")
    env.pop("LISTEN_FDNAMES", None)
    if not count_text:
        raise _refused("no socket was passed (LISTEN_FDS is not set)")
    if not count_text.isdigit() or int(count_text) < 1:
        raise _refused(f"LISTEN_FDS={count_text!r} is not a positive number")
    if owner and owner != str(os.getpid() if pid is None else pid):
        raise _refused(f"the sockets were passed to process {owner}, not this one")
    sockets = []
    for fd in range(FIRST_FD, FIRST_FD + int(count_text)):
        try:
            mode = os.fstat(fd).st_mode
        except OSError as exc:
            raise _refused(f"file descriptor {fd} cannot be read ({exc.strerror})") from None
        if not stat.S_ISSOCK(mode):
            raise _refused(f"file descriptor {fd} is not a socket")
        sock = socket.socket(fileno=fd)
        if sock.type != socket.SOCK_STREAM or sock.family not in (socket.AF_INET, socket.AF_INET6):
            sock.detach()
            raise _refused(f"file descriptor {fd} is not a TCP socket; use ListenStream=HOST:PORT")
        if not sock.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN):
            sock.detach()
            raise _refused(f"file descriptor {fd} is not listening")
        sock.setblocking(False)
        sockets.append(sock)
    return sockets


def _refused(problem: str) -> UsageError:
    """One line naming the flag (``{web_systemd_socket}``, with its env var where the CLI words it) and the fix."""
    return UsageError(f"{{web_systemd_socket}}: {problem}; {_FIX}").naming("web_systemd_socket", "address")

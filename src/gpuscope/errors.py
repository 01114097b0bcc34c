"""The gpuscope error tree.

Every failure a user can cause or fix is one of these; the CLI prints ``str(error)`` as one line and exits
with ``error.exit_code``. Nothing below the CLI calls ``sys.exit``::

    GpuscopeError                 exit 1 unless said otherwise
    ├── UsageError                exit 2: bad flag, bad file, bad value — the message names it and the fix
    │   ├── SpecError             exit 2: bad input file, located as ``path:line[:col]``
    │   └── InvalidValue          exit 2: one parameter's value, by the library's name; the CLI names its flag
    ├── EnvironmentProblem        exit 2: the machine lacks something (port taken, binary missing)
    ├── AuditError                exit 3: ``gpuscope doctor`` could not audit (unreachable, 401, TLS, no GPU data)
    └── ApiError                  exit 3: an HTTP API (Prometheus, Alertmanager) gave no usable answer (gpuscope.prom)
        ├── EndpointDown          refused, timed out, 5xx: what a check may report as its finding
        ├── ApiUnusable           cannot talk to it as configured: TLS, 401/403, not that API, too big, wrong shape
        └── QueryFailed           the server refused one query (400/422) or answered another result type

Failed reads of one GPU or one field are *not* errors: they are recorded in the snapshot and exported.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Self


class GpuscopeError(Exception):
    """Base class; ``str()`` is the one line shown to the user.

    The library words its messages by its own names for parameters, never by command-line flags, so the console
    and the runner can reuse them: a message names a parameter as ``{name}`` and lists it in ``refs``
    (``naming``). ``str()`` writes the library's name there; the CLI, which knows each parameter's flag, writes
    the flag (``worded``). Only the names in ``refs`` are replaced: a ``{`` elsewhere (in a quoted value) stays.
    """

    exit_code = 1
    refs: tuple[str, ...] = ()  # the parameters the message names as ``{name}``

    def __str__(self) -> str:
        return self.worded({})

    def worded(self, names: Mapping[str, str]) -> str:
        """The line with each parameter in ``refs`` called as ``names`` calls it (the CLI: by its flag)."""
        text = super().__str__()
        for ref in self.refs:
            text = text.replace("{" + ref + "}", names.get(ref, ref))
        # One line whatever the message quotes: a key or value from a hostile file may hold line breaks.
        return one_line(text)

    @property
    def template(self) -> str:
        """The message before it is worded, its parameters still ``{name}``: for re-raising it as another kind
        (``AuditError(exc.template).naming(*exc.refs)``), so that the CLI still words it."""
        return super().__str__()

    def naming(self, *refs: str) -> Self:
        """This error, its message naming the parameters ``refs`` as ``{name}``: ``raise
        EnvironmentProblem("cannot listen on :80 ({listen}): ...").naming("listen")``."""
        self.refs = refs
        return self


def one_line(text: str) -> str:
    """``text`` with line breaks and other control characters written as escapes (``\\n``)."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


class UsageError(GpuscopeError):
    """The user asked for something invalid; the message says what and how to fix it."""

    exit_code = 2


class SpecError(UsageError):
    """A problem in an input file, located as ``path:line[:col]: message``."""

    def __init__(self, path: str, line: int | None, message: str, column: int | None = None) -> None:
        self.path = path
        self.line = line
        self.column = column
        self.message = message
        where = path
        if line is not None:
            where += f":{line}"
            if column is not None:
                where += f":{column}"
        super().__init__(f"{where}: {message}")


class InvalidValue(UsageError):
    """One parameter's value is wrong: ``field`` (the library's name for the parameter, e.g. ``group_by``), ``value``
    (as the message shows it: quoted or not, "" for none) and ``problem`` (what is wrong and the fix). The line is
    ``group_by 'owner': choose one of ...`` (``--group-by 'owner': ...`` from the CLI); a problem that names its own
    field (``{start} must be before {end}``, refs ``("start", "end")``) is the whole line.
    """

    def __init__(self, field: str, value: str, problem: str, *, refs: tuple[str, ...] = ()) -> None:
        self.field = field
        self.value = value
        self.problem = problem
        self.whole = field in refs  # the problem is the whole line
        super().__init__(problem)
        self.refs = tuple(dict.fromkeys((field, *refs)))

    @property
    def template(self) -> str:
        if self.whole:
            return self.problem
        return f"{{{self.field}}} {self.value}: {self.problem}" if self.value else f"{{{self.field}}}: {self.problem}"

    def worded(self, names: Mapping[str, str]) -> str:
        problem = super().worded(names)  # the value is not in it: a "{group_by}" given as a value stays as given
        if self.whole:
            return problem
        name = names.get(self.field, self.field)
        return one_line(f"{name} {self.value}: {problem}" if self.value else f"{name}: {problem}")


class EnvironmentProblem(GpuscopeError):
    """Something outside gpuscope is missing or busy (a port, a binary, a permission)."""

    exit_code = 2


class AuditError(GpuscopeError):
    """``gpuscope doctor`` could not audit at all: its own exit code, so automation tells it from failed checks (2)."""

    exit_code = 3


class ApiError(GpuscopeError):
    """An HTTP API gpuscope reads (Prometheus, Alertmanager, the global store) gave no usable answer.

    ``str()`` is ``"<where>: <reason>"``: the flag and URL it came from (``--prometheus http://p:9090``), then what
    happened and, where the user can do something, the fix. Callers that name the endpoint themselves (the doctor's
    "replica B ... does not answer: <reason>") use ``reason`` alone; a problem with no endpoint yet (an unreadable
    --ca-file) has an empty ``where``.

    Exit 3, as the doctor's ``AuditError``: the same mistake (a wrong or unreachable URL, a 401) ends every command
    with the same code, and the doctor cannot use 1 or 2 (its warnings and failed checks).
    """

    exit_code = 3

    def __init__(self, where: str, reason: str) -> None:
        self.where = where
        self.reason = reason
        super().__init__(f"{where}: {reason}" if where else reason)


class EndpointDown(ApiError):
    """The endpoint did not answer usefully: refused, no answer within the deadline, 5xx."""


class ApiUnusable(ApiError):
    """gpuscope cannot talk to the endpoint as configured: TLS, 401/403, not that API, a redirect, an answer
    too big or of the wrong shape. Retrying does not help; the message says which flag to change."""


class QueryFailed(ApiError):
    """The server refused one query (bad PromQL, its own timeout) or answered another result type."""

"""Escaping at the boundary: one function per language a spec or server value is written into.

A value from a fleet spec, a flag or a server's answer that ends up inside generated text is escaped for that
text's language here and nowhere else, so a model name like ``H100", instance="none`` stays one string:

- PromQL string literals (``promql_string``, ``promql_string_content``): Go's escapes, as PromQL unquotes them;
- PromQL (RE2) regular expressions (``promql_regex``, ``promql_alternation``): every metacharacter quoted, as Go's
  ``regexp.QuoteMeta``; the result still needs ``promql_string_content`` to sit between quotes;
- Go templates (``go_template_text``): Prometheus annotations and Alertmanager's templated fields expand ``{{``;
- HTTP header values (``header_value``): there is no escape for CR, LF or NUL, so they are refused;
- regular expressions given by a user (``re2_pattern``): checked with RE2, the engine Prometheus (Go's regexp)
  and the exporter use, so a pattern Prometheus would refuse is refused where it is written.

YAML and JSON need no function of their own: every bundle file is a data structure serialised by
``bundle.serialize`` (PyYAML's safe dumper, ``json.dumps``), never text pasted together, so any string survives
as itself; ``tests/hostile/test_escaping.py`` checks that with the same hostile values.
"""

from __future__ import annotations

from collections.abc import Iterable

_RE2_META = frozenset("\\.+*?()|[]{}^$")
_STRING_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_TEMPLATE_OPEN = "{{"


def promql_string_content(value: str) -> str:
    """``value`` escaped to sit between the double quotes of a PromQL string."""
    out = []
    for ch in value:
        if ch in _STRING_ESCAPES:
            out.append(_STRING_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(ch)
    return "".join(out)


def promql_string(value: str) -> str:
    """A double-quoted PromQL string literal whose value is exactly ``value``."""
    return f'"{promql_string_content(value)}"'


def promql_regex(value: str) -> str:
    """An RE2 pattern matching exactly ``value`` (PromQL anchors it)."""
    return "".join("\\" + ch if ch in _RE2_META else ch for ch in value)


def promql_alternation(values: Iterable[str | int]) -> str:
    """``a|b|c`` of literal values, escaped as a regex and then for the inside of a PromQL string."""
    return promql_string_content("|".join(promql_regex(str(v)) for v in values))


def go_template_text(value: str) -> str:
    """``value`` as literal text in a Go template: each ``{{`` becomes an action that prints ``{{``."""
    return value.replace(_TEMPLATE_OPEN, '{{ "{{" }}')


def first_non_header_char(value: str) -> str | None:
    """The first character that cannot stand in an HTTP header value, or None."""
    return next((c for c in value if not (" " <= c <= "~" or c == "\t")), None)


def header_value(value: str) -> str:
    """``value`` if it can be an HTTP header value as it is; ``ValueError`` naming the character otherwise.

    One line of printable ASCII (tab allowed): CR/LF would split the response or request, and bytes past ASCII
    are read differently by different HTTP stacks.
    """
    bad = first_non_header_char(value)
    if bad is not None:
        raise ValueError(
            f"{value!r} cannot be an HTTP header value: it contains {bad!r} (a header value is one line of printable "
            "ASCII)"
        )
    if value != value.strip():
        raise ValueError(f"{value!r} cannot be an HTTP header value: it starts or ends with white space")
    return value


def template_free(value: str, what: str) -> str:
    """``value`` if it holds no template syntax, line break or control character; ``ValueError`` otherwise.

    For values that are meant to be plain text where templates expand (a URL prefix in every alert's
    annotations): escaping them would change what users see, so they are refused instead.
    """
    if "{{" in value or "}}" in value:
        raise ValueError(f"{what} {value!r} contains template syntax ({{{{ or }}}}); remove it")
    if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in value):
        raise ValueError(f"{what} {value!r} contains a line break or control character; remove it")
    return value


def re2_pattern(value: str, what: str) -> str:
    """``value`` if RE2 compiles it alone and as PromQL wraps it (``^(?:value)$``); ``ValueError`` naming ``what``.

    Python's ``re`` accepts patterns RE2 refuses (lookarounds, backreferences) and refuses some RE2 accepts, so a
    pattern meant for Prometheus is checked with RE2 itself. Alone first: ``a)|(b`` compiles once wrapped, but only
    by breaking out of the anchors.
    """
    import re2  # here, not at import: the exporter imports this module and loads the engine only with an allowlist

    options = re2.Options()
    options.log_errors = False  # the error is ours to report, in one line; RE2 would also log it to stderr
    try:
        for pattern in (value, f"^(?:{value})$"):
            re2.compile(pattern, options)
    except re2.error as exc:
        reason = exc.args[0].decode("utf-8", "replace") if exc.args and isinstance(exc.args[0], bytes) else exc
        raise ValueError(
            f"{what} {value!r} is not a regular expression Prometheus accepts (RE2: {reason}); "
            "fix it or escape the character"
        ) from None
    return value

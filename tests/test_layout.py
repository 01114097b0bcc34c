"""The tests' own layout: shared helpers live in support modules, never in a test module or a conftest.

A helper imported from ``test_x.py`` drags that module's tests into the importer's namespace (pytest collects them
twice when names clash) and makes one test file's edit break another's; pytest's own docs say not to import a
conftest (under some import modes it is imported twice, as two different modules). So helpers shared beyond one
test package (or with bench/) live in tests/support/; a package's own helper modules (tests/rules/cases_*.py, the
fakes' modules) serve that package only; fixtures come from conftest.py by pytest's lookup, not by import.

There is one fake clock, tests/support/clock.py: a second one would drift from it (defaults, ``sleep``).
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def imported(source: str, module: str) -> set[str]:
    """Every module ``source`` (the text of ``module``) imports, as a dotted name; ``from a import b`` names both
    ``a`` and ``a.b`` (``b`` may be a module)."""
    package = module.rsplit(".", 1)[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def forbidden(names: set[str]) -> list[str]:
    """The imports that reach into a test module or a conftest under tests/."""
    return sorted(
        n
        for n in names
        if n.split(".")[0] == "tests" and any(p.startswith("test_") or p == "conftest" for p in n.split(".")[1:])
    )


def test_the_check_sees_every_spelling_of_an_import_from_a_test_module() -> None:
    source = """
import tests.test_cli
from tests.rules.test_rules import VARIANTS
from tests.rules import test_rules
from . import test_structure
from .conftest import RuntimeFactory
from ..exporter.conftest import Clock
from tests.support.cli import gpuscope
from tests.support.promtool import Case
from gpuscope.testing import test_thing
"""
    assert forbidden(imported(source, "tests.dashboards.test_live")) == [
        "tests.dashboards.conftest",
        "tests.dashboards.conftest.RuntimeFactory",
        "tests.dashboards.test_structure",
        "tests.exporter.conftest",
        "tests.exporter.conftest.Clock",
        "tests.rules.test_rules",
        "tests.rules.test_rules.VARIANTS",
        "tests.test_cli",
    ]


def test_no_module_under_tests_imports_a_test_module_or_a_conftest() -> None:
    offenders = {}
    for path in sorted([*TESTS.rglob("*.py"), *(ROOT / "bench").glob("*.py")]):  # bench/ borrows cases, not tests
        module = module_name(path)
        if bad := forbidden(imported(path.read_text(), module)):
            offenders[str(path.relative_to(ROOT))] = bad
    assert not offenders, f"move these helpers into tests/support/ or the package's support module: {offenders}"


# Shared by every package: the helpers, and the fake libraries (fake pynvml, libdcgm) tests load like the real ones.
SHARED = ("support", "fakenvml", "fakedcgm")


def cross_package(names: set[str], module: str) -> list[str]:
    """Imports of another test package's modules (``module``'s own package may use its own helpers)."""
    parts = module.split(".")
    own = parts[1] if parts[0] == "tests" and len(parts) > 2 else None
    return sorted(n for n in names if n.startswith("tests.") and n.split(".")[1] not in (*SHARED, own) and "." in n[6:])


def test_the_check_sees_a_helper_borrowed_from_another_package() -> None:
    source = (
        "from tests.generate.specs import fleet\nfrom tests.support.specs import ONE\nfrom tests.rules import cases_x\n"
    )
    assert cross_package(imported(source, "tests.hostile.test_fuzz"), "tests.hostile.test_fuzz") == [
        "tests.generate.specs",
        "tests.generate.specs.fleet",
        "tests.rules.cases_x",
    ]
    assert cross_package(imported(source, "tests.rules.test_rules"), "tests.rules.test_rules") == [
        "tests.generate.specs",
        "tests.generate.specs.fleet",
    ]


def test_helpers_shared_beyond_their_package_live_in_tests_support() -> None:
    offenders = {}
    for path in sorted(TESTS.rglob("*.py")):
        module = module_name(path)
        if bad := cross_package(imported(path.read_text(), module), module):
            offenders[str(path.relative_to(ROOT))] = bad
    assert not offenders, f"move these helpers into tests/support/: {offenders}"


def test_the_one_fake_clock_is_tests_support_clock() -> None:
    clocks = {
        f"{path.relative_to(ROOT)}:{node.name}"
        for path in sorted(TESTS.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ClassDef) and node.name.endswith(("Clock", "Ticker", "Time"))
    }
    assert clocks == {"tests/support/clock.py:FakeClock"}, "use tests.support.clock.FakeClock"

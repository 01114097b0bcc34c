"""docs/architecture.md's module map is the tree: every module under ``src/gpuscope`` is named in its package's
section, and every module a section names exists. A new module without a line there fails ``make test``; so does a
line left behind by a removed one."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "gpuscope"
DOC = ROOT / "docs" / "architecture.md"


def _sections() -> dict[str, str]:
    """Module-map section text by the package directory it describes ("" for the top level)."""
    text = DOC.read_text(encoding="utf-8")
    body = text.split("\n## Module map\n", 1)[1].split("\n## ", 1)[0]
    sections: dict[str, str] = {}
    for chunk in re.split(r"^### ", body, flags=re.M)[1:]:
        heading, _, rest = chunk.partition("\n")
        named = re.match(r"`([a-z_]+)/`", heading)
        sections["" if heading.startswith("Top level") else named.group(1) if named else heading] = rest
    return sections


def _named(sections: dict[str, str]) -> set[Path]:
    """Every ``name.py`` (or ``sub/name.py``) a section names, as a path under the package."""
    out = set()
    for package, text in sections.items():
        for token in re.findall(r"`([A-Za-z0-9_/]+\.py)`", text):
            if token.startswith("tests/"):
                continue  # a test named beside the module it checks
            rooted = token.split("/", 1)[0] in _packages() and not (PACKAGE / package / token).exists()
            out.add(Path(token) if rooted or not package else Path(package, token))
    return out


def _packages() -> set[str]:
    return {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}


def _modules() -> set[Path]:
    return {p.relative_to(PACKAGE) for p in PACKAGE.rglob("*.py") if "_pb2" not in p.name}


def test_every_module_is_in_the_map() -> None:
    named = _named(_sections())
    missing = sorted(str(m) for m in _modules() - named if m.name != "__init__.py")
    assert not missing, f"modules missing from docs/architecture.md's module map: {missing}"


def test_every_module_the_map_names_exists() -> None:
    stale = sorted(str(m) for m in _named(_sections()) - _modules())
    assert not stale, f"docs/architecture.md's module map names modules that do not exist: {stale}"


def test_every_package_has_a_section() -> None:
    packages = _packages()
    assert packages <= set(_sections()), f"packages without a module-map section: {sorted(packages - set(_sections()))}"


# The dashboards' layout modules lay panels out; their PromQL lives in dashboards/queries/ (docs/architecture.md).
_LAYOUTS = ("fleet", "cluster", "node", "gpu", "workload", "workload_groups", "pipeline", "efficiency", "host")
_PROMQL = re.compile(
    r"\b(?:sum|max|min|avg|count|topk|bottomk|rate|increase|irate|\w+_over_time)\s*(?:by|without)?\s*\("
)


def test_dashboard_layouts_write_no_promql() -> None:
    found = []
    for name in (*_LAYOUTS, "shared_gpus"):
        path = PACKAGE / "dashboards" / f"{name}.py"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Constant) or id(node) in docstrings:
                continue
            if isinstance(text := node.value, str) and _PROMQL.search(text):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {text[:60]!r}")
    assert found == [], "PromQL in a layout module (move it to dashboards/queries/):\n" + "\n".join(found)

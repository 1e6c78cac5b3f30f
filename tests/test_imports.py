"""The packages' imports, read from their source: no cycle, and the observing side never names the
trusted one (``answer_key``) in an import statement."""

from __future__ import annotations

import ast
from pathlib import Path

from autograder.pipeline.course import ROOT

PACKAGES = ("autograder", "answer_key", "autograd_figures")


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package modules ``name`` imports anywhere in its source (inside functions too: a
    deferred import is still a dependency)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            targets += [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
    found = set()
    for target in targets:
        while target and target not in known:
            target = target.rpartition(".")[0]
        if target and target != name and not name.startswith(target + "."):
            found.add(target)
    return found


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected set of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for after in sorted(edges[node]):
            if after not in index:
                visit(after)
                low[node] = min(low[node], low[after])
            elif after in stack:
                low[node] = min(low[node], index[after])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle() -> None:
    assert cycles(graph()) == []


# The judging half of a learner's ``grade(...)``: it judges against the keys where they are
# installed (an instructor's kernel) and against the visible keys shipped as data elsewhere.
JUDGES_IN_A_KERNEL = "autograder.kernel"


def test_the_observing_side_never_imports_the_keys() -> None:
    """What the sandbox loads (``autograder`` without its pipeline) names no ``answer_key`` module
    but in the kernel's judging half; the trials' one lookup goes through ``importlib``, where the
    keys exist (the sandbox hides them)."""
    observing = {name: after for name, after in graph().items() if name.startswith("autograder")
                 and not name.startswith("autograder.pipeline") and name != JUDGES_IN_A_KERNEL}
    assert observing
    assert {name: sorted(a for a in after if a.startswith("answer_key")) for name, after in observing.items()
            if any(a.startswith("answer_key") for a in after)} == {}

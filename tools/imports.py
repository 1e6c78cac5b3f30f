"""The course's packages as their imports say they are: modules, the imports between them, the
cycles among them, and the parts they make up (the picture in ``ARCHITECTURE.md``).

``python -m tools.imports`` prints that picture (``make architecture`` writes it into the page).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
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



#: The parts, by module name pattern (first match wins), in the order the picture lists them: each
#: part is a folder, except the command line and the course folders at the pipeline's top.
PARTS = (
    ("command line", r"autograder\.pipeline\.cli$"),
    ("course folders", r"autograder\.pipeline(\.(course|progress))?$"),
    ("site", r"autograder\.pipeline\.site(\..*)?$"),
    ("intake", r"autograder\.pipeline\.intake(\..*)?$"),
    ("sandbox", r"autograder\.pipeline\.sandbox(\..*)?$"),
    ("trusted checker", r"autograder\.pipeline\.grading(\..*)?$"),
    ("gradebook", r"autograder\.pipeline\.gradebook(\..*)?$"),
    ("chapters' cases", r"autograder\.chapters(\..*)?$"),
    ("engine", r"autograder\.engine(\..*)?$"),
    ("grade() and judging", r"autograder(\.(judging|kernel|startup))?$"),
    ("answer key", r"answer_key(\..*)?$"),
    ("figures", r"autograd_figures(\..*)?$"),
)


def part_of(module: str) -> str:
    return next(part for part, pattern in PARTS if re.match(pattern, module))


def parts() -> dict[str, set[str]]:
    """Which part imports which, from the modules' imports."""
    edges: dict[str, set[str]] = {part: set() for part, _ in PARTS}
    for module, after in graph().items():
        edges[part_of(module)] |= {part_of(a) for a in after} - {part_of(module)}
    return edges


def mermaid() -> str:
    """The parts and their imports as a Mermaid flowchart (an arrow reads "imports")."""
    ids = {part: f"p{index}" for index, (part, _) in enumerate(PARTS)}
    lines = ["```mermaid", "flowchart TD"]
    lines += [f'    {ids[part]}["{part}"]' for part, _ in PARTS]
    lines += [f"    {ids[part]} --> {ids[after]}" for part, _ in PARTS
              for after in sorted(parts()[part], key=list(ids).index)]
    return "\n".join([*lines, "```"])


if __name__ == "__main__":
    print(mermaid())

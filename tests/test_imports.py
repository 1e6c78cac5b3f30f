"""The packages' imports, read from their source: no cycle, the observing side never names the
trusted one (``answer_key``) in an import statement, and the architecture page draws them as they are."""

from __future__ import annotations

from tools.imports import ROOT, cycles, graph, mermaid


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


def test_the_architecture_page_draws_the_imports_as_they_are() -> None:
    """``ARCHITECTURE.md``'s picture is the one the imports make (``make architecture`` redraws it)."""
    assert mermaid() in (ROOT / "ARCHITECTURE.md").read_text(), "run `make architecture`"

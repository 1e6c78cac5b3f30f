"""Start-up: the command line's help imports nothing heavy, and no process of the environment pays
for building rfc3987_syntax's parser before an IRI is checked (validation unchanged)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from autograder.pipeline.course import ROOT

HEAVY = ("torch", "nbgrader", "nbformat", "matplotlib", "jsonschema", "sqlalchemy", "numpy", "IPython")
COMMANDS = ["", "release", "book", "collect", "grade", "feedback", "export", "report", "day", "normalize"]


def _imported(*args: str) -> set[str]:
    """Top-level modules a fresh interpreter imports to run ``args``."""
    result = subprocess.run([sys.executable, "-X", "importtime", *args], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr[-2000:]
    return {line.split("|")[-1].strip() for line in result.stderr.splitlines() if line.startswith("import time:")}


@pytest.mark.parametrize("command", COMMANDS)
def test_help_imports_nothing_heavy(command: str) -> None:
    imported = _imported("-m", "autograder.pipeline.cli", *([command] if command else []), "--help")
    assert "autograder.pipeline.course" in imported  # the command line ran (as __main__)
    assert not {m.split(".")[0] for m in imported} & set(HEAVY), sorted(m for m in imported if m.split(".")[0] in HEAVY)


def test_every_process_of_the_environment_defers_the_iri_parser() -> None:
    imported = _imported("-c", "import nbformat, jsonschema")
    assert "nbformat" in imported and "jsonschema" in imported
    assert "rfc3987_syntax.syntax_helpers" not in imported, "run `make setup` (it installs the start-up)"
    # The start-up runs without importing the package, which a kernel imports once IPython runs.
    assert "autograder" not in imported


IRIS = ["http://example.com/ü", "http://exa mple.com", "#frag", "no scheme", "urn:isbn:0451450523",
        "http://[::1]:8080/a?b#c", "http://[::1/", "", "mailto:ada@example.edu", "ftp://a/%zz"]


def test_iri_checks_answer_as_rfc3987_syntax_does() -> None:
    script = (
        "import json, sys, jsonschema\n"
        "checker = jsonschema.FormatChecker()\n"
        f"values = {IRIS!r}\n"
        "answers = [[checker.conforms(v, f) for f in ('iri', 'iri-reference')] for v in values]\n"
        "print(json.dumps([type(sys.modules['rfc3987_syntax']).__name__, answers]))\n"
    )
    deferred = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    kind, answers = json.loads(deferred.stdout)
    assert kind == "module", "the stand-in gave way to the real module when an IRI was checked"
    # Without the start-up (-S skips site's .pth files): rfc3987_syntax imported as jsonschema does it.
    direct = subprocess.run([sys.executable, "-S", "-c", "import sys; sys.path[:0] = sys.argv[1:]\n" + script,
                             *[p for p in sys.path if p.endswith("site-packages")], str(ROOT)],
                            capture_output=True, text=True, check=True)
    assert json.loads(direct.stdout)[1] == answers
    assert answers[0] == [True, True] and answers[1] == [False, False] and answers[2] == [False, True]

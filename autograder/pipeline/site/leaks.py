"""Find solution code or hidden tests where learners could read them."""

from __future__ import annotations

import html
import keyword
import re
from dataclasses import dataclass
from pathlib import Path

from autograder.pipeline.course import read_notebook

HIDDEN_TESTS_BEGIN = "BEGIN HIDDEN TESTS"
REGIONS = (("BEGIN SOLUTION", "END SOLUTION"), (HIDDEN_TESTS_BEGIN, "END HIDDEN TESTS"))
MARKERS = (*(marker for region in REGIONS for marker in region), "hidden=True")
READABLE_SUFFIXES = {".html", ".js", ".json", ".txt", ".ipynb", ".md", ".py"}


@dataclass(frozen=True)
class Leak:
    """A secret line found in a published file."""

    path: Path
    line: str


def secret_lines(source: Path, *student_editions: Path, min_length: int = 8) -> set[str]:
    """Lines of solution and hidden-test regions that no student edition contains.

    Text a student edition shows anyway (a template in the instructions, or ordinary code that
    another chapter teaches in the open, even inline in prose) is not secret.
    """
    public = "\n".join(cell.source for edition in student_editions for cell in read_notebook(edition).cells)
    secrets = set()
    for cell in read_notebook(source).cells:
        inside = False
        for line in cell.source.splitlines():
            if any(begin in line for begin, _ in REGIONS):
                inside = True
            elif any(end in line for _, end in REGIONS):
                inside = False
            elif inside and len(line.strip()) >= min_length and line.strip() not in public and not _generic(line):
                secrets.add(line.strip())
    return secrets


def _generic(line: str) -> bool:
    """A line made only of keywords and constants (``return True``, ``else: pass``) gives nothing
    away, and prose says the same words ("must return True")."""
    return all(keyword.iskeyword(word) for word in re.findall(r"[A-Za-z_]\w*", line))


def find_leaks(published: Path, secrets: set[str]) -> list[Leak]:
    """Every published text file that shows a secret line or a solution/hidden-test marker."""
    leaks = []
    needles = set(secrets) | set(MARKERS)
    for path in sorted(published.rglob("*")):
        if not path.is_file() or path.suffix not in READABLE_SUFFIXES:
            continue
        raw = path.read_text(errors="replace")
        text = html.unescape(raw)
        if path.suffix == ".html":
            # Highlighted code splits a line into many <span>s: read the text as shown, too.
            text += "\n" + html.unescape(re.sub(r"<[^>]+>", "", raw))
        leaks += [Leak(path, needle) for needle in sorted(needles) if needle in text]
    return leaks

"""The chapters' prose says each thing once: no markdown cell repeats a sentence."""

from __future__ import annotations

import re

import pytest

from autograder.pipeline.course import Course, read_notebook

COURSE = Course()
# Two sentences of one cell that open with the same words say the same thing twice
# ("The graded reproduction is ..." and, further down, "The graded reproduction is ...").
OPENING_WORDS = 4
# Paragraphs that are not running text: list items, headings, tables, quotes, directives, maths.
NOT_PROSE = re.compile(r"^\s*([-*+]\s|\d+\.\s|#|\||>|:::|\$\$)")


def sentences(markdown: str) -> list[str]:
    """The sentences of a cell's running text, code blocks, lists and headings left out."""
    markdown = re.sub(r"^(`{3,}|~{3,}).*?^\1[ \t]*$", "", markdown, flags=re.S | re.M)
    found = []
    for paragraph in re.split(r"\n\s*\n", markdown):
        if not paragraph.strip() or NOT_PROSE.match(paragraph):
            continue
        text = " ".join(line.strip() for line in paragraph.splitlines())
        found += [s.strip() for s in re.split(r"(?<=[.!?])\s+(?=[A-Z*_`{\[])", text) if len(s.split()) >= OPENING_WORDS]
    return found


def repeated(markdown: str) -> list[tuple[str, str]]:
    """Pairs of sentences of one cell that are the same, or open with the same words."""
    seen: dict[str, str] = {}
    pairs = []
    for sentence in sentences(markdown):
        key = " ".join(re.findall(r"\w+", sentence.lower())[:OPENING_WORDS])
        if key in seen:
            pairs.append((seen[key], sentence))
        else:
            seen[key] = sentence
    return pairs


def test_the_check_finds_a_sentence_said_twice():
    cell = (
        "## 3. Reproduce\n\nThe graded reproduction is the companion assignment, released on its own.\n\n"
        "- a list item that is not a sentence;\n- a list item that is not a sentence;\n\n"
        "```python\nx = 1  # The graded reproduction is code here.\n```\n\n"
        "Warm-up, graded here. The graded reproduction is the closed-book companion, released after."
    )
    assert [first[:30] for first, _ in repeated(cell)] == ["The graded reproduction is the"]
    assert repeated("One thing is said here. Another thing is said there.") == []


@pytest.mark.parametrize("chapter", COURSE.chapters())
def test_no_markdown_cell_repeats_a_sentence(chapter):
    notebook = read_notebook(COURSE.source_notebook(chapter))
    found = [
        f"cell {index}: {first!r} / {second!r}"
        for index, cell in enumerate(notebook.cells)
        if cell.cell_type == "markdown"
        for first, second in repeated(cell.source)
    ]
    assert found == []

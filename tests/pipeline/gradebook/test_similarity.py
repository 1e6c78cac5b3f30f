"""Similar answers, for the instructor: a class of Chapter 1 whose learners each answered on their own
(the blind panel's right answers, the catalogue's, and ``similarity_class/``'s, about twenty per
exercise, in different spellings) stays below the threshold in every exercise, and one learner who
copied an answer of each exercise and disguised it (renamed variables, reordered independent
statements, rewritten comments, dead code added: ``similarity_class/copies/``) is the top pair of
every exercise, above it. Code the release gives is never counted, an earlier term's submissions
are compared with this term's, an unreadable notebook is named and the rest compared, and nothing
is written but the report."""

from __future__ import annotations

import csv
import importlib
from pathlib import Path

import nbformat
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autograder.engine.cases import exercises
from autograder.pipeline.cli import main
from autograder.pipeline.course import Course, nbgrader_meta
from autograder.pipeline.gradebook.similarity import NOISE, THRESHOLD, Answer, boilerplate, fingerprint, given_code
from tests.cases import student_edition_cells
from tests.conftest import released_copy
from tests.submissions import submit

CHAPTER = "views"
HERE = Path(__file__).parent / "similarity_class"
PANEL = Path(__file__).parents[2] / "panel"
# The answer each disguised copy in similarity_class/copies/ was made from: the blind panel's.
COPIED = {"views-strides": "right-rules-in-python", "views-classify": "right-grouped-loop",
          "views-classify-more": "right-strides-reasoned", "views-shares-storage": "right-defensive",
          "views-can-view": "right-prefix-products", "views-selftest": "right-torch-computed"}
COPIER = "zoe"


def independent_answers(grade_id: str) -> dict[str, str]:
    """The right answers written on their own, by label: the panel's, the catalogue's, ours."""
    found = {f"panel-{p.stem}": p.read_text() for p in sorted((PANEL / grade_id).glob("right-*.py"))}
    catalogue = importlib.import_module(f"tests.catalog.{CHAPTER}")
    found |= {f"catalogue-{label}": source for label, source in catalogue.RIGHT[grade_id]}
    found |= {f"own-{p.stem}": p.read_text() for p in sorted((HERE / grade_id).glob("*.py"))}
    return found


def learner(n: int) -> str:
    return f"s{n:02d}"


def the_class() -> tuple[dict[str, dict[str, str]], dict[str, str]]:
    """Each learner's answers by grade id (learner n wrote the n-th answer of every exercise),
    and the learner whose answer each copy was made from."""
    answers: dict[str, dict[str, str]] = {}
    sources = {}
    for grade_id in exercises(CHAPTER):
        for n, (label, source) in enumerate(independent_answers(grade_id).items()):
            answers.setdefault(learner(n), {})[grade_id] = source
            if label == f"panel-{COPIED[grade_id]}":
                sources[grade_id] = learner(n)
    answers[COPIER] = {g: (HERE / "copies" / f"{g}.py").read_text() for g in exercises(CHAPTER)}
    return answers, sources


def test_the_class_writes_about_twenty_right_answers_per_exercise() -> None:
    """Every answer of the test class, the copies too, passes every check, visible and hidden."""
    from tests.chapters.test_views_cases import TestViewsCases

    cases = TestViewsCases()
    for grade_id in exercises(CHAPTER):
        answers = independent_answers(grade_id)
        assert len(answers) >= 18, grade_id
        answers["copy"] = (HERE / "copies" / f"{grade_id}.py").read_text()
        for label, source in answers.items():
            for verdict in cases.verdicts(grade_id, cases.answer(grade_id, label, source)):
                assert verdict.message() is None, f"{grade_id} {label}: {verdict.message()}"


@pytest.fixture(scope="module")
def compared(tmp_path_factory):
    """The class submitted as notebooks of the real student edition, an earlier term beside it,
    and ``autograd-state similarity`` run on it."""
    course = released_copy(tmp_path_factory, tmp_path_factory.mktemp("similar") / "course", [CHAPTER])
    answers, sources = the_class()
    for student, cells in answers.items():
        submit(course, CHAPTER, student, cells)
    submit(course, CHAPTER, "untouched", {})
    broken = course.submitted / "broken" / CHAPTER / f"{CHAPTER}.ipynb"
    broken.parent.mkdir(parents=True)
    broken.write_text('{"cells": [')
    # An earlier term: one of its learners handed in the answers of one of this term's, whose no
    # answer was copied this term.
    again = next(s for s in answers if s not in sources.values() and s != COPIER)
    earlier = Course(course.root / "spring")
    handed_in = submit(course, CHAPTER, "former", answers[again]).parents[1]
    earlier.submitted.mkdir(parents=True)
    handed_in.rename(earlier.submitted / "former")
    before = {p for p in course.root.rglob("*") if p.is_file()}
    code = main(["--root", str(course.root), "similarity", CHAPTER, "--against", str(earlier.root)])
    assert code == 0
    written = {p for p in course.root.rglob("*") if p.is_file()} - before
    return course, sources, written, again


def _pairs(course: Course) -> list[dict[str, str]]:
    with (course.root / "reports" / CHAPTER / "similarity" / "pairs.csv").open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_independent_answers_stay_below_the_threshold_and_the_disguised_copy_is_on_top(compared) -> None:
    course, sources, _, _ = compared
    rows = _pairs(course)
    for grade_id in exercises(CHAPTER):
        this_term = [r for r in rows if "spring/former" not in (r["learner"], r["other"])]
        mine = sorted((r for r in this_term if r["exercise"] == grade_id), key=lambda r: -float(r["score"]))
        top = mine[0]
        assert {top["learner"], top["other"]} == {COPIER, sources[grade_id]}, (grade_id, top)
        assert float(top["score"]) >= THRESHOLD and top["stands_out"] == "yes", (grade_id, top)
        independent = [r for r in mine if COPIER not in (r["learner"], r["other"])]
        assert independent and all(float(r["score"]) < THRESHOLD for r in independent), \
            (grade_id, independent[:1])


def test_an_earlier_term_is_compared_with_this_one_never_with_itself(compared) -> None:
    course, _, _, again = compared
    rows = _pairs(course)
    former = [r for r in rows if "spring/former" in (r["learner"], r["other"]) and float(r["score"]) >= THRESHOLD]
    assert {frozenset((r["learner"], r["other"])) for r in former} == {frozenset((again, "spring/former"))}
    assert "overall" in {r["exercise"] for r in former}
    assert not [r for r in rows if r["learner"].startswith("spring/") and r["other"].startswith("spring/")]


def test_the_release_and_unreadable_notebooks_are_not_compared_and_nothing_else_is_written(compared, capsys) -> None:
    course, _, written, _ = compared
    rows = _pairs(course)
    assert not [r for r in rows if "untouched" in (r["learner"], r["other"])], "the release's code counts for nothing"
    folder = course.root / "reports" / CHAPTER / "similarity"
    assert written == {folder / "index.html", folder / "pairs.csv"}, "no feedback, no gradebook, no grade"
    page = (folder / "index.html").read_text()
    assert "broken: corrupt notebook" in page and "never a verdict" in page


def test_every_marked_fragment_is_shared_code_the_release_does_not_give(compared) -> None:
    """On the page, every marked fragment of the copy is, once normalised, code of the answer it
    was copied from; the release's code is never marked."""
    import re

    course, sources, _, _ = compared
    page = (course.root / "reports" / CHAPTER / "similarity" / "index.html").read_text()
    sections = re.findall(r"<section id='(e\d+-\d+)'.*?</section>", page, flags=re.S)
    assert len(sections) >= len(COPIED)
    release = "\n".join(student_edition_cells(CHAPTER).values())
    for block in re.findall(r"<section id='e\d+-\d+'.*?</section>", page, flags=re.S):
        marked = re.findall(r"<mark><span class='tag'>\[(\d+)\]</span>(.*?)</mark>", block, flags=re.S)
        assert marked, "a pair that stands out shows what makes it stand out"
        sides = re.findall(r"<figure>.*?</figure>", block, flags=re.S)
        numbers = [{n for n, _ in re.findall(r"<mark><span class='tag'>\[(\d+)\]</span>(.*?)</mark>", side,
                                           flags=re.S)} for side in sides]
        assert numbers[1] <= numbers[0], "each fragment on the right is numbered as its match on the left"
        for _, text in marked:
            assert len(text.strip()) > 3 and text.strip() not in release


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_code_the_release_gives_is_never_counted(compared, data) -> None:
    """Answers made only of the student edition's code (its cells and the code blocks of its text,
    any of them, in any order) leave nothing to compare; beside a line of one's own, only what
    starts in that line is counted. (A piece shorter than a k-gram once normalised, such as
    ``t.T.view(16)``, is not recognised on its own: it is left out here.)"""
    from copydetect.utils import filter_code

    course, _, _, _ = compared
    edition, pieces, given_hashes = _given(course)
    pieces = [p for p in pieces if len(filter_code(p, "given.py", "python")[0]) >= NOISE]
    chosen = data.draw(st.lists(st.sampled_from(pieces), min_size=1, max_size=6))
    stub = next(c.source for c in edition.cells if nbgrader_meta(c).get("grade_id") == "views-can-view")
    answers = [Answer("ann", "views-can-view", "\n\n".join(chosen)),
               Answer("ben", "views-can-view", "\n".join([stub, *reversed(chosen)]))]
    assert fingerprint(answers, given_hashes) == {}
    own = "checked_with_my_own_helper = sorted(set(range(17)) - {3, 5})\n"
    counted = fingerprint([Answer("ann", "views-can-view", own + "\n".join(chosen))], given_hashes)
    starts = [i for where in counted["views-can-view"].prints["ann"].hash_idx.values() for i in where]
    assert starts and max(starts) < len(filter_code(own, "own.py", "python")[0])


_GIVEN: dict = {}


def _given(course: Course):
    """The student edition, the code it gives and their k-grams (computed once)."""
    if not _GIVEN:
        edition = nbformat.read(course.release_notebook(CHAPTER), as_version=4)
        _GIVEN["edition"] = (edition, given_code(edition), boilerplate(given_code(edition)))
    return _GIVEN["edition"]


def test_an_earlier_term_folder_without_the_chapter_is_one_line(tmp_path, capsys, compared) -> None:
    course, _, _, _ = compared
    empty = tmp_path / "autumn"
    empty.mkdir()
    assert main(["--root", str(course.root), "similarity", CHAPTER, "--against", str(empty)]) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]  # after the progress bar's line
    assert err.startswith("autograd-state similarity: --against ") and "no submission of views" in err \
        and "autumn" in err
    assert main(["--root", str(course.root), "similarity", CHAPTER, "--against", str(tmp_path / "none")]) == 2
    assert "no such folder" in capsys.readouterr().err


@pytest.mark.browser
def test_the_page_works_offline_passes_axe_and_fits_a_phone(compared, browser) -> None:
    """The report served on loopback: nothing requested elsewhere, no WCAG 2.1 AA violation, no
    sideways scrolling on a desktop or a phone, and each marked fragment told by its number and an
    underline as well as its shade."""
    from tests.browser import serve, watched_page
    from tests.pipeline.site.test_accessibility import axe_violations

    course, _, _, _ = compared
    problems = []
    with serve(course.root / "reports" / CHAPTER / "similarity") as url:
        for viewport in ({"width": 1280, "height": 900}, {"width": 390, "height": 844}):
            context = browser.new_context(viewport=viewport)
            try:
                page, watch = watched_page(context)
                page.goto(f"{url}/index.html", wait_until="load")
                where = f"at {viewport['width']}px"
                problems += [f"{where}: {p}" for p in watch.problems]
                problems += [f"{where}: axe: {v}" for v in axe_violations(page)]
                if page.evaluate("document.scrollingElement.scrollWidth > window.innerWidth + 1"):
                    problems.append(f"{where}: the page scrolls sideways")
                marks = page.evaluate("""() => [...document.querySelectorAll('mark')].map((m) => [
                    m.querySelector('.tag') ? m.querySelector('.tag').textContent : '',
                    getComputedStyle(m).borderBottomStyle])""")
                assert marks and all(tag.startswith("[") and line == "solid" for tag, line in marks), marks[:3]
                page.close()
            finally:
                context.close()
    assert problems == []

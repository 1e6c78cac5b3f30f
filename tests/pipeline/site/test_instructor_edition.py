"""The instructor edition shows every solution and hidden test, collapsed; the student edition none."""

from __future__ import annotations

import nbformat
import pytest

from autograder.pipeline.site.book import instructor_chapter
from autograder.pipeline.site.leaks import find_leaks, secret_lines
from tests.browser import screenshot, serve, toc_chapters, watched_page

pytestmark = pytest.mark.book

CHAPTERS = toc_chapters()


def chapter_secrets(course, chapter: str) -> set[str]:
    editions = [course.release_notebook(name) for name in course.chapters()]
    return secret_lines(course.source_notebook(chapter), *editions)


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_instructor_page_has_every_solution_and_hidden_test_the_student_page_lacks(built_book, chapter):
    secrets = chapter_secrets(built_book.course, chapter)
    assert secrets
    shown = {leak.line for leak in find_leaks(built_book.instructor / "chapters", secrets)}
    assert secrets <= shown
    assert find_leaks(built_book.student / "chapters", secrets) == []


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_instructor_page_keeps_the_student_pages_outputs(built_book, chapter):
    student = (built_book.student / "chapters" / f"{chapter}.html").read_text()
    instructor = (built_book.instructor / "chapters" / f"{chapter}.html").read_text()
    for needle in ("<img", "cell_output", "application/vnd.jupyter.widget-view+json"):
        assert instructor.count(needle) == student.count(needle), needle
    assert "Instructor edition" in instructor and "Instructor edition" not in student


def test_a_chapter_whose_cells_differ_from_its_build_is_refused(built_book, tmp_path):
    course = built_book.course
    executed = course.build / "jupyter_execute" / "chapters" / "views.ipynb"
    notebook = nbformat.read(executed, as_version=4)
    del notebook.cells[3]
    stale = tmp_path / "views.ipynb"
    nbformat.write(notebook, stale)
    with pytest.raises(ValueError, match="build the student edition first"):
        instructor_chapter(course.source_notebook("views"), stale)


@pytest.mark.browser
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_solutions_are_collapsed_until_opened(browser, built_book, chapter):
    secret = max(chapter_secrets(built_book.course, chapter), key=len)
    with serve(built_book.instructor) as url:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        try:
            page, watch = watched_page(context)
            page.goto(f"{url}/chapters/{chapter}.html", wait_until="load")
            assert page.locator(".bd-header-announcement").is_visible()
            cell = page.locator("details.hide", has_text=secret).first
            code = cell.locator("pre", has_text=secret).first
            assert cell.get_attribute("open") is None
            assert not code.is_visible()
            cell.locator("summary").click()
            assert code.is_visible()
            cell.scroll_into_view_if_needed()
            screenshot(page, f"instructor-{chapter}")
            assert watch.problems == []
        finally:
            context.close()

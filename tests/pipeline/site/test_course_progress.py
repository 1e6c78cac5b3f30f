"""Progress as the course's units mark it: every chapter and companion page shows its time and a
"Mark passed" box beside its completion criterion; the landing page counts the marks and clears
them. The marks live in the browser (localStorage) only: checked in Chromium, offline, from the
keyboard, across reloads, with axe on every chapter's mark in the marked state (each whole page is
checked unmarked by ``test_accessibility``) and on the whole landing page.
"""

from __future__ import annotations

import re

import pytest

from autograder.pipeline.course import Course, read_notebook
from autograder.pipeline.site.course_progress import METADATA, RULE, estimate
from tests.browser import screenshot, serve, toc_chapters, watched_page
from tests.pipeline.site.test_accessibility import PHONE, axe_violations

COURSE = Course()
CHAPTERS = toc_chapters()
LANDING = "book/intro.html"
SUGGESTED = re.compile(r"Suggested time:\**\s*(\d+) minutes")


def test_an_estimate_reads_in_minutes_or_hours():
    assert estimate(25) == "about 25 min"
    assert estimate(180) == "about 3 h"
    assert estimate(270) == "about 4½ h"


@pytest.mark.parametrize("chapter", COURSE.chapters())
def test_every_page_source_keeps_its_estimate(chapter):
    """The notebook's metadata holds it; a companion that states a suggested time states the same."""
    notebook = read_notebook(COURSE.source_notebook(chapter))
    minutes = notebook.metadata[METADATA]["minutes"]
    assert isinstance(minutes, int) and 10 <= minutes <= 8 * 60
    stated = {int(found) for cell in notebook.cells if cell.cell_type == "markdown"
              for found in SUGGESTED.findall(cell.source)}
    assert stated <= {minutes}


@pytest.fixture(scope="module")
def site_url(built_book):
    with serve(built_book.student) as url:
        yield url


def marked(page) -> bool:
    return page.locator(".course-mark-box").is_checked()


@pytest.mark.book
@pytest.mark.browser
def test_marks_are_kept_in_the_browser_counted_and_cleared(browser, site_url):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    problems = []
    try:
        page, watch = watched_page(context)
        page.goto(f"{site_url}/{LANDING}", wait_until="load")
        summary = page.locator(".course-progress-summary")
        assert summary.get_attribute("aria-live") == "polite"
        assert summary.inner_text().startswith(f"0 of {len(CHAPTERS)} marked passed")
        for chapter in CHAPTERS:
            page.goto(f"{site_url}/chapters/{chapter}.html", wait_until="load")
            minutes = read_notebook(COURSE.source_notebook(chapter)).metadata[METADATA]["minutes"]
            assert page.locator("article .course-estimate").inner_text().startswith(f"Time: {estimate(minutes)}.")
            mark = page.locator("article .course-mark")
            assert mark.count() == 1 and RULE in mark.inner_text()
            criterion = mark.locator("xpath=ancestor::section[1]/*[self::h1 or self::h2][1]").inner_text()
            assert "Completion criterion" in criterion or "Rules" in criterion, criterion
            # From the keyboard: the box takes the focus (in the tab order) and Space marks it.
            box = page.locator(".course-mark-box")
            assert box.evaluate("(b) => b.tabIndex") >= 0 and not marked(page)
            box.focus()
            page.keyboard.press("Space")
            assert marked(page)
            status = mark.locator(".course-mark-status")
            assert status.get_attribute("role") == "status" and status.get_attribute("aria-live") == "polite"
            assert status.inner_text().startswith("Marked passed, in this browser only")
            problems += [f"{chapter} (marked): {v}" for v in axe_violations(page, within=".course-mark")]
            if chapter == CHAPTERS[0]:
                # Every page reads its mark with the same code: one reload shows it; the landing page
                # below reads every chapter's.
                page.reload(wait_until="load")
                assert marked(page), f"{chapter}: the mark did not survive a reload"
                page.locator(".course-mark").scroll_into_view_if_needed()
                screenshot(page, f"progress-mark-{chapter}")
        # Unmark one from the keyboard: the landing page counts the others, by name.
        page.goto(f"{site_url}/chapters/{CHAPTERS[0]}.html", wait_until="load")
        page.locator(".course-mark-box").focus()
        page.keyboard.press("Space")
        assert not marked(page) and page.locator(".course-mark-status").inner_text().startswith("Mark removed")
        page.goto(f"{site_url}/{LANDING}", wait_until="load")
        assert summary.inner_text().startswith(f"{len(CHAPTERS) - 1} of {len(CHAPTERS)} marked passed: ")
        states = page.locator(".course-progress-list li .course-progress-state").all_inner_texts()
        assert states == ["not marked"] + ["passed"] * (len(CHAPTERS) - 1)
        problems += [f"landing (marked): {v}" for v in axe_violations(page)]
        screenshot(page, "progress-landing-marked", full_page=True)
        # The clear control, from the keyboard: every mark gone, here and on the chapters' pages.
        page.locator(".course-progress-clear").focus()
        page.keyboard.press("Enter")
        assert summary.inner_text().startswith(f"Your marks are cleared. 0 of {len(CHAPTERS)} marked passed")
        page.reload(wait_until="load")
        assert page.locator(".course-progress-list li.course-progress-passed").count() == 0
        page.goto(f"{site_url}/chapters/{CHAPTERS[-1]}.html", wait_until="load")
        assert not marked(page)
        assert page.evaluate("Object.keys(JSON.parse(localStorage.getItem('autograd-state-marks')))") == []
        assert watch.problems == []
    finally:
        context.close()
    assert problems == []


@pytest.mark.book
@pytest.mark.browser
def test_the_landing_page_and_a_chapter_at_desktop_and_phone_widths(browser, site_url):
    """Screenshots for the record; the start-here routes and the progress list are on show at both."""
    for name, viewport in (("desktop", {"width": 1280, "height": 900}), ("phone", PHONE)):
        context = browser.new_context(viewport=viewport)
        try:
            page, watch = watched_page(context)
            page.goto(f"{site_url}/{LANDING}", wait_until="load")
            assert page.locator("#start-here").count() == 1
            assert page.locator("#start-here .sd-card").count() == 2
            assert page.locator(".course-progress-list li").count() == len(CHAPTERS)
            overflow = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
            assert overflow <= 1, f"the landing page scrolls sideways by {overflow}px at {name} width"
            screenshot(page, f"landing-{name}", full_page=True)
            page.goto(f"{site_url}/chapters/views.html", wait_until="load")
            page.wait_for_load_state("networkidle")
            screenshot(page, f"chapter-views-{name}")
            assert watch.problems == []
        finally:
            context.close()

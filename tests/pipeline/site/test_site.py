"""The student site as a reader sees it in Chromium: complete offline, every chapter rendered.

Every page in ``_toc.yml`` is opened from a loopback server with all other traffic refused;
the tests grow with the book, one more chapter page each time one is added.
"""

from __future__ import annotations

import re

import pytest

from autograder.pipeline.site.leaks import MARKERS, secret_lines
from tests.browser import CUT_CODE_LINES, screenshot, serve, toc_chapters, toc_pages, watched_page

pytestmark = [pytest.mark.book, pytest.mark.browser]

PAGES = toc_pages()
CHAPTERS = toc_chapters()
# Chapter pages are checked as thoroughly by the chapter tests below.
OTHER_PAGES = [page for page in PAGES if not page.startswith("chapters/")] + ["search", "genindex"]
# A figure is blank when its pixels hardly vary (standard deviation of grey levels, 0-255).
MIN_PIXEL_STD = 8.0
WIDGET_WAIT_MS = 20_000

RENDERED_WIDGETS = """() => [...document.querySelectorAll(
    'script[type="application/vnd.jupyter.widget-view+json"]')].map((tag) => {
      const area = tag.parentElement.querySelector('.widget-subarea');
      return Boolean(area && area.querySelector('.jupyter-widgets') && area.getBoundingClientRect().height > 20);
    })"""

IMAGE_STATS = """(img) => {
    if (!img.complete || img.naturalWidth === 0) return null;
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const ctx = canvas.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    let sum = 0, sq = 0, n = 0;
    for (let k = 0; k < data.length; k += 16) {
      const grey = (data[k] + data[k + 1] + data[k + 2]) / 3;
      sum += grey; sq += grey * grey; n += 1;
    }
    const mean = sum / n;
    return Math.sqrt(sq / n - mean * mean);
}"""


@pytest.fixture(scope="module")
def site_url(built_book):
    with serve(built_book.student) as url:
        yield url


@pytest.fixture
def context(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context
    context.close()


def open_page(context, url: str, wait_for_requests: bool = True):
    """A watched page at ``url``, loaded; ``wait_for_requests``: also every request it makes after
    loading answered (a test that reads only what the served page holds, or leaves it at once, need
    not wait)."""
    page, watch = watched_page(context)
    page.goto(url, wait_until="load")
    if wait_for_requests:
        page.wait_for_load_state("networkidle")
    return page, watch


def test_the_toc_lists_every_chapter(built_book):
    assert CHAPTERS, "_toc.yml lists no chapter"
    assert sorted(CHAPTERS) == built_book.course.chapters()


@pytest.mark.parametrize("page_name", OTHER_PAGES)
def test_page_loads_offline_without_errors(context, site_url, page_name):
    page, watch = open_page(context, f"{site_url}/{page_name}.html")
    page.locator("#main-content h1:visible").first.wait_for(state="visible", timeout=15_000)
    assert watch.problems == []


def search_term(title: str) -> str:
    """The longest word of a chapter's title: a term a reader would search for."""
    return max(re.findall(r"[A-Za-z]{4,}", title), key=len).lower()


def rendered_whole(page) -> list[str]:
    """What is not as a reader should see it on a chapter's page: a figure that did not load or is
    blank, a widget or explorer not drawn, a line of code or output cut at its block's edge."""
    problems = []
    images = page.locator("article.bd-article img")
    for k in range(images.count()):
        image = images.nth(k)
        image.scroll_into_view_if_needed()
        page.wait_for_function("(img) => img.complete", arg=image.element_handle(), timeout=10_000)
        spread = image.evaluate(IMAGE_STATS)
        if spread is None:
            problems.append(f"figure {image.get_attribute('src')} did not load")
        elif spread <= MIN_PIXEL_STD:
            problems.append(f"figure {image.get_attribute('src')} is blank")
    page.wait_for_function(f"({RENDERED_WIDGETS})().every(Boolean)", timeout=WIDGET_WAIT_MS)
    explorers = page.locator(".stride-explorer")
    for k in range(explorers.count()):
        if explorers.nth(k).get_attribute("data-mounted") != "true" or not explorers.nth(k).locator(".se-slot").count():
            problems.append(f"stride explorer {k} is not drawn")
    # Every line of code and output, an error's message included, is read whole inside its block.
    problems += [f"code line wider than its block: {line}" for line in page.evaluate(CUT_CODE_LINES)]
    return problems


def shown_secrets(page, secrets: set[str]) -> list[str]:
    """Solution lines, hidden tests or their markers on the page, with everything a reader could
    open opened, read as shown and as served."""
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    shown = page.locator("body").inner_text()
    served = page.content()
    return [needle for needle in sorted(secrets | set(MARKERS)) if needle in shown or needle in served]


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_a_reader_reaches_each_chapter_from_the_sidebar_and_by_search_and_sees_it_whole(
        context, site_url, built_book, chapter):
    """One visit per chapter, as a reader makes it (a chapter's page is the costliest thing a test
    opens): the sidebar of the first page leads to it; it shows its figures, widgets, explorers and
    whole code lines, and no solution or hidden test; searching for its title's longest word finds it."""
    course = built_book.course
    secrets = secret_lines(course.source_notebook(chapter), course.release_notebook(chapter))
    assert secrets
    page, watch = open_page(context, f"{site_url}/{PAGES[0]}.html", wait_for_requests=False)
    page.locator(f"nav.bd-docs-nav a[href$='chapters/{chapter}.html']").first.click()
    page.wait_for_url(f"**/chapters/{chapter}.html")
    page.wait_for_load_state("networkidle")
    title = page.locator("article.bd-article h1").first
    title.wait_for(state="visible", timeout=15_000)
    assert rendered_whole(page) == []
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, f"site-{chapter}", full_page=True)
    assert shown_secrets(page, secrets) == []

    term = search_term(title.inner_text())
    page.goto(f"{site_url}/search.html?q={term}", wait_until="load")
    # Sphinx lists the results one by one; the summary line appears once the list is complete.
    page.locator("#search-results p.search-summary", has_text="Search finished").wait_for(timeout=15_000)
    results = page.locator("#search-results ul.search li a")
    hrefs = results.evaluate_all("(links) => links.map((a) => a.getAttribute('href'))")
    assert any(f"chapters/{chapter}.html" in href for href in hrefs), (term, hrefs)
    assert watch.problems == []


def test_next_and_previous_links_walk_the_book_in_order(context, site_url):
    page, watch = open_page(context, f"{site_url}/index.html")
    page.wait_for_url(f"**/{PAGES[0]}.html")
    visited = [PAGES[0]]
    for _ in PAGES[1:]:
        page.locator("a.right-next").first.click()
        page.wait_for_load_state("load")
        visited.append(page.url.removeprefix(f"{site_url}/").split("#")[0].removesuffix(".html"))
    assert visited == PAGES
    assert page.locator("a.right-next").count() == 0  # the last page has no next
    page.locator("a.left-prev").first.click()
    page.wait_for_url(f"**/{PAGES[-2]}.html")
    assert watch.problems == []

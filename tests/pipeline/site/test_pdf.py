"""``autograd-state book --pdf``: the student edition printed to one PDF by headless Chromium.

The PDF must hold every chapter's title, every figure the chapters show (as images of the same
pixel size), a contents page and an outline entry per page; printed, no code block is wider than
the page.
"""

from __future__ import annotations

import html
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from autograder.pipeline.site.book import PDF_NAME, PRINT_CSS, book_pages
from tests.browser import chromium_or_skip, serve

pytestmark = [pytest.mark.book, pytest.mark.browser]


@pytest.fixture(scope="module")
def pdf(built_book):
    from pypdf import PdfReader

    chromium_or_skip()
    # The command line itself, in its own process (Playwright's sync API runs once per thread).
    command = [str(Path(sys.executable).parent / "autograd-state"), "--root", str(built_book.course.root), "book",
               "--pdf"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=1200)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    path = built_book.course.build / "pdf" / PDF_NAME
    assert f"The student edition is printed: {path}" in result.stdout
    return PdfReader(path)


def chapter_titles(built_book) -> dict[str, str]:
    titles = {}
    for page in sorted((built_book.student / "chapters").glob("*.html")):
        # The page title is "<chapter heading> — <book title>".
        title = html.unescape(re.search(r"<title>([^<]*)</title>", page.read_text()).group(1))
        titles[page.stem] = title.rsplit(" \N{EM DASH} ", 1)[0].strip()
    return titles


def squash(text: str) -> str:
    # NFKC undoes the ligatures (ﬀ, ﬂ) the PDF's text layer uses.
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


def test_every_chapter_title_is_in_the_pdf_and_its_outline(pdf, built_book):
    # Where each outline entry opens: the chapter's title is printed there (reading only those
    # pages' text; all of it takes half a minute).
    opens = {unicodedata.normalize("NFKC", item.title): pdf.get_destination_page_number(item)
             for item in pdf.outline}
    titles = chapter_titles(built_book)
    assert titles
    for title in titles.values():
        entry = unicodedata.normalize("NFKC", title)
        assert entry in opens, (title, list(opens))
        assert opens[entry] is not None, f"{title}: its outline entry opens no page"
        assert squash(title) in squash(pdf.pages[opens[entry]].extract_text()), title
    assert len(pdf.outline) == len(book_pages(built_book.course))
    assert "Contents" in pdf.pages[0].extract_text()


def test_every_figure_of_the_chapters_is_in_the_pdf(pdf, built_book):
    from PIL import Image

    figures = set()
    for page in (built_book.student / "chapters").glob("*.html"):
        for src in re.findall(r'<img[^>]+src="\.\./_images/([^"]+\.png)"', page.read_text()):
            with Image.open(built_book.student / "_images" / src) as image:
                figures.add((src, image.size))
    assert len(figures) >= 5
    printed = set()
    for page in pdf.pages:
        printed |= image_sizes(page)
    missing = [src for src, size in figures if size not in printed]
    assert missing == []


def image_sizes(holder, seen: set | None = None) -> set[tuple[int, int]]:
    """The pixel sizes of the images a PDF page (or a form on it) draws, read from each image's
    dictionary, forms followed (decoding them all would take seconds)."""
    seen = set() if seen is None else seen
    sizes: set[tuple[int, int]] = set()
    resources = holder.get("/Resources")
    objects = resources.get_object().get("/XObject") if resources is not None else None
    for reference in (objects.get_object().values() if objects is not None else ()):
        drawn = reference.get_object()
        if id(drawn) in seen:
            continue
        seen.add(id(drawn))
        if drawn.get("/Subtype") == "/Image":
            sizes.add((int(drawn["/Width"]), int(drawn["/Height"])))
        elif drawn.get("/Subtype") == "/Form":
            sizes |= image_sizes(drawn, seen)
    return sizes


def test_code_is_wrapped_not_cut_in_print(browser, built_book):
    # The print rules the PDF uses: every code block and output fits its column, none scrolls.
    with serve(built_book.student) as url:
        context = browser.new_context(viewport={"width": 794, "height": 1123})
        page = context.new_page()
        try:
            for name in sorted(p.stem for p in (built_book.student / "chapters").glob("*.html")):
                page.goto(f"{url}/chapters/{name}.html", wait_until="load")
                page.emulate_media(media="print")
                page.add_style_tag(content=PRINT_CSS)
                cut = page.evaluate("""() => [...document.querySelectorAll('article pre')]
                    .filter((pre) => pre.scrollWidth > pre.clientWidth + 1).map((pre) => pre.innerText.slice(0, 60))""")
                assert cut == [], f"{name}: code wider than the printed page: {cut[:3]}"
        finally:
            context.close()

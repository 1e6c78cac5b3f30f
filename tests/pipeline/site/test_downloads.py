"""Notebooks one click away: each chapter's .ipynb button and the downloads page, in Chromium.

What a reader downloads must be the student edition nbgrader released, byte for byte: no
solution, no hidden test, nothing the book build adds. The pages come from the built site, so
a companion notebook is checked as soon as the book has its page.
"""

from __future__ import annotations

import json
import zipfile

import pytest

from tests.browser import serve, watched_page

pytestmark = [pytest.mark.book, pytest.mark.browser]


@pytest.fixture(scope="module")
def student_site(built_book):
    with serve(built_book.student) as url:
        yield built_book, url


@pytest.fixture
def context(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    yield context
    context.close()


def released(built_book, name: str) -> bytes:
    return built_book.course.release_notebook(name).read_bytes()


def chapter_names(built_book) -> list[str]:
    return sorted(p.stem for p in (built_book.student / "chapters").glob("*.html"))


def test_each_chapter_button_downloads_its_student_edition(context, student_site, tmp_path):
    built_book, url = student_site
    names = chapter_names(built_book)
    assert names
    page, watch = watched_page(context)
    for name in names:
        page.goto(f"{url}/chapters/{name}.html", wait_until="load")
        page.locator(".dropdown-download-buttons button.dropdown-toggle").first.click()
        button = page.locator(".dropdown-download-buttons a.dropdown-item", has_text=".ipynb").first
        assert button.get_attribute("download") is not None, "the .ipynb button opens a tab instead of downloading"
        assert button.get_attribute("target") is None
        with page.expect_download() as download:
            button.click()
        saved = tmp_path / f"{name}.ipynb"
        download.value.save_as(saved)
        assert saved.read_bytes() == released(built_book, name)
        assert json.loads(saved.read_text())["nbformat"] == 4
    assert watch.problems == []


def test_the_downloads_page_lists_every_notebook_and_a_zip_of_all(context, student_site, tmp_path):
    built_book, url = student_site
    names = chapter_names(built_book)
    page, watch = watched_page(context)
    page.goto(f"{url}/book/downloads.html", wait_until="load")
    assert "jupyter lab" in page.locator("article").inner_text()
    links = page.locator("ul.notebook-downloads a[download]")
    hrefs = links.evaluate_all("(links) => links.map((a) => a.getAttribute('href'))")
    assert sorted(href.rsplit("/", 1)[-1] for href in hrefs) == sorted(f"{name}.ipynb" for name in names)
    first = links.first
    with page.expect_download() as download:
        first.click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.read_bytes() == released(built_book, saved.stem)

    archive = page.locator("a.notebook-downloads-zip[download]")
    with page.expect_download() as download:
        archive.click()
    saved = tmp_path / "all.zip"
    download.value.save_as(saved)
    with zipfile.ZipFile(saved) as bundle:
        assert sorted(bundle.namelist()) == sorted(f"autograd-state/{name}.ipynb" for name in names)
        for name in names:
            assert bundle.read(f"autograd-state/{name}.ipynb") == released(built_book, name)

    kit = page.locator("a.notebook-downloads-kit[download]")
    with page.expect_download() as download:
        kit.click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.suffix == ".whl"
    with zipfile.ZipFile(saved) as wheel:
        listed = wheel.namelist()
    assert "autograder/kernel.py" in listed and "autograder/visible/views.json" in listed
    assert not [n for n in listed if n.startswith(("answer_key/", "autograder/pipeline/"))]
    assert watch.problems == []


def test_the_downloads_page_is_in_the_instructor_edition_too(built_book):
    page = (built_book.instructor / "book" / "downloads.html").read_text()
    for name in chapter_names(built_book):
        assert f'downloads/{name}.ipynb" download' in page

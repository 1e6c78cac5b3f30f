"""The real Jupyter Book build of the student edition: complete, offline, free of solutions."""

from __future__ import annotations

import html as html_module
import re
import shutil

import matplotlib.image
import pytest

from autograder.pipeline.site.leaks import find_leaks, secret_lines

pytestmark = pytest.mark.book


@pytest.fixture(scope="module")
def site(built_book):
    return built_book.course, built_book.student


def chapter_page(site_dir) -> str:
    return (site_dir / "chapters" / "views.html").read_text()


def test_chapter_page_is_built_with_its_sections(site):
    _, html = site
    page = chapter_page(html)
    for heading in ("Why it matters", "How it works", "Reproduce closed-book", "Exercises", "Traps", "Self-test",
                    "Completion criterion"):
        assert heading in page


def test_real_errors_are_shown_from_executed_cells(site):
    _, html = site
    page = chapter_page(html)
    assert "view size is not compatible with input tensor" in page
    assert "more than one element of the written-to tensor refers to a single memory location" in page


def test_chapter_two_shows_the_version_error_and_its_timeline(site):
    _, html = site
    page = (html / "chapters" / "inplace.html").read_text()
    for heading in ("Why it matters", "Reproduce closed-book", "Traps", "Completion criterion"):
        assert heading in page
    assert "modified by an inplace operation" in page and "expected version 0 instead" in page
    assert "a view of a leaf Variable that requires grad is being used in an in-place operation" in page
    assert "<img" in page.split('id="a-version-timeline"')[1].split('id="anomaly-detection')[0]


def visible_text(page: str) -> str:
    return html_module.unescape(re.sub(r"<[^>]+>", "", page))


def test_answer_and_test_cells_are_shown_but_not_executed(site):
    _, html = site
    page = chapter_page(html)
    text = visible_text(page)
    assert "raise NotImplementedError()" in text
    assert 'grade("views-can-view", can_view)' in text
    answers_and_tests = page.split('id="reproduce-closed-book"')[1].split('id="traps"')[0]
    assert "cell_output" not in answers_and_tests and "Traceback" not in answers_and_tests
    assert "cell_output" in page


def test_figures_are_images_that_show_something(site):
    _, html = site
    images = sorted((html / "_images").glob("*.png"))
    assert len(images) >= 5
    for image in images:
        pixels = matplotlib.image.imread(image)
        assert pixels.std() > 0.05, f"{image.name} is blank"
    pages = "".join(page.read_text() for page in (html / "chapters").glob("*.html"))
    assert all(image.name in pages for image in images)


def test_widget_state_is_embedded_and_scripts_are_local(site):
    _, html = site
    page = chapter_page(html)
    assert "application/vnd.jupyter.widget-state+json" in page
    assert "application/vnd.jupyter.widget-view+json" in page
    remote = re.findall(r'<(?:script|link|img)[^>]+(?:src|href)="(https?://[^"]+)"', page)
    assert remote == []
    for script in ("require.js", "widgets/embed-amd.js", "mathjax/es5/tex-mml-chtml.js"):
        assert f"_static/{script}" in page
        assert (html / "_static" / script).is_file()


def test_only_a_page_that_shows_a_widget_loads_the_widget_manager(site):
    _, html = site
    with_widgets = [page.relative_to(html).as_posix() for page in html.rglob("*.html")
                    if "application/vnd.jupyter.widget-view+json" in page.read_text()]
    loading = [page.relative_to(html).as_posix() for page in html.rglob("*.html")
               if "_static/widgets/embed-amd.js" in page.read_text()]
    assert with_widgets == ["chapters/views.html"]
    assert loading == with_widgets
    prose = (html / "book" / "glossary.html").read_text()
    assert "_static/require.js" not in prose and "_static/widgets/bridge.js" not in prose


def test_no_solution_or_hidden_test_in_the_site(site):
    course, html = site
    secrets = secret_lines(course.source_notebook("views"), course.release_notebook("views"))
    assert len(secrets) > 20  # the detector has something to look for
    assert find_leaks(html, secrets) == []


def test_the_leak_detector_finds_a_planted_solution(site, tmp_path):
    course, html = site
    copy = tmp_path / "html"
    shutil.copytree(html, copy)
    secrets = secret_lines(course.source_notebook("views"), course.release_notebook("views"))
    planted = next(line for line in sorted(secrets) if line.startswith("group_ends ="))
    page = copy / "chapters" / "views.html"
    page.write_text(page.read_text() + f"<pre>{planted}</pre>")
    assert [leak.line for leak in find_leaks(copy, secrets)] == [planted]


def test_search_index_knows_the_chapter(site):
    _, html = site
    index = (html / "searchindex.js").read_text()
    assert "stride" in index and "chapters/views" in index


def test_detach_chapter_shows_its_figure_and_real_errors(site):
    _, html = site
    page = (html / "chapters" / "detach.html").read_text()
    assert "Inference tensors cannot be saved for backward" in page
    assert "modified by an inplace operation" in page
    assert 'grade("detach-provenance", provenance_grad)' in visible_text(page)
    assert any(image.name in page for image in (html / "_images").glob("*.png"))
    assert "chapters/detach.html" in (html / "book" / "intro.html").read_text()


def test_chapter_four_shows_its_real_warning_errors_and_loss_curves(site):
    _, html = site
    page = (html / "chapters" / "leaves.html").read_text()
    text = visible_text(page)
    assert "UserWarning: The .grad attribute of a Tensor that is not a leaf Tensor" in text
    assert "a leaf Variable that requires grad is being used in an in-place operation" in text
    assert "grad can be implicitly created only for scalar outputs" in text
    assert 'grade("leaves-sgd-step", sgd_step)' in text
    assert re.search(r'<img[^>]+src="\.\./_images/[0-9a-f]+\.png"', page)


def test_modules_chapter_shows_its_real_errors_and_state_maps(site):
    _, html = site
    page = (html / "chapters" / "modules.html").read_text()
    text = visible_text(page)
    for error in ("Missing key(s) in state_dict", "Trying to backward through the graph a second time",
                  "a leaf Variable that requires grad is being used in an in-place operation",
                  "expected m1 and m2 to have the same dtype"):
        assert error in text, error
    assert len(re.findall(r'<img[^>]+src="[^"]*_images/[^"]+\.png"', page)) >= 2


TRACEBACK_BLOCK = re.compile(r'<div class="output traceback[^"]*">(.*?)</pre>', re.S)
# A frame outside the notebook's cells, as IPython prints it: "File /path/to/module.py:623, in f(...)".
LIBRARY_FRAME = re.compile(r"^File .*(\.py|>):\d+", re.M)
# Paths of the machine that built the site (the guide's own ".venv/bin/..." commands are relative).
MACHINE_PATHS = re.compile(r"site-packages|/\.venv/|/usr/lib/python|/ipykernel_\d+")


def site_pages(site_dir) -> list:
    pages = sorted(site_dir.rglob("*.html"))
    return [page for page in pages if not page.relative_to(site_dir).parts[0].startswith("_")]


def test_the_check_finds_a_library_frame_in_a_traceback():
    shown = "Cell In[4], line 1\n----> 1 y.backward()\n\nFile /x/.venv/lib/python3.11/site-packages/torch/a.py:623, in"
    assert LIBRARY_FRAME.search(shown) and MACHINE_PATHS.search(shown)
    assert not LIBRARY_FRAME.search("Cell In[4], line 1\n----> 1 t.T.view(16)\n\nRuntimeError: view size")


def test_every_error_shows_the_cells_frames_and_no_path_of_the_build_machine(site):
    course, html = site
    errors, problems = 0, []
    for page in site_pages(html):
        raw = page.read_text()
        text = visible_text(raw)
        name = page.relative_to(html).as_posix()
        # The guides name the virtual environment's commands (`.venv/bin/...`) on purpose; a
        # chapter's executed outputs must name no path of the machine that built it.
        shown_paths = {str(course.root), *(MACHINE_PATHS.findall(text) if name.startswith("chapters/") else ())}
        problems += [f"{name}: shows {path!r}" for path in shown_paths if path in text]
        for block in TRACEBACK_BLOCK.findall(raw):
            errors += 1
            shown = visible_text(block).strip()
            if LIBRARY_FRAME.search(shown) or not shown.startswith("Cell In["):
                problems.append(f"{name}: a traceback not from a cell's frame, or through a library: {shown[:300]!r}")
    assert errors >= 50  # every chapter shows its errors
    assert problems == []

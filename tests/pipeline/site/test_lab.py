"""The learner's JupyterLab, in Chromium: every notebook reads as the site does and runs to its end;
Chapter 1 is worked.

One JupyterLab runs on loopback with a token, the nbgrader, widgets and MyST extensions active, on
a copy of the released student editions (``<chapter>/<chapter>.ipynb``, as nbgrader hands them
out). Every chapter and companion, opened in turn in one JupyterLab page with a kernel of its own,
opens unmodified with its MyST rendered — no directive or role shows as raw text, a tab switches, a
dropdown opens, a cross-reference links to the site — and runs to its last cell with *Run All
Cells*, each unanswered test cell saying so in its line; Chapter 1 is answered, tested and validated
in a page of its own. The browser refuses any request off loopback.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import torch

from autograder.engine import gradeid
from autograder.engine.cases import exercises
from autograder.pipeline.course import Course, is_answer_cell, is_test_cell, nbgrader_meta, read_notebook
from autograder.pipeline.site.lab_markdown import DEFAULT_SITE_URL
from tests.browser import screenshot, toc_pages, watched_page
from tests.warm_kernels import forked_kernels

pytestmark = [pytest.mark.browser, pytest.mark.nbgrader]

CHAPTER = "views"
START_TIMEOUT_S = 90
CELL_TIMEOUT_MS = 120_000
# The learner's correct answer, computed by torch (never typed in): the exercise asks for
# the strides of these headers over t = torch.arange(32.).view(4, 8).
_t = torch.arange(32.0).view(4, 8)
RIGHT = {
    "contiguous": _t.stride(),
    "transpose": _t.T.stride(),
    "every_other_column": _t[:, ::2].stride(),
    "row_block": _t[1:3].stride(),
    "expanded": _t.unsqueeze(0).expand(3, 4, 8).stride(),
}
# The visible cell checks the form only (the values are judged when graded): a near form is told the form.
WRONG = {**RIGHT, "transpose": list(_t.T.stride())}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def lab_settings(folder: Path) -> Path:
    """User settings: render every cell (no windowing), start the default kernel, fetch no news."""
    settings = folder / "settings"
    notebook = settings / "@jupyterlab" / "notebook-extension"
    notebook.mkdir(parents=True)
    (notebook / "tracker.jupyterlab-settings").write_text(
        json.dumps({"windowingMode": "none", "autoStartDefaultKernel": True})
    )
    news = settings / "@jupyterlab" / "apputils-extension"
    news.mkdir(parents=True)
    (news / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False})
    )
    return settings


@pytest.fixture(scope="module")
def lab(released_course, tmp_path_factory):
    """One JupyterLab server on loopback serving a copy of every student edition, for the module;
    yields (url, token, Chapter 1's notebook)."""
    tmp_path = tmp_path_factory.mktemp("lab")
    root = tmp_path / "work"
    for chapter in released_course.chapters():
        (root / chapter).mkdir(parents=True)
        (root / chapter / f"{chapter}.ipynb").write_bytes(released_course.release_notebook(chapter).read_bytes())
    notebook = root / CHAPTER / f"{CHAPTER}.ipynb"
    port, token = free_port(), secrets.token_hex(16)
    command = [
        sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ServerApp.open_browser=False",
        "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}", f"--LabApp.user_settings_dir={lab_settings(tmp_path)}",
        f"--LabApp.workspaces_dir={tmp_path / 'workspaces'}", "--LabApp.news_url=",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate", "--LabApp.extension_manager=readonly",
        # window.jupyterapp: the render checks open each notebook in one page, without a kernel.
        "--LabApp.expose_app_in_browser=True",
    ]
    if os.geteuid() == 0:  # CI runs as root
        command.append("--allow-root")
    log = (tmp_path / "lab.log").open("w")
    with forked_kernels():  # its kernels forked from the warm server, as nbval's: torch imported once
        env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime")}
    # Started in its folder: the checkout's nbgrader_config.py would make it the course root.
    server = subprocess.Popen(
        command, cwd=root, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=5) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"JupyterLab did not start; log:\n{(tmp_path / 'lab.log').read_text()[-3000:]}")
            time.sleep(0.5)
        yield url, token, notebook
    finally:
        stop(server)
        log.close()


def stop(server: subprocess.Popen) -> None:
    """End the server and its kernels (its process group), politely first."""
    for sig, wait in ((signal.SIGTERM, 20), (signal.SIGKILL, 10)):
        try:
            os.killpg(server.pid, sig)
        except ProcessLookupError:
            return
        try:
            server.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def wait_for_kernel(page, timeout_s: float = 60, calm_needed: int = 4) -> None:
    """Wait until the notebook's kernel is idle; if Lab asks which kernel to start, pick the default.
    ``calm_needed``: idle seen that many times in a row, half a second apart (once a kernel has
    run cells, no dialog can follow: once is enough)."""
    chooser = page.locator(".jp-Dialog", has_text="Select Kernel")
    idle = page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']")
    deadline = time.monotonic() + timeout_s
    calm = 0  # idle with no dialog, in a row: the dialog can come after a first idle
    while time.monotonic() < deadline:
        if chooser.count():
            chooser.get_by_role("button", name="Select").click()
            calm = 0
        elif idle.count():
            calm += 1
            if calm >= calm_needed:
                return
        page.wait_for_timeout(500)
    raise TimeoutError(f"the kernel was not idle within {timeout_s} s")


def validation_results(page, timeout_s: float = 120):
    """The Validate button's result dialog. Validate saves first; should Lab then find the file
    newer on disk than it thinks (a save moments before), the learner keeps their open version."""
    changed = page.locator(".jp-Dialog", has_text="File Changed")
    results = page.locator(".jp-Dialog", has_text="Validation Results")
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if changed.count():
            changed.get_by_role("button", name="Overwrite").click()
        elif results.count():
            return results.first
        page.wait_for_timeout(500)
    raise TimeoutError(f"no validation results within {timeout_s} s")


def run_menu(page, menu: str, item: str) -> None:
    page.locator("#jp-MainMenu .lm-MenuBar-itemLabel", has_text=menu).first.click()
    page.locator(".lm-Menu .lm-Menu-itemLabel").get_by_text(item, exact=True).first.click()


# Every code cell has run: its prompt shows a number (not "[ ]" nor "[*]").
ALL_RAN = """(panel) => [...panel.querySelectorAll('.jp-CodeCell .jp-InputPrompt')]
    .every((prompt) => /\\[\\d+\\]/.test(prompt.textContent))"""
RUN_ALL_TIMEOUT_MS = 600_000


# Hide (or show again) the cells of a notebook panel: hidden, Chromium lays out and paints none of
# the outputs they receive (a third of its work while a chapter runs); they are still made.
SHOW_CELLS = "([panel, shown]) => { panel.querySelector('.jp-Notebook').style.display = shown ? '' : 'none'; }"


def run_all(page, watched: bool = True) -> None:
    """*Run* → *Run All Cells*, then wait until every code cell has run and the kernel is idle.
    ``watched=False``: the cells are hidden while they run, and shown once they have all run."""
    panel = page.locator(".jp-NotebookPanel:visible").element_handle()
    if not watched:
        page.evaluate(SHOW_CELLS, [panel, False])
    run_menu(page, "Run", "Run All Cells")
    page.wait_for_function(ALL_RAN, arg=panel, timeout=RUN_ALL_TIMEOUT_MS)
    if not watched:
        page.evaluate(SHOW_CELLS, [panel, True])
    wait_for_kernel(page, calm_needed=1)


def is_dirty(page) -> bool:
    """Whether JupyterLab holds the open notebook as changed since it was read from disk."""
    return page.evaluate("() => window.jupyterapp.shell.currentWidget.context.model.dirty")


def cell_with(page, text: str):
    """The first code cell whose source contains ``text`` now; pinned by position, so it stays that
    cell after its source changes."""
    cells = page.locator(".jp-Notebook .jp-CodeCell")
    index = cells.evaluate_all(
        "(cells, text) => cells.findIndex((c) => c.querySelector('.cm-content').textContent.includes(text))", text
    )
    assert index >= 0, f"no code cell contains {text!r}"
    return cells.nth(index)


def run_cell(page, cell) -> None:
    """Select the cell, run it with Shift+Enter, and wait until its prompt shows a new number."""
    prompt = cell.locator(".jp-InputPrompt")
    before = prompt.inner_text()
    prompt.click()
    page.keyboard.press("Escape")
    page.keyboard.press("Shift+Enter")
    page.wait_for_function(
        """([cell, before]) => {
            const text = cell.querySelector('.jp-InputPrompt').textContent;
            return text !== before && /\\[\\d+\\]/.test(text);
        }""",
        arg=[cell.element_handle(), before], timeout=CELL_TIMEOUT_MS,
    )


def type_answer(page, cell, answer: dict) -> None:
    editor = cell.locator(".cm-content")
    editor.click()
    page.keyboard.press("Control+A")
    page.keyboard.type(f"STRIDES = {answer!r}")


NOTEBOOKS = Course().chapters()
SITE_PAGES = set(toc_pages())
# What MyST looks like when it is not rendered: a directive's fence, a role's name in braces,
# or jupyterlab-myst's notice for what it does not know.
# In a student edition's markdown: what jupyterlab-myst cannot render (the release writes it out).
SITE_ONLY_MYST = re.compile(r"\{doc\}`|\{glue[:\w-]*\}")
RAW_MYST = re.compile(r"\{[a-z][\w:-]*\}|:::|```|Unknown (Directive|Role)")
# Opened with a kernel of its own, as a learner opens it (the widgets extension fails on a
# kernel-less notebook); the app is loaded once for every notebook (a page load costs more than
# reading or running a short notebook).
OPEN_NOTEBOOK = """async (path) => {
    const widget = await window.jupyterapp.commands.execute('docmanager:open', {path, factory: 'Notebook'});
    await widget.context.ready;
    await widget.sessionContext.ready;
}"""
# Shut the open notebook's kernel down and close it, its outputs unsaved (the file stays as released).
CLOSE_NOTEBOOK = """async () => {
    const widget = window.jupyterapp.shell.currentWidget;
    await widget.sessionContext.shutdown();
    widget.dispose();
}"""

# Markdown cells as rendered, their code and maths left out (both may hold braces).
RENDERED_PROSE = """(cells) => cells.map((cell) => {
    const copy = cell.cloneNode(true);
    copy.querySelectorAll('code, pre, .katex, math, annotation').forEach((code) => code.remove());
    return copy.textContent;
})"""


def test_the_released_student_editions_hold_no_myst_that_only_the_site_renders(released_course):
    """nbgrader's release runs the preprocessors (nbgrader_config.py): every chapter's student edition."""
    for chapter in Course().chapters():
        edition = read_notebook(released_course.release_notebook(chapter))
        markdown = "\n".join(cell.source for cell in edition.cells if cell.cell_type == "markdown")
        assert SITE_ONLY_MYST.search(markdown) is None, chapter
        for target in re.findall(rf"\]\({re.escape(DEFAULT_SITE_URL)}([^)#]+)\.html", markdown):
            assert target in SITE_PAGES, (chapter, target)
        for cell in edition.cells:
            if cell.cell_type == "code" and nbgrader_meta(cell).get("grade_id", "").endswith("-tests-hidden"):
                assert all(line.startswith("#") for line in cell.source.splitlines()), (chapter, cell.source)


@pytest.fixture(scope="module")
def lab_page(browser, lab):
    """One page of the module's JupyterLab, the app loaded; notebooks are opened in it one by one
    (a page load per notebook would start JupyterLab each time)."""
    url, token, _ = lab
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page, watch = watched_page(context)
    page.goto(f"{url}/lab/workspaces/every-notebook?token={token}&reset", wait_until="load")
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.started", timeout=60_000)
    page.evaluate("() => window.jupyterapp.started")
    yield page, watch
    context.close()


def markdown_cell_count(path: Path) -> int:
    return sum(cell["cell_type"] == "markdown" for cell in json.loads(path.read_text())["cells"])


def assert_reads_as_on_the_site(page, chapter: str, notebook: Path) -> None:
    """Every markdown cell rendered by jupyterlab-myst, no MyST left raw, links to the site's pages,
    the first dropdown opens and a tab switches."""
    panel = page.locator(".jp-NotebookPanel:visible")
    # jupyterlab-myst renders every markdown cell (an incompatible extension renders none).
    rendered = panel.locator(".jp-MarkdownCell .myst")
    page.wait_for_function(
        "([panel, n]) => panel.querySelectorAll('.jp-MarkdownCell .myst').length === n",
        arg=[panel.element_handle(), markdown_cell_count(notebook)], timeout=30_000,
    )
    raw = [m.group(0) for text in rendered.evaluate_all(RENDERED_PROSE) for m in RAW_MYST.finditer(text)]
    assert raw == [], f"{chapter} shows MyST as raw text: {raw[:10]}"

    # Cross-references go to the site's pages (never to a file JupyterLab cannot open).
    hrefs = rendered.locator("a[href]").evaluate_all("(links) => links.map((a) => a.getAttribute('href'))")
    pages = [href for href in hrefs if not href.startswith("#")]
    assert all(href.startswith(DEFAULT_SITE_URL) for href in pages), pages
    linked = {href.removeprefix(DEFAULT_SITE_URL).removesuffix(".html").split("#")[0] for href in pages}
    assert linked <= SITE_PAGES, linked - SITE_PAGES

    # The check question's answer (in the first tab, shown when the notebook opens).
    dropdown = rendered.locator("details.myst-dropdown").first
    if dropdown.count():
        body = dropdown.locator(".myst-dropdown-body")
        assert not body.is_visible()
        dropdown.locator("summary").click()
        body.wait_for(state="visible", timeout=5_000)
        assert dropdown.evaluate("(details) => details.open")
    tabs = rendered.locator(".myst-tab-set").first
    if tabs.count():
        other = tabs.locator(".myst-tab-item-header-inactive").first
        name = other.inner_text()
        other.click()
        assert tabs.locator(".myst-tab-item-header-active").inner_text() == name
        shown = tabs.locator(".myst-tab-item-text > div:not(.hidden)")
        assert shown.count() == 1 and shown.first.is_visible()


def assert_error_reads_in_one_line(cell, message: str) -> None:
    """The cell's error shows its own frame (``Cell In[n]``, n its prompt's number), never a library's
    or a path, and ``message`` once, wrapped inside the output (nothing cut at its edge)."""
    output = cell.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']").first
    text = output.inner_text()
    number = re.search(r"\[(\d+)\]", cell.locator(".jp-InputPrompt").inner_text()).group(1)
    assert re.findall(r"Cell In\[(\d+)\]", text) == [number], text
    assert text.count(message) == 1 and "site-packages" not in text and "File " not in text, text
    assert output.evaluate("(o) => [...o.querySelectorAll('pre')].every((p) => p.scrollWidth <= p.clientWidth)")


def unanswered_lines(chapter: str) -> dict[str, str]:
    """What each untouched exercise's visible test cell says in the learner's kernel, by its cell."""
    return {gradeid.test_cell(grade_id, hidden=False):
            "\n".join(f"{name} is not answered yet." for name in exercise.subjects)
            for grade_id, exercise in exercises(chapter).items()}


OUTPUTS = """(cells) => cells.map((cell) => ({
    prompt: cell.querySelector('.jp-InputPrompt').textContent,
    error: [...cell.querySelectorAll(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")]
      .map((o) => o.innerText).join('\\n'),
}))"""


@pytest.mark.parametrize("chapter", NOTEBOOKS)
def test_the_released_notebook_reads_as_on_the_site_and_runs_to_its_end(lab, lab_page, chapter):
    """The notebook opens unmodified and reads as on the site; Run All runs every cell,
    demonstrations after an unanswered exercise included; only the cells tagged to raise raise, and
    each unanswered test cell ends with its one line, in plain text."""
    _, _, chapter_one = lab
    page, watch = lab_page
    seen_problems = len(watch.problems)
    notebook = chapter_one.parent.parent / chapter / f"{chapter}.ipynb"
    cells = [cell for cell in read_notebook(notebook).cells if cell.cell_type == "code"]
    page.evaluate(OPEN_NOTEBOOK, f"{chapter}/{chapter}.ipynb")
    try:
        # Opened by command, its kernel already chosen (no dialog can follow): idle once is enough.
        wait_for_kernel(page, calm_needed=1)
        assert not is_dirty(page), f"{chapter} opens already modified"
        assert_reads_as_on_the_site(page, chapter, notebook)
        if chapter == CHAPTER:
            screenshot(page, "lab-views-myst")
        assert watch.problems[seen_problems:] == []

        run_all(page, watched=False)  # what each cell shows is read once all have run
        seen = page.locator(".jp-NotebookPanel:visible .jp-CodeCell").evaluate_all(OUTPUTS)
        assert len(seen) == len(cells)
        lines = unanswered_lines(chapter)
        for cell, shown in zip(cells, seen, strict=True):
            grade_id = nbgrader_meta(cell)["grade_id"]
            assert re.fullmatch(r"\[\d+\]:", shown["prompt"].strip()), (grade_id, shown["prompt"])
            if grade_id in lines:
                last = shown["error"].strip().splitlines()[-len(lines[grade_id].splitlines()):]
                assert "\n".join(last).removeprefix("AssertionError: ") == lines[grade_id], (grade_id, shown["error"])
                assert "`" not in shown["error"] and "Traceback" not in shown["error"], shown["error"]
            elif "Cell In[" in shown["error"]:  # raised (a warning is on stderr too, without the cell's frame)
                assert "raises-exception" in cell.metadata.get("tags", []), (grade_id, shown["error"][-300:])
                assert not is_answer_cell(cell) and not is_test_cell(cell), grade_id
        if chapter == CHAPTER:
            screenshot(page, "lab-views-run-all")
        assert not [problem for problem in watch.problems[seen_problems:] if "console error" not in problem]
    except Exception:
        screenshot(page, f"lab-{chapter}-failure")
        raise
    finally:
        page.evaluate(CLOSE_NOTEBOOK)


def test_learner_runs_answers_tests_and_validates_chapter_one(browser, lab):
    url, token, notebook = lab
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page, watch = watched_page(context)
    try:
        # A workspace of its own, reset: the other tests' notebooks stay in theirs, not as tabs here.
        page.goto(f"{url}/lab/workspaces/learner/tree/{CHAPTER}/{notebook.name}?token={token}&reset",
                  wait_until="load")
        page.locator(".jp-NotebookPanel .jp-Notebook .jp-Cell").first.wait_for(timeout=60_000)
        wait_for_kernel(page)

        run_all(page)
        # An answer given as values holds its placeholders, and nothing raises there.
        answer = cell_with(page, "STRIDES = {")
        assert answer.locator(".jp-OutputArea-output").count() == 0
        widget = page.locator(".jp-OutputArea-output .widget-vbox").first
        widget.wait_for(timeout=30_000)
        assert widget.locator("input").count() >= 2 and widget.locator("img").count() == 1
        assert page.locator(".stride-explorer[data-mounted='true'] .se-slot").count() > 0
        figures = page.locator(".jp-OutputArea-output img")
        assert figures.count() >= 5
        # The chapter's first error, as the kernel shows it: the cell's own frame, torch's message once.
        refusal = cell_with(page, "t.T.view(16)")
        assert_error_reads_in_one_line(refusal, "view size is not compatible with input tensor's size and stride")

        tests = cell_with(page, 'grade("views-strides", STRIDES)')
        type_answer(page, answer, WRONG)
        run_cell(page, answer)
        run_cell(page, tests)
        failure = tests.locator(".jp-OutputArea-output", has_text="checks failed")
        failure.wait_for(timeout=CELL_TIMEOUT_MS)
        assert "STRIDES['transpose']" in failure.inner_text() and "must be a tuple" in failure.inner_text()
        assert_error_reads_in_one_line(tests, "checks failed")

        type_answer(page, answer, RIGHT)
        run_cell(page, answer)
        run_cell(page, tests)
        # A right answer says so, in one line.
        passed = tests.locator(".jp-OutputArea-output")
        assert passed.count() == 1
        assert passed.inner_text().strip() == "✓ all 5 form checks pass; hidden checks run when graded."
        hidden = cell_with(page, "# STRIDES: hidden checks")
        run_cell(page, hidden)
        assert hidden.locator(".jp-OutputArea-output").count() == 0  # no Out[] of a docstring
        page.keyboard.press("Control+s")
        page.wait_for_function(
            "() => !document.querySelector('.jp-NotebookPanel .jp-mod-dirty')", timeout=30_000
        )

        page.locator(".jp-NotebookPanel-toolbar").get_by_text("Validate", exact=True).first.click()
        dialog = validation_results(page)
        report = dialog.inner_text()
        screenshot(page, "lab-views-validate")
        # The other exercises are still unanswered; this one passes.
        assert "views-classify" in report or "CLASSIFY" in report
        assert 'grade("views-strides", STRIDES)' not in report
        assert "cannot be converted to a float" not in report
        dialog.locator("button").last.click()
        screenshot(page, "lab-views")
        assert [problem for problem in watch.problems if "console error" not in problem] == []
    except Exception:
        screenshot(page, "lab-views-failure")
        raise
    finally:
        context.close()

    validate = subprocess.run(
        [sys.executable, "-m", "nbgrader", "validate", str(notebook)], capture_output=True, text=True, timeout=300
    )
    assert "is not answered yet" in validate.stdout  # the unanswered exercises
    assert 'grade("views-strides", STRIDES)' not in validate.stdout

"""A learner works Chapter 1 in a real JupyterLab, in Chromium: run, answer, test, validate.

JupyterLab runs on loopback with a token, the nbgrader and widgets extensions active, on a
copy of the released student edition. The browser refuses any request off loopback.
"""

from __future__ import annotations

import json
import os
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

from tests.browser import screenshot, watched_page

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
WRONG = {**RIGHT, "transpose": _t.stride()}  # "a transpose copies into row-major order"


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


@pytest.fixture
def lab(released_course, tmp_path):
    """A JupyterLab server on loopback serving a copy of the student edition; yields (url, token, root)."""
    root = tmp_path / "work"
    root.mkdir()
    notebook = root / f"{CHAPTER}.ipynb"
    notebook.write_bytes(released_course.release_notebook(CHAPTER).read_bytes())
    port, token = free_port(), secrets.token_hex(16)
    command = [
        sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ServerApp.open_browser=False",
        "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}", f"--LabApp.user_settings_dir={lab_settings(tmp_path)}",
        f"--LabApp.workspaces_dir={tmp_path / 'workspaces'}", "--LabApp.news_url=",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate", "--LabApp.extension_manager=readonly",
    ]
    if os.geteuid() == 0:  # CI runs as root
        command.append("--allow-root")
    log = (tmp_path / "lab.log").open("w")
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


def wait_for_kernel(page, timeout_s: float = 60) -> None:
    """Wait until the notebook's kernel is idle; if Lab asks which kernel to start, pick the default."""
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
            if calm >= 4:
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


def test_learner_runs_answers_tests_and_validates_chapter_one(browser, lab):
    url, token, notebook = lab
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page, watch = watched_page(context)
    try:
        page.goto(f"{url}/lab/tree/{notebook.name}?token={token}", wait_until="load")
        page.locator(".jp-NotebookPanel .jp-Notebook .jp-Cell").first.wait_for(timeout=60_000)
        wait_for_kernel(page)

        run_menu(page, "Run", "Run All Cells")
        # Run All stops at the first unanswered exercise, after the chapter's figures and widgets.
        answer = cell_with(page, "raise NotImplementedError")
        answer.locator(".jp-OutputArea-output", has_text="NotImplementedError").wait_for(timeout=CELL_TIMEOUT_MS)
        widget = page.locator(".jp-OutputArea-output .widget-vbox").first
        widget.wait_for(timeout=30_000)
        assert widget.locator("input").count() >= 2 and widget.locator("img").count() == 1
        assert page.locator(".stride-explorer[data-mounted='true'] .se-slot").count() > 0
        figures = page.locator(".jp-OutputArea-output img")
        assert figures.count() >= 5

        tests = cell_with(page, 'grade("views-strides", STRIDES)')
        type_answer(page, answer, WRONG)
        run_cell(page, answer)
        run_cell(page, tests)
        failure = tests.locator(".jp-OutputArea-output", has_text="checks failed")
        failure.wait_for(timeout=CELL_TIMEOUT_MS)
        assert "transpose" in failure.inner_text()

        type_answer(page, answer, RIGHT)
        run_cell(page, answer)
        run_cell(page, tests)
        assert tests.locator(".jp-OutputArea-output").count() == 0  # a passing test cell prints nothing
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
    assert "NotImplementedError" in validate.stdout  # the unanswered exercises
    assert 'grade("views-strides", STRIDES)' not in validate.stdout

"""The progress bar: drawn at once, its ETA unknown until it can be measured after the first item
(which carries the start-up), then the pace of the items since."""

from __future__ import annotations

import io

from autograder.pipeline import progress
from autograder.pipeline.progress import Progress


def test_eta_is_not_guessed_from_the_start_up(monkeypatch) -> None:
    now = [100.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: now[0])
    stream = io.StringIO()
    bar = Progress(10, "graded", stream=stream, note="starting the sandboxes")
    assert "0/10 graded" in stream.getvalue() and "ETA …" in stream.getvalue() and "starting" in stream.getvalue()
    now[0] += 30.0  # start-up: sandboxes, the locked prefix
    bar.step("ada")
    assert bar.eta() is None and stream.getvalue().endswith("ETA … ada" + " " * 27)
    for _ in range(3):
        now[0] += 0.5
        bar.step()
    assert bar.eta() == 0.5 * 6, "the pace since the first item, not 30 s per item"
    for _ in range(6):
        now[0] += 0.5
        bar.step()
    assert bar.eta() == 0.0 and stream.getvalue().endswith("\n") and stream.getvalue().count("\n") == 1


def test_a_count_without_a_total_and_a_percentage() -> None:
    stream = io.StringIO()
    bar = Progress(None, "files read", stream=stream)
    bar.step("a.ipynb")
    bar.step("b.ipynb")
    bar.finish()
    bar.finish()
    assert "2 files read" in stream.getvalue() and "ETA" not in stream.getvalue() and stream.getvalue().count("\n") == 1
    pages = Progress(200, "% built", stream=io.StringIO())
    pages.advance_to(40, "intro")
    pages.advance_to(30, "older news is ignored")
    pages.advance_to(260)
    assert pages.done == 200 and pages.finished
    assert Progress(0, "nothing", stream=io.StringIO()).finished

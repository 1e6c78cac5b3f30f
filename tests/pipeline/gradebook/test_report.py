"""The class report reads what each test cell said: a misconception counts once per student, and an
exercise left as released counts as not answered, never as a misconception; its charts' labels are
wrapped and inside the figure, however long the misconception's text."""

from __future__ import annotations

import nbformat
import pytest

from autograder.pipeline.course import Course
from autograder.pipeline.gradebook.report import LABEL_WIDTH, NOT_ANSWERED, _misconceptions, exercise_figure


def _autograded(course: Course, student: str, said: dict[str, str]) -> None:
    cells = []
    for grade_id, message in said.items():
        cell = nbformat.v4.new_code_cell("grade(...)")
        cell.metadata["nbgrader"] = {"grade_id": grade_id}
        cell.outputs = [nbformat.v4.new_output("error", ename="AssertionError", evalue=message, traceback=[])]
        cells.append(cell)
    path = course.autograded / student / "views" / "views.ipynb"
    path.parent.mkdir(parents=True)
    nbformat.write(nbformat.v4.new_notebook(cells=cells), path)


def test_what_nobody_tried_is_counted_apart_from_the_misconceptions(tmp_path) -> None:
    course = Course(tmp_path)
    wrong = ("views-can-view (can_view): 2 of 8 checks failed, 6 of 8 points.\n✗ can_view(t, shape) on …\n"
             "Your answer behaves as if only a contiguous tensor could be viewed.")
    _autograded(course, "ada", {"views-can-view-tests": wrong, "views-can-view-tests-hidden": wrong})
    _autograded(course, "bob", {"views-can-view-tests": "`can_view` is not answered yet.",
                                "views-can-view-tests-hidden": "`can_view` is not answered yet."})
    _autograded(course, "cy", {"views-strides-tests": "STRIDES['transpose'] (t.T) is not answered yet."})
    counts, unanswered = _misconceptions(course, "views", ["ada", "bob", "cy"])
    assert counts["views-can-view"] == {"only a contiguous tensor could be viewed.": 1}
    assert unanswered["views-can-view"] == {"bob"}
    assert unanswered["views-strides"] == {"cy"} and not counts["views-strides"]


LONG = ("the gradient of y reached x through a view whose base was written in place, and the saved tensor's "
        "version counter told autograd so before backward ran")


@pytest.mark.parametrize("texts", [[], ["a short one."], [LONG, LONG[::-1], "x" * 90, "tiny", LONG.upper()]])
def test_every_bar_label_is_wrapped_and_inside_the_figure(texts) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bars = [(NOT_ANSWERED, 2), *((text, 5 - n) for n, text in enumerate(texts))]
    figure = exercise_figure("views-can-view", [0.0, 3.0, 6.0], 6.0, bars)
    figure.canvas.draw()
    frame = figure.bbox
    right = figure.axes[1]
    labels = [label for label in right.get_yticklabels() if label.get_text()]
    assert len(labels) == len(bars)
    for label in labels:
        box = label.get_window_extent()
        assert frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0 and box.y1 <= frame.y1, \
            f"{label.get_text()!r} is cut at the figure's edge"
        assert max(len(line) for line in label.get_text().splitlines()) <= LABEL_WIDTH
    boxes = sorted((label.get_window_extent() for label in labels), key=lambda box: box.y0)
    assert all(lower.y1 <= upper.y0 + 1 for lower, upper in zip(boxes, boxes[1:], strict=False)), "labels overlap"
    plt.close(figure)

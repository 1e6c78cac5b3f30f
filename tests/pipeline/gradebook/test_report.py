"""The class report reads what each test cell said: a misconception counts once per student, and an
exercise left as released counts as not answered, never as a misconception."""

from __future__ import annotations

import nbformat

from autograder.pipeline.course import Course
from autograder.pipeline.gradebook.report import _misconceptions


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

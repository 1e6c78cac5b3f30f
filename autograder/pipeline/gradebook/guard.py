"""One grade, whatever the route: nbgrader's own autograde stops before it touches anything.

The course's ``nbgrader_config.py`` names :class:`GradeWithTheCourse` as ``Autograde``'s exporter.
nbgrader's ``Autograde`` converter makes its exporter first thing in ``start()``, before it lists,
removes or writes anything, so formgrader's Autograde button and ``nbgrader autograde`` end there,
with a message that names the command to use, and the gradebook and the autograded notebooks stay
as ``autograd-state grade`` left them. Left to run, that route would execute the tests in the
learner's own kernel and record other scores: no partial credit, no tamper rule, nothing of the
sandbox (the instructor guide, *How grading is made safe*).

``autograd-state grade`` sets the exporter back in the configuration it gives nbgrader's
converter (:func:`autograder.pipeline.grading.sandboxed._config`); ``grade --unsafe-nbgrader`` passes
:data:`autograder.pipeline.grading.grade.NBGRADER_EXECUTES` to ``nbgrader autograde``.
"""

from __future__ import annotations

from nbconvert.exporters import NotebookExporter
from nbgrader.converters.base import NbGraderException


def refusal(assignment: str, student: str) -> str:
    """What nbgrader's autograde says instead of grading ``student``'s ``assignment``."""
    chapter = assignment if assignment and assignment != "*" else "<chapter>"
    one = f" (this submission alone: `autograd-state grade {chapter} --student {student} --force`)" \
        if student and student != "*" else ""
    return (f"not graded: this course grades submissions in its sandbox. Run `autograd-state grade {chapter}`"
            f"{one} in the course folder, as root. nbgrader's own autograde (formgrader's Autograde button, "
            "`nbgrader autograde`) would run the tests in the learner's kernel and record other scores, so "
            "the course's nbgrader_config.py turns it off; nothing was changed.")


class GradeWithTheCourse(NotebookExporter):
    """``Autograde``'s exporter in this course: refuses to be made, naming the command to use."""

    def __init__(self, *args, **kwargs) -> None:
        parent = kwargs.get("parent")
        coursedir = getattr(parent, "coursedir", None)
        message = refusal(getattr(coursedir, "assignment_id", ""), getattr(coursedir, "student_id", ""))
        if parent is not None:
            parent.log.error(message)
        raise NbGraderException(message)

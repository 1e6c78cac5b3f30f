"""nbgrader configuration for Autograd State.

The instructor sources live in ``notebooks/<chapter>/<chapter>.ipynb`` (nbgrader's "source"
folder is ``notebooks``); every other folder is nbgrader's default, relative to this file.
"""

from pathlib import Path

c = get_config()  # noqa: F821 - provided by nbgrader when it loads this file

c.CourseDirectory.root = str(Path(__file__).resolve().parent)
c.CourseDirectory.course_id = "autograd-state"
c.CourseDirectory.source_directory = "notebooks"

# Learner feedback must never show hidden tests (nbgrader's default feedback does), neither in
# a cell's source nor quoted by the traceback of a failed hidden test.
c.GenerateFeedback.preprocessors = [
    "nbgrader.preprocessors.GetGrades",
    "autograder.pipeline.feedback.ClearHiddenTracebacks",
    "nbgrader.preprocessors.ClearHiddenTests",
    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor",
]

# A chapter executes in well under a minute; a submission that hangs is stopped.
c.Execute.timeout = 120

# Autograding is `autograd-state grade`'s: nbgrader's own route (formgrader's Autograde button,
# `nbgrader autograde`) would run the tests in the learner's kernel and record other scores. It
# stops before it touches anything and names the command to use (autograder/pipeline/guard.py).
c.Autograde.exporter_class = "autograder.pipeline.guard.GradeWithTheCourse"

"""nbgrader configuration for Autograd State.

The instructor sources live in ``notebooks/<chapter>/<chapter>.ipynb`` (nbgrader's "source"
folder is ``notebooks``); every other folder is nbgrader's default, relative to this file.
"""

from pathlib import Path

from autograder.pipeline.gradebook.feedback import TEMPLATE, TEMPLATE_FILE, feedback_templates

c = get_config()  # noqa: F821 - provided by nbgrader when it loads this file

c.CourseDirectory.root = str(Path(__file__).resolve().parent)
c.CourseDirectory.course_id = "autograd-state"
c.CourseDirectory.source_directory = "notebooks"

# Learner feedback must never show hidden tests (nbgrader's default feedback does), neither in
# a cell's source nor quoted by the traceback of a failed hidden test.
c.GenerateFeedback.preprocessors = [
    "nbgrader.preprocessors.GetGrades",
    # Each error once, from the cells' frames, as the learner's kernel shows it.
    "autograder.pipeline.gradebook.feedback.ReadableErrors",
    "autograder.pipeline.gradebook.feedback.ClearHiddenTracebacks",
    "autograder.pipeline.gradebook.feedback.ClearHiddenTestsOfTestCells",
    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor",
    # Offline and on any screen: MathJax from the course's copy, beside the pages; lines that wrap;
    # each test cell named by its exercise (autograder/pipeline/gradebook/templates/course_feedback).
    "autograder.pipeline.gradebook.feedback.OfflineMathJax",
    "autograder.pipeline.gradebook.feedback.ExerciseTitles",
]
# Code coloured with 4.5:1 contrast at least (WCAG 2.1 AA), as the site's code is.
c.CSSHTMLHeaderPreprocessor.style = "a11y-light"
c.HTMLExporter.template_name = TEMPLATE
c.HTMLExporter.template_file = TEMPLATE_FILE
c.HTMLExporter.extra_template_basedirs = feedback_templates()

# A chapter executes in well under a minute; a submission that hangs is stopped.
c.Execute.timeout = 120

# The student edition reads in JupyterLab as the site does: jupyterlab-myst renders tabs, dropdowns
# and admonitions; cross-references and glued figures, which only the site has, are written out in
# plain Markdown before the checksums (autograder/pipeline/site/lab_markdown.py). A hidden test cell,
# its tests removed, keeps its docstring as a comment, so it prints nothing. Answer and test cells are
# tagged raises-exception, so Run All runs every cell (autograder/pipeline/site/release.py).
c.GenerateAssignment.preprocessors = [
    "nbgrader.preprocessors.IncludeHeaderFooter",
    "nbgrader.preprocessors.InstantiateTests",
    "nbgrader.preprocessors.LockCells",
    "nbgrader.preprocessors.ClearSolutions",
    "nbgrader.preprocessors.ClearOutput",
    "autograder.pipeline.site.lab_markdown.LabMarkdown",
    "autograder.pipeline.site.release.RunsThrough",
    "nbgrader.preprocessors.CheckCellMetadata",
    "nbgrader.preprocessors.ComputeChecksums",
    "nbgrader.preprocessors.SaveCells",
    "nbgrader.preprocessors.ClearHiddenTests",
    "autograder.pipeline.site.lab_markdown.QuietHiddenTests",
    "nbgrader.preprocessors.ClearMarkScheme",
    "nbgrader.preprocessors.ComputeChecksums",
    "nbgrader.preprocessors.CheckCellMetadata",
]
# The site the notebooks' cross-references link to: where `make serve` serves it. Set the address
# of the published site before releasing to learners.
c.LabMarkdown.site_url = "http://127.0.0.1:8000/"
# Autograding is `autograd-state grade`'s: nbgrader's own route (formgrader's Autograde button,
# `nbgrader autograde`) would run the tests in the learner's kernel and record other scores. It
# stops before it touches anything and names the command to use (autograder/pipeline/gradebook/guard.py).
c.Autograde.exporter_class = "autograder.pipeline.gradebook.guard.GradeWithTheCourse"

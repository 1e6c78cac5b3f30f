"""Feedback preprocessing: errors read in one line; hidden test cells keep their verdict, never their code.

- :class:`ReadableErrors`: every cell's error is shown once, as the learner's kernel shows it — the
  cells' frames, then the exception and its message — never a traceback IPython printed into the
  cell's text as well, nor the frames of torch or the grader (:mod:`autograder.pipeline.gradebook.outputs`).
- :class:`ClearHiddenTestsOfTestCells`: nbgrader's ``ClearHiddenTests``, on the course's test cells
  only: a learner's answer that writes the delimiter is the learner's text.
- :class:`ClearHiddenTracebacks`: nbgrader's ``ClearHiddenTests`` removes the hidden region from a
  cell's source, but a failed hidden test's traceback quotes that source line by line. Run before
  it, this reduces the error output of every cell with a hidden region to its last line: the
  exception and its message, which name the misconception without the probe.
- :class:`OfflineMathJax` and :class:`ExerciseTitles` serve the course's page template
  (``templates/course_feedback``, over nbgrader's): MathJax from the course's vendored copy, put
  beside the pages, and each test cell named by its exercise in the score summary. The template
  wraps every line of code and output in its box.

The course's ``nbgrader_config.py`` sets all of them, so formgrader's feedback button and
``nbgrader generate_feedback`` write the same pages as ``autograd-state feedback``.
"""

from __future__ import annotations

import filecmp
import shutil
from pathlib import Path

from nbconvert.preprocessors import Preprocessor
from nbgrader.preprocessors import ClearHiddenTests
from traitlets import Bool

from autograder.engine.gradeid import exercise_of, is_hidden
from autograder.pipeline.course import is_test_cell, nbgrader_meta
from autograder.pipeline.gradebook.outputs import cell_outputs
from autograder.pipeline.site.leaks import HIDDEN_TESTS_BEGIN

TEMPLATE = "course_feedback"  # its page.html.j2 extends nbgrader's feedback/index.html.j2
TEMPLATE_FILE = "page.html.j2"
# MathJax as the course vendors it for the site, and where a feedback folder keeps its copy.
MATHJAX = Path("_vendor", "mathjax")
MATHJAX_SCRIPT = "es5/tex-mml-chtml.js"


def feedback_templates() -> list[str]:
    """The template folders of the feedback page: the course's, then nbgrader's, which it extends
    (``HTMLExporter.extra_template_basedirs``)."""
    import nbgrader

    nbgrader_templates = Path(nbgrader.__file__).parent / "server_extensions" / "formgrader" / "templates"
    return [str(Path(__file__).with_name("templates")), str(nbgrader_templates)]


class ReadableErrors(Preprocessor):
    """Each code cell's outputs through :func:`~autograder.pipeline.gradebook.outputs.cell_outputs`."""

    enabled = Bool(True, help="nbconvert skips preprocessors that are not enabled").tag(config=True)

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type == "code" and cell.get("outputs"):
            cell.outputs = cell_outputs(cell.outputs, cell.get("execution_count"))
        return cell, resources


class ClearHiddenTestsOfTestCells(ClearHiddenTests):
    """nbgrader's ``ClearHiddenTests`` on the test cells only: an answer that writes its delimiter
    (in a string, a comment) is shown as written, and its page is still made (nbgrader's own
    stops at a delimiter with no end, and the whole command with it)."""

    def preprocess_cell(self, cell, resources, index):
        if not is_test_cell(cell):
            return cell, resources
        return super().preprocess_cell(cell, resources, index)


class ClearHiddenTracebacks(Preprocessor):
    """Replace the traceback of a hidden test cell's error by ``ExceptionName: message``."""

    enabled = Bool(True, help="nbconvert skips preprocessors that are not enabled").tag(config=True)

    def preprocess_cell(self, cell, resources, index):
        if is_test_cell(cell) and HIDDEN_TESTS_BEGIN in cell.source:
            for output in cell.get("outputs", []):
                if output.get("output_type") == "error":
                    output["traceback"] = [f"{output['ename']}: {output['evalue']}"]
        return cell, resources


class OfflineMathJax(Preprocessor):
    """Put the course's MathJax beside the feedback pages (``feedback/_vendor/mathjax``, copied once
    and again whenever the course's copy changes) and point the page at it by a relative address,
    so that a page works offline, from the folder or served with it."""

    enabled = Bool(True, help="nbconvert skips preprocessors that are not enabled").tag(config=True)

    def preprocess(self, nb, resources):
        from nbgrader.coursedir import CourseDirectory

        folders = CourseDirectory(config=self.config)
        source = Path(folders.root) / MATHJAX
        target = Path(folders.root) / folders.feedback_directory / MATHJAX
        if source.is_dir() and not _same_tree(source, target):
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(source, target)
        # A page is written at <feedback>/<student>/<assignment>/ (nbgrader's directory_structure).
        depth = folders.directory_structure.count("/")
        resources["mathjax_url"] = "../" * depth + (MATHJAX / MATHJAX_SCRIPT).as_posix()
        return nb, resources


def _same_tree(source: Path, target: Path) -> bool:
    if not target.is_dir():
        return False
    comparison = filecmp.dircmp(source, target)
    stack = [comparison]
    while stack:
        found = stack.pop()
        if found.left_only or found.right_only or found.diff_files or found.funny_files:
            return False
        stack += found.subdirs.values()
    return True


class ExerciseTitles(Preprocessor):
    """Name each test cell in the page's score summary: its exercise, and whether it is the
    visible or the hidden test (``resources["test_titles"]``, by grade id)."""

    enabled = Bool(True, help="nbconvert skips preprocessors that are not enabled").tag(config=True)

    def preprocess(self, nb, resources):
        titles = {}
        for cell in nb.cells:
            meta = nbgrader_meta(cell)
            grade_id = meta.get("grade_id")
            if grade_id and meta.get("grade") and not meta.get("solution"):
                kind = "hidden test" if is_hidden(grade_id) else "visible test"
                titles[grade_id] = f"{exercise_of(grade_id)}: {kind}"
        resources["test_titles"] = titles
        return nb, resources


def generate_feedback(course, chapter: str, db: str | None = None, progress: bool = False):
    """``feedback/<student>/<chapter>/<chapter>.html`` for every graded submission of a chapter.

    nbgrader's ``GenerateFeedback`` converter runs in this process with the course's
    ``nbgrader_config.py`` (hidden tests removed), as ``nbgrader generate_feedback --force`` would.

    Returns:
        The feedback folder.
    """
    from autograder.pipeline.progress import Progress

    graded = list(course.autograded.glob(f"*/{chapter}/{chapter}.ipynb"))
    bar = Progress(len(graded), f"{chapter} feedback pages written", note="importing nbgrader") if progress else None
    if graded:
        course.run_converter("GenerateFeedback", chapter, db=db, force=True, each=bar.step if bar else None)
    if bar:
        bar.finish()
    return course.root / "feedback"

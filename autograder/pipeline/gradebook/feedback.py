"""Feedback preprocessing: errors read in one line; hidden test cells keep their verdict, never their code.

- :class:`ReadableErrors`: every cell's error is shown once, as the learner's kernel shows it — the
  cells' frames, then the exception and its message — never a traceback IPython printed into the
  cell's text as well, nor the frames of torch or the grader (:mod:`autograder.pipeline.gradebook.outputs`).
- :class:`ClearHiddenTracebacks`: nbgrader's ``ClearHiddenTests`` removes the hidden region from a
  cell's source, but a failed hidden test's traceback quotes that source line by line. Run before
  it, this reduces the error output of every cell with a hidden region to its last line: the
  exception and its message, which name the misconception without the probe.
"""

from __future__ import annotations

from nbconvert.preprocessors import Preprocessor
from traitlets import Bool

from autograder.pipeline.gradebook.outputs import cell_outputs
from autograder.pipeline.site.leaks import HIDDEN_TESTS_BEGIN


class ReadableErrors(Preprocessor):
    """Each code cell's outputs through :func:`~autograder.pipeline.gradebook.outputs.cell_outputs`."""

    enabled = Bool(True, help="nbconvert skips preprocessors that are not enabled").tag(config=True)

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type == "code" and cell.get("outputs"):
            cell.outputs = cell_outputs(cell.outputs, cell.get("execution_count"))
        return cell, resources


class ClearHiddenTracebacks(Preprocessor):
    """Replace the traceback of a hidden test cell's error by ``ExceptionName: message``."""

    enabled = Bool(True, help="nbconvert skips preprocessors that are not enabled").tag(config=True)

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type == "code" and HIDDEN_TESTS_BEGIN in cell.source:
            for output in cell.get("outputs", []):
                if output.get("output_type") == "error":
                    output["traceback"] = [f"{output['ename']}: {output['evalue']}"]
        return cell, resources


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

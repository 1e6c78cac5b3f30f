"""Feedback preprocessing: hidden test cells keep their verdict, never their code.

nbgrader's ``ClearHiddenTests`` removes the hidden region from a cell's source, but a failed
hidden test's traceback quotes that source line by line. This preprocessor, run before it,
reduces the error output of every cell with a hidden region to its last line: the exception
and its message, which name the misconception without the probe.
"""

from __future__ import annotations

from nbconvert.preprocessors import Preprocessor
from traitlets import Bool

from autograder.pipeline.leaks import HIDDEN_TESTS_BEGIN


class ClearHiddenTracebacks(Preprocessor):
    """Replace the traceback of a hidden test cell's error by ``ExceptionName: message``."""

    enabled = Bool(True, help="nbconvert skips preprocessors that are not enabled").tag(config=True)

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type == "code" and HIDDEN_TESTS_BEGIN in cell.source:
            for output in cell.get("outputs", []):
                if output.get("output_type") == "error":
                    output["traceback"] = [f"{output['ename']}: {output['evalue']}"]
        return cell, resources

"""Committed notebooks are stored by the output rule of CONTRIBUTING.md."""

import nbformat
import pytest

from autograder.engine.gradeid import COMPANION
from autograder.pipeline.course import Course
from autograder.pipeline.site.normalize import is_normalized, normalize

COURSE = Course()


@pytest.mark.parametrize("chapter", COURSE.chapters())
def test_committed_notebooks_are_normalized(chapter):
    assert is_normalized(COURSE.source_notebook(chapter)), "run `make normalize` and commit the result"


# A closed-book companion shows tasks only: it makes no claims, so it has no error to keep.
@pytest.mark.parametrize("chapter", [c for c in COURSE.chapters() if not c.endswith(COMPANION)])
def test_claims_keep_their_text_outputs(chapter):
    notebook = nbformat.read(COURSE.source_notebook(chapter), as_version=4)
    raising = [c for c in notebook.cells if "raises-exception" in c.metadata.get("tags", [])]
    # A warning printed before the error (a stream output) may come first; the error must be kept.
    errors = [[o for o in c.outputs if o.output_type == "error"] for c in raising]
    assert raising and all(len(found) == 1 and found[0].evalue for found in errors)


def _executed_notebook():
    kernelspec = {"name": "python3", "display_name": "Python 3"}
    nb = nbformat.v4.new_notebook(metadata={"kernelspec": kernelspec, "widgets": {"state": {}}})
    text = nbformat.v4.new_code_cell("t.stride()", execution_count=7, metadata={"tags": ["x"], "collapsed": True})
    text.outputs = [nbformat.v4.new_output("execute_result", {"text/plain": "(8, 1)"}, execution_count=7)]
    figure = nbformat.v4.new_code_cell("draw_layout(t)", execution_count=8)
    figure.outputs = [nbformat.v4.new_output("display_data", {"image/png": "iVBOR", "text/plain": "<Figure>"})]
    error = nbformat.v4.new_code_cell("t.T.view(32)", execution_count=9)
    error.outputs = [nbformat.v4.new_output("error", ename="RuntimeError", evalue="view size", traceback=["long"])]
    nb.cells = [text, figure, error]
    return nb


def test_normalize_keeps_text_drops_images_tracebacks_and_volatile_metadata():
    nb = normalize(_executed_notebook())
    text, figure, error = nb.cells
    assert text.execution_count == 1 and text.outputs[0]["data"] == {"text/plain": "(8, 1)"}
    assert text.metadata == {"tags": ["x"]}
    assert figure.execution_count is None and figure.outputs == []
    assert error.execution_count == 2 and error.outputs[0].evalue == "view size"
    assert error.outputs[0].traceback == []
    assert "widgets" not in nb.metadata


def test_a_notebook_with_images_is_not_normalized(tmp_path):
    path = tmp_path / "x.ipynb"
    nbformat.write(_executed_notebook(), path)
    assert not is_normalized(path)
    nbformat.write(normalize(nbformat.read(path, 4)), path)
    assert is_normalized(path)

"""A graded cell's error, as the feedback shows it: once, from the cell's frames, numbered as the cell."""

from __future__ import annotations

import re

import nbformat
import pytest
from IPython.core.interactiveshell import InteractiveShell

from autograder.pipeline.gradebook.feedback import ReadableErrors
from autograder.pipeline.gradebook.outputs import cell_outputs, error_output, learner_lines, split_printed_traceback
from autograder.pipeline.sandbox import runner

VERSION_ERROR = "one of the variables needed for gradient computation has been modified by an inplace operation"
STALE = "x = torch.ones(3, requires_grad=True)\ny = (x ** 2).sum()\nwith torch.no_grad():\n    x.add_(1)\ny.backward()"


@pytest.fixture
def sandbox_report():
    """What the sandbox reports for a cell that raises inside torch: its printed text and its error."""
    shell = runner.notebook_shell()
    try:
        runner.run_cell(shell, "import torch", 10_000)
        outputs = runner.run_cell(shell, f"print('before')\n{STALE}", 10_000)
    finally:
        InteractiveShell.clear_instance()
    notebook_outputs = []
    for output in outputs:
        if isinstance(output, runner.wire.Error):
            notebook_outputs.append(nbformat.v4.new_output(
                "error", ename=output.ename, evalue=output.evalue, traceback=[f"{output.ename}: {output.evalue}"]))
        else:
            notebook_outputs.append(nbformat.v4.new_output("stream", name=output.name, text=output.text))
    return notebook_outputs


def shown(outputs) -> str:
    return "\n".join(
        output.get("text", "") if output.output_type == "stream" else "\n".join(output.traceback) for output in outputs
    )


def test_the_sandbox_reports_the_error_from_the_cells_frames_only(sandbox_report):
    text = shown(sandbox_report)
    assert VERSION_ERROR in text and "site-packages" not in text and "File " not in text


def test_the_error_is_shown_once_from_the_cells_frame_numbered_as_the_cell(sandbox_report):
    outputs = cell_outputs(sandbox_report, number=7)
    assert [output.output_type for output in outputs] == ["stream", "error"]
    assert outputs[0].text == "before\n"
    text = shown(outputs)
    assert text.count(VERSION_ERROR) == 1 and "site-packages" not in text and "File " not in text
    assert re.findall(r"Cell In\[(\d+)\]", text) == ["7"]
    assert "----> 6 y.backward()" in text and outputs[1].traceback[-1].startswith("RuntimeError: " + VERSION_ERROR)


def test_an_error_with_no_printed_traceback_keeps_its_one_line():
    error = nbformat.v4.new_output("error", ename="AssertionError", evalue="STRIDES: 1 of 5 checks failed.",
                                   traceback=["AssertionError: STRIDES: 1 of 5 checks failed."])
    assert cell_outputs([error]) == [error_output("AssertionError", "STRIDES: 1 of 5 checks failed.",
                                                  ["AssertionError: STRIDES: 1 of 5 checks failed."])]
    assert cell_outputs([error])[0].traceback == ["AssertionError: STRIDES: 1 of 5 checks failed."]


def test_printed_text_that_is_not_a_traceback_is_kept():
    text = "shape (4, 8)\nRuntimeError is what torch raises here\n"
    assert split_printed_traceback(text, "ValueError") == (text, "")


def test_library_frames_and_ipythons_rule_and_header_are_left_out():
    traceback = [
        "-" * 75,
        "RuntimeError                              Traceback (most recent call last)",
        "Cell In[3], line 2\n      1 t = torch.arange(32.)\n----> 2 t.view(5)\n",
        "File /home/x/.venv/lib/python3.11/site-packages/torch/_tensor.py:623, in Tensor.view(self)\n"
        "    622 def view(self):\n--> 623     return impl(self)\n",
        "RuntimeError: shape '[5]' is invalid for input of size 32",
    ]
    assert learner_lines(traceback) == [
        "Cell In[3], line 2", "      1 t = torch.arange(32.)", "----> 2 t.view(5)", "",
        "RuntimeError: shape '[5]' is invalid for input of size 32",
    ]


def test_the_feedback_preprocessor_cleans_every_code_cell(sandbox_report):
    cell = nbformat.v4.new_code_cell(STALE, execution_count=4)
    cell.outputs = sandbox_report
    cleaned, _ = ReadableErrors().preprocess_cell(cell, {}, 0)
    assert re.findall(r"Cell In\[(\d+)\]", shown(cleaned.outputs)) == ["4"]
    assert shown(cleaned.outputs).count(VERSION_ERROR) == 1

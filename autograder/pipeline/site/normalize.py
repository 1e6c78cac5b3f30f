"""Execute instructor notebooks and store them in the course's diff-friendly form.

The rule (CONTRIBUTING.md):

* text outputs are kept — printed values, reprs, error names and messages — because they are
  the claims nbval re-checks on every change;
* a cell whose output is a figure or a widget is stored unrun, with no output: nbval still runs
  it (an error fails), and the book renders it fresh;
* tracebacks, execution metadata, widget state and kernel details are dropped; execution counts
  are renumbered 1, 2, 3, … over the stored cells.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbclient import NotebookClient

RICH_MIME = ("image/png", "image/jpeg", "image/svg+xml", "application/vnd.jupyter.widget-view+json", "text/html")
# autograd_state: the page's own (its time estimate: autograder/pipeline/site/course_progress.py).
KEPT_NOTEBOOK_METADATA = ("kernelspec", "autograd_state")
KEPT_CELL_METADATA = ("nbgrader", "tags", "mystnb")


def _is_rich(output: nbformat.NotebookNode) -> bool:
    return any(mime in output.get("data", {}) for mime in RICH_MIME)


def _clean_output(output: nbformat.NotebookNode) -> nbformat.NotebookNode:
    output.pop("metadata", None)
    if output.output_type in ("execute_result", "display_data"):
        output["metadata"] = {}
        output["data"] = {"text/plain": output["data"]["text/plain"]}
    if output.output_type == "error":
        output["traceback"] = []
    return output


def normalize(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Apply the storage rule to an executed (or already stored) notebook, in place."""
    notebook.metadata = {key: notebook.metadata[key] for key in KEPT_NOTEBOOK_METADATA if key in notebook.metadata}
    notebook.metadata["language_info"] = {"name": "python"}
    count = 0
    for cell in notebook.cells:
        cell.metadata = {key: cell.metadata[key] for key in KEPT_CELL_METADATA if key in cell.metadata}
        if cell.cell_type != "code":
            continue
        if any(_is_rich(output) for output in cell.outputs) or cell.execution_count is None:
            cell.outputs = []
            cell.execution_count = None
            continue
        count += 1
        cell.execution_count = count
        cell.outputs = [_clean_output(output) for output in cell.outputs]
        for output in cell.outputs:
            if "execution_count" in output:
                output["execution_count"] = count
    return notebook


def execute_and_normalize(path: Path, timeout: int = 120) -> None:
    """Run a notebook top to bottom in a fresh kernel and store it normalised."""
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(notebook, timeout=timeout, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    unexpected = [
        cell.metadata.get("nbgrader", {}).get("grade_id", "?")
        for cell in notebook.cells
        if cell.cell_type == "code"
        and any(o.output_type == "error" for o in cell.outputs)
        and "raises-exception" not in cell.metadata.get("tags", [])
    ]
    if unexpected:
        raise RuntimeError(f"{path}: cells raised without the raises-exception tag: {unexpected}")
    nbformat.write(normalize(notebook), path)


def is_normalized(path: Path) -> bool:
    """True when storing the notebook again would not change a byte."""
    text = path.read_text()
    return nbformat.writes(normalize(nbformat.reads(text, as_version=4))).rstrip("\n") == text.rstrip("\n")

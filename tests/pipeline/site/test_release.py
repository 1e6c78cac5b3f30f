"""The student edition, made by nbgrader's generate_assignment through the course's command line."""

import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from autograder.pipeline.cli import main
from autograder.pipeline.course import is_answer_cell, is_test_cell, nbgrader_meta
from autograder.pipeline.site.leaks import find_leaks, secret_lines
from tests.conftest import copy_course

pytestmark = pytest.mark.nbgrader


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    course = copy_course(tmp_path_factory.mktemp("release"))
    assert main(["--root", str(course.root), "release", "views", "views-closed-book"]) == 0
    return course


def test_student_edition_has_stubs_instead_of_solutions(course):
    notebook = nbformat.read(course.release_notebook("views"), as_version=4)
    answers = [cell for cell in notebook.cells if is_answer_cell(cell)]
    assert len(answers) == 6
    functions = [cell for cell in answers if "def " in cell.source]
    assert len(functions) == 2 and all("    raise NotImplementedError()" in cell.source for cell in functions)
    # An answer given as values needs no code: its placeholders say it is not answered yet.
    values = [cell for cell in answers if cell not in functions]
    assert all("NotImplementedError" not in cell.source and "YOUR CODE HERE" not in cell.source for cell in values)
    assert all(cell.source.endswith("}") and ": ...," in cell.source for cell in values)


def test_a_stub_raise_is_dropped_only_after_placeholders():
    from autograder.pipeline.site.release import without_stub_raise

    value = 'X = {\n    "a": ...,  # an int\n}\n\n# YOUR CODE HERE\nraise NotImplementedError()'
    assert without_stub_raise(value) == 'X = {\n    "a": ...,  # an int\n}'
    for kept in ("def f():\n    # YOUR CODE HERE\n    raise NotImplementedError()",
                 "Shape = tuple[int, ...]\nraise NotImplementedError()",  # no placeholder answer
                 "# YOUR CODE HERE\nraise NotImplementedError()",
                 "X = ...\nprint(X)"):
        assert without_stub_raise(kept) == kept


def test_answer_and_test_cells_may_raise_and_the_kernel_record_is_the_kernels(course):
    """Run All goes past an unanswered exercise (JupyterLab sends a raises-exception cell with
    stop_on_error off); JupyterLab rewrites no metadata when the kernel starts."""
    from ipykernel.ipkernel import IPythonKernel

    notebook = nbformat.read(course.release_notebook("views"), as_version=4)
    graded = [c for c in notebook.cells if is_answer_cell(c) or is_test_cell(c)]
    assert len(graded) == 18 and all("raises-exception" in c.metadata.get("tags", []) for c in graded)
    assert notebook.metadata.language_info == IPythonKernel.language_info
    source = nbformat.read(course.source_notebook("views"), as_version=4)
    assert not any("raises-exception" in c.metadata.get("tags", []) for c in source.cells if is_test_cell(c))


def test_nbconvert_executes_a_released_notebook_to_its_end(course, tmp_path):
    """`jupyter nbconvert --execute` as a learner runs it: every cell runs, each unanswered test
    cell raises its one line, and the command succeeds."""
    edition = tmp_path / "views-closed-book.ipynb"
    edition.write_bytes(course.release_notebook("views-closed-book").read_bytes())
    done = subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute",
                           "--output", "executed.ipynb", str(edition)], capture_output=True, text=True, timeout=300,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    cells = [c for c in json.loads((tmp_path / "executed.ipynb").read_text())["cells"] if c["cell_type"] == "code"]
    assert all(c["execution_count"] is not None for c in cells)
    errors = {c["metadata"]["nbgrader"]["grade_id"]: [o for o in c["outputs"] if o["output_type"] == "error"]
              for c in cells}
    raised = {grade_id: found[0]["evalue"] for grade_id, found in errors.items() if found}
    assert raised == {"views-reproduce-tests": "\n".join(f"{name} is not answered yet." for name in (
        "contiguous_stride", "transposed", "sliced", "expanded"))}


def test_hidden_test_cells_are_reduced_to_their_docstring_as_a_comment(course):
    # A cell of comments prints nothing: no Out[] string, which Validate would warn is not a score.
    notebook = nbformat.read(course.release_notebook("views"), as_version=4)
    hidden = [c for c in notebook.cells if nbgrader_meta(c).get("grade_id", "").endswith("-tests-hidden")]
    assert len(hidden) == 6
    assert all(is_test_cell(c) and "grade(" not in c.source for c in hidden)
    assert all(line.startswith("# ") for c in hidden for line in c.source.splitlines())


def test_student_edition_leaks_nothing(course):
    secrets = secret_lines(course.source_notebook("views"), course.release_notebook("views"))
    assert secrets
    assert find_leaks(course.release, secrets) == []


def test_student_edition_has_no_outputs_and_locked_cells_stay_locked(course):
    notebook = nbformat.read(course.release_notebook("views"), as_version=4)
    code = [c for c in notebook.cells if c.cell_type == "code"]
    assert all(c.outputs == [] for c in code)
    locked = [c for c in notebook.cells if nbgrader_meta(c).get("locked")]
    assert locked and all(c.metadata.get("deletable") is False for c in locked)


def test_a_solution_line_another_chapter_teaches_in_the_open_is_not_secret(tmp_path):
    def notebook(name: str, cell: nbformat.NotebookNode) -> Path:
        path = tmp_path / f"{name}.ipynb"
        nbformat.write(nbformat.v4.new_notebook(cells=[cell]), path)
        return path

    solution = "w = w0.clone().requires_grad_()\nanswer = w.sum()\nreturn True"
    source = notebook("source", nbformat.v4.new_code_cell(f"### BEGIN SOLUTION\n{solution}\n### END SOLUTION"))
    edition = notebook("edition", nbformat.v4.new_code_cell("raise NotImplementedError()"))
    other_chapter = notebook("other", nbformat.v4.new_markdown_cell(
        "1. makes a parameter `w = w0.clone().requires_grad_()` (a leaf that requires grad)"))
    assert secret_lines(source, edition) == {"w = w0.clone().requires_grad_()", "answer = w.sum()"}
    assert secret_lines(source, edition, other_chapter) == {"answer = w.sum()"}


def test_release_changed_releases_only_what_changed(course, capsys):
    """`make lab` runs `release --changed`: a chapter is released again when its source folder or
    nbgrader_config.py changed since it was released into that gradebook, or its edition is gone."""
    from autograder.pipeline.site.release import changed

    root = ["--root", str(course.root)]
    assert "views" not in changed(course)
    assert main([*root, "release", "--changed", "views"]) == 0
    assert capsys.readouterr().out == "every chapter's student edition is up to date\n"
    assert "views" in changed(course, db=f"sqlite:///{course.root / 'other.db'}"), "another gradebook never had it"
    (course.source / "views" / "notes.txt").write_text("a file the chapter hands out")
    assert "views" in changed(course)
    assert main([*root, "release", "--changed", "views"]) == 0
    assert "released release/views/views.ipynb" in capsys.readouterr().out
    assert (course.release / "views" / "notes.txt").exists() and "views" not in changed(course)
    course.release_notebook("views").unlink()
    assert "views" in changed(course)

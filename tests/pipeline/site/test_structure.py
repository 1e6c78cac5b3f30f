"""Every chapter notebook follows the course's structure; a broken one is named cell by cell."""

import json
import shutil
from pathlib import Path

import nbformat
import pytest

from autograder.pipeline.course import ROOT, Course, nbgrader_meta
from autograder.pipeline.site.structure import problems

COURSE = Course()
CHAPTERS = COURSE.chapters()
CONTRACTS = ROOT.parent / "shared" / "contracts.json"


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapter_follows_the_structure(chapter):
    assert problems(COURSE.source_notebook(chapter)) == []


PAGE_COLUMN = 88
#: The chapters whose code cells, answer skeletons and solutions included, are kept to the column.
FITTED = ("views", "inplace", "detach", "leaves")


@pytest.mark.parametrize("chapter", FITTED)
def test_code_cells_fit_the_page_column(chapter):
    notebook = nbformat.read(COURSE.source_notebook(chapter), as_version=4)
    long_lines = [(cell.get("id"), line) for cell in notebook.cells if cell.cell_type == "code"
                  for line in cell.source.splitlines() if len(line) > PAGE_COLUMN]
    assert long_lines == []


def test_chapter_one_is_present():
    assert "views" in CHAPTERS


@pytest.mark.skipif(not CONTRACTS.exists(), reason="../shared/contracts.json is not beside this checkout")
def test_every_contract_of_a_written_chapter_has_its_cells():
    contracts = json.loads(CONTRACTS.read_text())
    for chapter in CHAPTERS:
        cells = {nbgrader_meta(c).get("grade_id"): c for c in nbformat.read(COURSE.source_notebook(chapter), 4).cells}
        for grade_id in contracts[chapter]:
            assert nbgrader_meta(cells[grade_id]).get("solution"), grade_id
            assert f"{grade_id}-tests" in cells, grade_id


def _mutated(tmp_path: Path, change) -> Path:
    path = tmp_path / "views.ipynb"
    shutil.copy(COURSE.source_notebook("views"), path)
    notebook = nbformat.read(path, as_version=4)
    change(notebook.cells)
    nbformat.write(notebook, path)
    return path


def _cell(cells, grade_id):
    return next(c for c in cells if nbgrader_meta(c).get("grade_id") == grade_id)


def test_a_duplicated_grade_id_is_named(tmp_path):
    path = _mutated(tmp_path, lambda cells: _cell(cells, "views-transpose").metadata.nbgrader.update(
        grade_id="views-base-tensor"))
    assert "grade_id 'views-base-tensor' is used by 2 cells" in problems(path)


def test_a_missing_grade_id_names_the_cell(tmp_path):
    first_line = []

    def drop_grade_id(cells):
        cell = _cell(cells, "views-transpose")
        first_line.append(cell.source.splitlines()[0])
        cell.metadata.nbgrader.pop("grade_id")

    found = problems(_mutated(tmp_path, drop_grade_id))
    assert any("no nbgrader grade_id" in p and first_line[0] in p for p in found), found


def test_an_unlocked_test_cell_is_named(tmp_path):
    path = _mutated(tmp_path, lambda cells: _cell(cells, "views-can-view-tests").metadata.nbgrader.update(
        locked=False))
    assert any("'views-can-view-tests': instruction and test cells must be locked" in p for p in problems(path))


def test_points_out_of_step_with_the_cases_are_named(tmp_path):
    # The hidden cell carries views-strides' points: its visible cell checks the form only, worth 0.
    path = _mutated(tmp_path, lambda cells: _cell(cells, "views-strides-tests-hidden").metadata.nbgrader.update(
        points=9))
    assert any("'views-strides-tests-hidden': worth 9 points, its cases sum to 5" in p for p in problems(path))


def test_a_missing_section_is_named(tmp_path):
    def drop_traps(cells):
        cell = _cell(cells, "views-traps")
        cell.source = cell.source.replace("## 5. Traps", "## Pitfalls")

    assert "section '## 5. Traps' is missing" in problems(_mutated(tmp_path, drop_traps))


def test_a_test_cell_without_points_is_named(tmp_path):
    path = _mutated(tmp_path, lambda cells: _cell(cells, "views-classify-tests").metadata.nbgrader.pop("points"))
    assert any("'views-classify-tests': a test cell must carry points" in p for p in problems(path))

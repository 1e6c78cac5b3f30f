"""The collect record and the learners' record merge, never replace: a second download, or one of a
single learner, leaves every other row as it was; a refusal keeps its row (when, which file, why)
until a later submission of that learner is admitted; and the class's roll names each learner once."""

from __future__ import annotations

import csv
import json
import zipfile
from pathlib import Path

import pytest

from autograder.engine.cases import exercises
from autograder.pipeline.gradebook.roll import MISSING, NOT_GRADED_YET, REFUSED, roll
from autograder.pipeline.intake.collect import collect
from autograder.pipeline.intake.lms import read_roster
from autograder.pipeline.intake.records import CollectRecord, LearnerRecord
from tests.catalog.views_closed_book import RIGHT
from tests.conftest import copy_course, released_copy

pytestmark = pytest.mark.nbgrader
CHAPTER = "views-closed-book"
ROSTER = """Student,ID,SIS User ID,SIS Login ID,Section,views-closed-book (9)
"Lovelace, Ada",2001,S-1,ada,Section A,
"Smith, Bob",2002,S-2,bob,Section B,
"Young, Cy",2003,S-3,cy,Section B,
"""


@pytest.fixture(scope="module")
def released(tmp_path_factory):
    course = released_copy(tmp_path_factory, tmp_path_factory.mktemp("records") / "course", [CHAPTER])
    return course


@pytest.fixture
def course(released, tmp_path):
    """A fresh course root with the student edition and the gradebook it was released into."""
    course = copy_course(tmp_path / "course")
    course.release_notebook(CHAPTER).parent.mkdir(parents=True)
    course.release_notebook(CHAPTER).write_bytes(released.release_notebook(CHAPTER).read_bytes())
    (course.root / "gradebook.db").write_bytes((released.root / "gradebook.db").read_bytes())
    return course


def answered(course) -> str:
    notebook = json.loads(course.release_notebook(CHAPTER).read_text())
    answers = {g: RIGHT[g][0][1] for g in exercises(CHAPTER)}
    for cell in notebook["cells"]:
        grade_id = (cell["metadata"].get("nbgrader") or {}).get("grade_id")
        if grade_id in answers:
            cell["source"] = answers[grade_id]
    return json.dumps(notebook)


def download(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


def rows(course) -> list[dict[str, str]]:
    with (course.submitted / f"{CHAPTER}-collect.csv").open(newline="") as handle:
        return list(csv.DictReader(handle))


def test_a_second_download_keeps_the_first_ones_rows_and_a_refusal_stays_until_its_learner_is_admitted(
        course, tmp_path) -> None:
    good = answered(course)
    first = download(tmp_path / "first", {f"ada/{CHAPTER}.ipynb": good, f"bob/{CHAPTER}.ipynb": '{"cells": [',
                                          "notes.txt": "my answers are in the notebook"})
    assert collect(course, CHAPTER, first)[0] == ["ada"]
    before = rows(course)
    bob = next(r for r in before if r["student"] == "bob")
    assert (bob["file"], bob["action"]) == (f"bob/{CHAPTER}.ipynb", "refused")
    assert bob["reason"].startswith("corrupt notebook") and bob["when"], "when, which file, why"

    second = download(tmp_path / "second", {f"cy/{CHAPTER}.ipynb": good})
    assert collect(course, CHAPTER, second)[0] == ["cy"]
    assert rows(course) == before, "a download of one learner leaves every other row as it was"
    standing = roll(course, CHAPTER)
    assert standing["bob"].state == REFUSED and "corrupt notebook" in standing["bob"].why
    assert f"bob/{CHAPTER}.ipynb" in standing["bob"].why
    assert {s: standing[s].state for s in ("ada", "cy")} == {"ada": NOT_GRADED_YET, "cy": NOT_GRADED_YET}

    third = download(tmp_path / "third", {f"bob_{CHAPTER}.ipynb": good})
    assert collect(course, CHAPTER, third)[0] == ["bob"]
    after = rows(course)
    assert not [r for r in after if r["student"] == "bob"], "bob's new submission was admitted: his refusal is over"
    assert [r for r in after if r["student"] != "bob"] == [r for r in before if r["student"] != "bob"]
    assert roll(course, CHAPTER)["bob"].state == NOT_GRADED_YET
    assert CollectRecord.of(course.submitted, CHAPTER).refusals() == {}


def test_a_canvas_download_names_its_refused_and_missing_learners_and_keeps_their_identifiers(
        course, tmp_path) -> None:
    archive = tmp_path / "views-closed-book submissions.zip"
    with zipfile.ZipFile(archive, "w") as bundle:
        bundle.writestr(f"lovelaceada_2001_7001_{CHAPTER}.ipynb", answered(course))
        bundle.writestr(f"smithbob_2002_7002_{CHAPTER}.ipynb", answered(course)[:300])  # truncated in the upload
    students, problems = collect(course, CHAPTER, archive, roster=read_roster(ROSTER))
    assert students == ["ada"]
    assert [(p.student, p.action) for p in problems] == [("bob", "refused")], "the truncated file is bob's"
    standing = roll(course, CHAPTER)
    assert (standing["bob"].state, standing["cy"].state) == (REFUSED, MISSING), "cy handed in nothing"
    learners = LearnerRecord.of(course.submitted).learners
    assert (learners["cy"].sis_user_id, learners["cy"].section, learners["cy"].lms_user_id) == ("S-3", "Section B",
                                                                                               "2003")

    # A later folder download of ada alone, no roster: her Canvas identifiers stay.
    later = download(tmp_path / "later", {f"ada/{CHAPTER}.ipynb": answered(course)})
    collect(course, CHAPTER, later)
    assert LearnerRecord.of(course.submitted).learners["ada"].sis_user_id == "S-1"
    assert roll(course, CHAPTER)["bob"].state == REFUSED


def test_a_folder_named_with_a_space_is_refused_naming_the_space(course, tmp_path) -> None:
    folder = download(tmp_path / "spaces", {f"ann lee/{CHAPTER}.ipynb": answered(course)})
    students, problems = collect(course, CHAPTER, folder)
    assert students == []
    (problem,) = problems
    assert problem.reason.startswith("wrong name: 'ann lee' cannot be a student id: it holds a space")
    assert "rename the folder" in problem.reason

"""The instructor guide's table of exercises and points says what the checks declare."""

from __future__ import annotations

import re

from autograder.engine.cases import exercises
from autograder.pipeline.course import Course
from autograder.pipeline.site.book import toc_order

ROW = re.compile(r"^\| `(?P<assignment>[a-z-]+)` \| (?P<exercises>.+) \| (?P<total>\d+) \|$")
EXERCISE = re.compile(r"`(?P<grade_id>[a-z-]+)` (?P<visible>\d+)\+(?P<hidden>\d+)")


def listed(guide: str) -> dict[str, tuple[list[tuple[str, int, int]], int]]:
    """Each assignment's row of the guide's table: its exercises with their points, and its total."""
    rows = {}
    for line in guide.splitlines():
        found = ROW.match(line)
        if found:
            entries = [(e["grade_id"], int(e["visible"]), int(e["hidden"]))
                       for e in EXERCISE.finditer(found["exercises"])]
            rows[found["assignment"]] = (entries, int(found["total"]))
    return rows


def test_the_guide_lists_every_exercise_with_the_points_its_cases_declare() -> None:
    course = Course()
    guide = (course.root / "book" / "instructors.md").read_text()
    declared = {}
    for assignment in course.chapters():
        entries = [(g, e.points(False), e.points(True)) for g, e in exercises(assignment).items()]
        declared[assignment] = (entries, sum(v + h for _g, v, h in entries))
    rows = listed(guide)
    assert rows == declared
    assert list(rows) == toc_order(course, list(rows)), "the rows follow the book's order"


def test_the_table_reader_reads_each_exercise_and_the_total() -> None:
    row = "| `leaves` | `leaves-sgd-step` 2+3, `leaves-momentum-step` 2+7 | 14 |"
    assert listed(row) == {"leaves": ([("leaves-sgd-step", 2, 3), ("leaves-momentum-step", 2, 7)], 14)}

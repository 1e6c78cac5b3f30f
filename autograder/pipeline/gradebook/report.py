"""The class report: per exercise, how the scores spread and which misconceptions are most frequent.

Read from nbgrader's gradebook (scores, manual grades included) and from the autograded notebooks
(the misconception each failed test cell named, and whether the answer was there at all). What
nobody tried is not a misconception: an exercise left as released counts as *not answered*, in a
bar and a column of its own. Written to ``reports/<chapter>/`` as CSV, one PNG per view and an
``index.html`` that shows them together.
"""

from __future__ import annotations

import csv
import html
from collections import Counter
from pathlib import Path

from autograder.engine.gradeid import exercise_of
from autograder.pipeline.course import Course, nbgrader_meta
from autograder.pipeline.progress import Progress

MARK = "Your answer behaves as if "
UNANSWERED = "is not answered yet."
NOT_ANSWERED = "(not answered)"
TOP = 5


def class_report(course: Course, chapter: str, db: str | None = None, progress: bool = False) -> Path:
    """Write the report of one chapter; returns its ``index.html``.

    Args:
        course: The course checkout.
        chapter: The chapter.
        db: Gradebook URL (the course default when None).
        progress: Draw a progress bar on stderr (the autograded notebooks read, the figures drawn).
    """
    bar = Progress(None, f"{chapter} report: submissions read", note="reading the gradebook") if progress else None
    import matplotlib

    from autograder.engine.cases import exercises

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    folder = course.root / "reports" / chapter
    folder.mkdir(parents=True, exist_ok=True)
    grade_ids = list(exercises(chapter))
    earned = _scores(course, chapter, db or course.gradebook_url, grade_ids)
    if bar:
        bar.finish()
        bar = Progress(len(earned) + len(grade_ids), f"{chapter} report: submissions read, figures drawn")
    counts, unanswered = _misconceptions(course, chapter, list(earned), bar)

    with (folder / "scores.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["student", "exercise", "score", "max_score", "answered"])
        for student, row in sorted(earned.items()):
            writer.writerows([student, g, *row[g], "no" if student in unanswered[g] else "yes"] for g in grade_ids)
    with (folder / "misconceptions.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["exercise", "misconception", "students"])
        for grade_id in grade_ids:
            writer.writerows([grade_id, text, n] for text, n in counts[grade_id].most_common())
            if unanswered[grade_id]:
                writer.writerow([grade_id, NOT_ANSWERED, len(unanswered[grade_id])])

    figures = []
    for grade_id in grade_ids:
        figure, (left, right) = plt.subplots(1, 2, figsize=(12, 3.2), gridspec_kw={"width_ratios": [1, 2]})
        values = [row[grade_id][0] for row in earned.values()]
        top = max([row[grade_id][1] for row in earned.values()] or [1])
        left.hist(values, bins=[x - 0.5 for x in range(int(top) + 2)], color="#4c72b0", rwidth=0.85)
        left.set(title=f"{grade_id}: score of {len(values)} students", xlabel=f"points (of {top:g})",
                 ylabel="students")
        common = counts[grade_id].most_common(TOP)[::-1]
        bars = [(NOT_ANSWERED, len(unanswered[grade_id]), "#8c8c8c")] + [(t, n, "#dd8452") for t, n in common]
        right.barh([_short(t) for t, _, _ in bars], [n for _, n, _ in bars], color=[c for _, _, c in bars])
        right.set(title="not answered, and the most frequent misconceptions", xlabel="students")
        right.tick_params(axis="y", labelsize=7)
        for axis in (left.yaxis, right.xaxis):  # counts of students are whole numbers
            axis.set_major_locator(MaxNLocator(integer=True))
        figure.tight_layout()
        name = f"{grade_id}.png"
        figure.savefig(folder / name, dpi=90)
        plt.close(figure)
        figures.append((grade_id, name, [(NOT_ANSWERED, len(unanswered[grade_id])), *common[::-1]]))
        if bar:
            bar.step(grade_id)
    index = folder / "index.html"
    index.write_text(_page(chapter, len(earned), figures))
    return index


def _scores(course: Course, chapter: str, db: str, grade_ids: list[str]) -> dict[str, dict[str, tuple[float, float]]]:
    """Per student and exercise: points earned (manual grades win) and the maximum."""
    from nbgrader.api import Gradebook, MissingEntry

    table: dict[str, dict[str, tuple[float, float]]] = {}
    with Gradebook(db) as gradebook:
        for submission in gradebook.find_assignment(chapter).submissions:
            try:
                notebook = gradebook.find_submission_notebook(chapter, chapter, submission.student.id)
            except MissingEntry:
                continue
            row = {g: (0.0, 0.0) for g in grade_ids}
            for grade in notebook.grades:
                exercise = exercise_of(grade.name)
                if exercise in row:
                    score, top = row[exercise]
                    row[exercise] = (score + float(grade.score or 0), top + float(grade.max_score))
            table[submission.student.id] = row
    return table


def _misconceptions(course: Course, chapter: str, students: list[str], bar: Progress | None = None
                    ) -> tuple[dict[str, Counter], dict[str, set]]:
    """Per exercise: how many students got each misconception (a student counts once per message),
    and which students left it unanswered (every check said so).

    An autograded notebook that cannot be read (another tool wrote it) counts nothing.
    """
    import nbformat

    from autograder.engine.cases import exercises

    counts: dict[str, Counter] = {g: Counter() for g in exercises(chapter)}
    unanswered: dict[str, set] = {g: set() for g in counts}
    for student in students:
        if bar:
            bar.step(student)
        path = course.autograded / student / chapter / f"{chapter}.ipynb"
        if not path.exists():
            continue
        seen: dict[str, set[str]] = {}
        try:
            for cell in nbformat.read(path, as_version=4).cells:
                exercise = exercise_of(nbgrader_meta(cell).get("grade_id", ""))
                if exercise not in counts:
                    continue
                for output in cell.get("outputs", []):
                    lines = [line.strip() for line in output.get("evalue", "").splitlines() if line.strip()]
                    if lines and all(line.endswith(UNANSWERED) for line in lines):
                        unanswered[exercise].add(student)
                    for line in lines:
                        if line.startswith(MARK):
                            seen.setdefault(exercise, set()).add(line.removeprefix(MARK))
        except Exception:  # noqa: BLE001 - not a notebook the course wrote: nothing to count in it
            continue
        for exercise, texts in seen.items():
            counts[exercise].update(texts)
    return counts, unanswered


def _short(text: str, limit: int = 70) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _page(chapter: str, students: int, figures: list) -> str:
    parts = [f"<!doctype html><meta charset='utf-8'><title>{chapter}: class report</title>",
             "<style>body{font-family:sans-serif;max-width:1100px;margin:auto}td{padding:2px 8px}</style>",
             f"<h1>{html.escape(chapter)}: class report</h1><p>{students} graded submissions. "
             "Data: <a href='scores.csv'>scores.csv</a>, <a href='misconceptions.csv'>misconceptions.csv</a>.</p>"]
    for grade_id, image, common in figures:
        rows = "".join(f"<tr><td>{n}</td><td>{html.escape(t)}</td></tr>" for t, n in common)
        parts.append(f"<h2>{html.escape(grade_id)}</h2><img src='{image}' width='100%'>"
                     f"<table><tr><th>students</th><th>misconception</th></tr>{rows}</table>")
    return "\n".join(parts)

"""The class report: per exercise, how the scores spread and which misconceptions are most frequent.

Read from nbgrader's gradebook (scores, manual grades included) and from the autograded notebooks
(the misconception each failed test cell named, and whether the answer was there at all). What
nobody tried is not a misconception: an exercise left as released counts as *not answered*, in a
bar and a column of its own. Written to ``reports/<chapter>/`` as CSV, one PNG per view and an
``index.html`` that shows them together, and lists every learner on the class's roll once with
their standing (:mod:`autograder.pipeline.gradebook.roll`; also ``learners.csv``): how many were
graded, untouched, refused and why, not graded yet, or missing. The page needs nothing but its
folder (no script, nothing from the network), and its charts' labels are wrapped to fit them.
"""

from __future__ import annotations

import csv
import html
import textwrap
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from autograder.engine.gradeid import exercise_of
from autograder.pipeline.course import Course, nbgrader_meta
from autograder.pipeline.gradebook.roll import STATES, Standing, roll
from autograder.pipeline.progress import Progress

if TYPE_CHECKING:
    from matplotlib.figure import Figure

MARK = "Your answer behaves as if "
UNANSWERED = "is not answered yet."
NOT_ANSWERED = "(not answered)"
TOP = 5
LABEL_WIDTH = 38  # characters per line of a bar's label


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

    folder = course.root / "reports" / chapter
    folder.mkdir(parents=True, exist_ok=True)
    grade_ids = list(exercises(chapter))
    db = db or course.gradebook_url
    earned = _scores(course, chapter, db, grade_ids)
    standings = roll(course, chapter, db)
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
    learners = [(s, _total(earned.get(s.student))) for s in standings.values()]
    with (folder / "learners.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["student", "status", "why", "score", "max_score"])
        writer.writerows([s.student, s.state, s.why, *total] for s, total in learners)

    figures = []
    for grade_id in grade_ids:
        values = [row[grade_id][0] for row in earned.values()]
        top = max([row[grade_id][1] for row in earned.values()] or [1])
        common = counts[grade_id].most_common(TOP)
        bars = [(NOT_ANSWERED, len(unanswered[grade_id])), *common]
        figure = exercise_figure(grade_id, values, top, bars)
        name = f"{grade_id}.png"
        figure.savefig(folder / name, dpi=90)
        plt.close(figure)
        figures.append((grade_id, name, len(values), top, bars))
        if bar:
            bar.step(grade_id)
    index = folder / "index.html"
    index.write_text(_page(chapter, learners, figures))
    return index


def exercise_figure(grade_id: str, values: list[float], top: float, bars: list[tuple[str, int]]) -> Figure:
    """One exercise's figure: the spread of its scores, and a bar per label of ``bars`` (not
    answered first, then the most frequent misconceptions), each label wrapped to
    :data:`LABEL_WIDTH` characters and the figure as tall as they need, laid out so that none is
    cut at the figure's edge."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    labels = [textwrap.fill(text, LABEL_WIDTH) for text, _ in bars][::-1]
    lines = sum(label.count("\n") + 1 for label in labels)
    figure, (left, right) = plt.subplots(1, 2, figsize=(12, max(3.2, 1.0 + 0.22 * lines + 0.15 * len(labels))),
                                         gridspec_kw={"width_ratios": [1, 2]}, layout="constrained")
    left.hist(values, bins=[x - 0.5 for x in range(int(top) + 2)], color="#4c72b0", rwidth=0.85)
    left.set(title=f"{grade_id}: score of {len(values)} students", xlabel=f"points (of {top:g})", ylabel="students")
    colors = ["#dd8452"] * (len(bars) - 1) + ["#6b6b6b"]
    right.barh(range(len(labels)), [n for _, n in bars][::-1], color=colors)
    right.set_yticks(range(len(labels)), labels, fontsize=10)
    right.set(title="not answered, and the most frequent misconceptions", xlabel="students")
    for axis in (left.yaxis, right.xaxis):  # counts of students are whole numbers
        axis.set_major_locator(MaxNLocator(integer=True))
    return figure


def _total(row: dict[str, tuple[float, float]] | None) -> tuple[float | str, float | str]:
    """A learner's points and the points possible in the chapter, or empty where nothing was graded."""
    if row is None:
        return "", ""
    return sum(score for score, _ in row.values()), sum(top for _, top in row.values())


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


def _page(chapter: str, learners: list[tuple[Standing, tuple]], figures: list) -> str:
    title = html.escape(f"{chapter}: class report")
    states = Counter(s.state for s, _ in learners)
    counted = ", ".join(f"{states[state]} {state}" for state in STATES if states[state])
    parts = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'>"
             "<meta name='viewport' content='width=device-width, initial-scale=1'>"
             f"<title>{title}</title><style>{STYLE}</style></head><body><main>",
             f"<h1>{title}</h1>",
             f"<p>{len(learners)} learner(s) on the roll: {html.escape(counted) or 'none'}. Data: "
             "<a href='learners.csv'>learners.csv</a>, <a href='scores.csv'>scores.csv</a>, "
             "<a href='misconceptions.csv'>misconceptions.csv</a>.</p>",
             "<h2 id='learners'>Learners</h2><table><caption>Every learner on the roll, with their standing in "
             f"{html.escape(chapter)} and their points</caption><thead><tr><th scope='col'>learner</th>"
             "<th scope='col'>standing</th><th scope='col'>points</th></tr></thead><tbody>"]
    for standing, (score, top) in learners:
        points = f"{score:g} of {top:g}" if score != "" else ""
        parts.append(f"<tr><td>{html.escape(standing.student)}</td><td>{html.escape(str(standing))}</td>"
                     f"<td>{points}</td></tr>")
    parts.append("</tbody></table>")
    for grade_id, image, students, top, bars in figures:
        shown = "; ".join(f"{text}: {n}" for text, n in bars)
        alt = (f"{grade_id}: a histogram of the points (of {top:g}) of {students} graded submissions, and a bar "
               f"per learner count: {shown}")
        rows = "".join(f"<tr><td>{n}</td><td>{html.escape(t)}</td></tr>" for t, n in bars)
        parts.append(f"<h2>{html.escape(grade_id)}</h2><img src='{image}' alt='{html.escape(alt, quote=True)}'>"
                     f"<table><caption>{html.escape(grade_id)}: not answered, and the most frequent misconceptions"
                     "</caption><thead><tr><th scope='col'>students</th><th scope='col'>misconception</th></tr>"
                     f"</thead><tbody>{rows}</tbody></table>")
    parts.append("</main></body></html>")
    return "\n".join(parts)


STYLE = ("body{font-family:sans-serif;max-width:1100px;margin:auto;padding:0 1em;color:#1a1a1a;background:#fff}"
         "img{max-width:100%;height:auto}table{border-collapse:collapse;margin:0.5em 0 1.5em;width:100%}"
         "td,th{padding:2px 8px;text-align:left;vertical-align:top;overflow-wrap:anywhere}"
         "caption{text-align:left;font-style:italic}a{color:#0645ad}")

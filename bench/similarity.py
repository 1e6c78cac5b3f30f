"""Benchmark: the similarity report of a class against a plain pairwise comparison, in the same run.

A synthetic class of Chapter 1 (``--students``, default 300): each learner's answer to each exercise
is one of the test class's right answers (the blind panel's, the catalogue's and
``tests/pipeline/gradebook/similarity_class/``'s), with its names renamed, and lines of the
learner's own added (a few statements with constants of their own), and a few learners hand in
another's answers disguised. Timed, wall clock:

- ``autograd-state similarity views``, whole: reading every notebook within the limits, matching
  its cells to the student edition, fingerprinting, comparing and writing the page and the CSV;
- copydetect's own pairwise comparison (``CopyDetector``: every answer against every other, one
  exercise at a time, with the same k and window and the student edition as boilerplate) on the
  answer cells already taken out of the notebooks, and without writing its report.

    .venv/bin/python bench/similarity.py [--students 300] [--seed 7]

Prints a table and the load average around each run. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import io
import keyword
import os
import random
import sys
import tempfile
import time
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autograder.engine.cases import exercises  # noqa: E402
from autograder.pipeline.course import read_notebook  # noqa: E402
from autograder.pipeline.gradebook import similarity  # noqa: E402
from autograder.pipeline.gradebook.similarity_report import similarity_report  # noqa: E402
from autograder.pipeline.site.release import release  # noqa: E402
from tests.conftest import copy_course  # noqa: E402
from tests.pipeline.gradebook.test_similarity import CHAPTER, HERE, independent_answers  # noqa: E402
from tests.submissions import submit  # noqa: E402

OWN_LINES = ("checked_{n} = {a} * {b} + {c}", "limits_{n} = ({a}, {b}, {c})",
             "if {a} > {b}:\n    print('note {n}', {c})", "notes_{n} = [{a}, {b}] + [{c}] * 2")
KEPT = set(dir(__builtins__)) | set(keyword.kwlist) | {"torch", "np", "math", "itertools", "STRIDES", "CLASSIFY",
                                                       "CLASSIFY_MORE", "SELFTEST", "shares_storage", "can_view"}


def renamed(source: str, pick: random.Random) -> str:
    """``source`` with every name the learner chose renamed (attributes and given names kept)."""
    names: dict[str, str] = {}
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    out = []
    for index, token in enumerate(tokens):
        after_dot = index > 0 and tokens[index - 1].string == "."
        if token.type == tokenize.NAME and token.string not in KEPT and not after_dot:
            token = token._replace(string=names.setdefault(token.string, f"{token.string[:2]}{pick.randrange(999)}"))
        out.append(token)
    return tokenize.untokenize(out)


def own_lines(pick: random.Random) -> str:
    lines = [pick.choice(OWN_LINES).format(n=pick.randrange(10**6), a=pick.randrange(1000), b=pick.randrange(1000),
                                           c=pick.randrange(1000)) for _ in range(pick.randrange(1, 4))]
    return "\n".join(lines) + "\n"


def synthetic_answers(students: int, seed: int) -> dict[str, dict[str, str]]:
    pick = random.Random(seed)
    pool = {g: list(independent_answers(g).values()) for g in exercises(CHAPTER)}
    copies = {g: (HERE / "copies" / f"{g}.py").read_text() for g in exercises(CHAPTER)}
    answers: dict[str, dict[str, str]] = {}
    for number in range(students):
        answers[f"student-{number:03d}"] = {
            g: own_lines(pick) + renamed(copies[g] if number % 50 == 49 else pick.choice(pool[g]), pick)
            for g in exercises(CHAPTER)}
    return answers


def timed(run) -> tuple[float, str, object]:
    before = os.getloadavg()[0]
    started = time.monotonic()
    result = run()
    return time.monotonic() - started, f"{before:.1f}-{os.getloadavg()[0]:.1f}", result


def copydetect_pairwise(answers: dict[str, dict[str, str]], given: list[str], scratch: Path) -> int:
    """copydetect's ``CopyDetector`` over every exercise's answer cells: the pairs it compared."""
    import matplotlib

    matplotlib.use("Agg")
    from copydetect import CopyDetector

    (scratch / "given").mkdir(parents=True)
    for n, code in enumerate(given):
        (scratch / "given" / f"{n}.py").write_text(code)
    compared = 0
    for grade_id in exercises(CHAPTER):
        folder = scratch / grade_id
        folder.mkdir()
        for student, cells in answers.items():
            (folder / f"{student}.py").write_text(cells[grade_id])
        detector = CopyDetector(test_dirs=[str(folder)], boilerplate_dirs=[str(scratch / "given")],
                                extensions=["py"], noise_t=similarity.NOISE, guarantee_t=similarity.GUARANTEE,
                                display_t=similarity.THRESHOLD, silent=True, autoopen=False)
        detector.run()
        compared += int((detector.similarity_matrix[:, :, 0] >= 0).sum()) // 2
    return compared


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        course = copy_course(Path(scratch) / "course")
        release(course, [CHAPTER])
        answers = synthetic_answers(args.students, args.seed)
        for student, cells in answers.items():
            submit(course, CHAPTER, student, cells)
        given = similarity.given_code(read_notebook(course.release_notebook(CHAPTER)))
        ours, ours_load, written = timed(lambda: similarity_report(course, CHAPTER))
        plain, plain_load, pairs = timed(lambda: copydetect_pairwise(answers, given, Path(scratch) / "plain"))
    standing = ", ".join(f"{n} {k}" for k, n in sorted(written.standing_out.items())) or "none"
    print(f"{args.students} submissions of {CHAPTER}, {len(exercises(CHAPTER))} exercises; pairs standing out: "
          f"{standing}")
    print("| comparison | seconds | vs plain pairwise | load average |")
    print("|---|---|---|---|")
    print(f"| `autograd-state similarity {CHAPTER}` (notebooks read, page written) | {ours:.1f} | "
          f"{plain / ours:.1f}x | {ours_load} |")
    print(f"| copydetect's pairwise `CopyDetector`, {pairs} pairs (answer cells given, no report) | {plain:.1f} | "
          f"1.0x | {plain_load} |")


if __name__ == "__main__":
    main()

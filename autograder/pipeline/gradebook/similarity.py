"""Similar answers in a chapter's class: which pairs of learners share code that few others wrote.

For the instructor only: what it finds is a lead for a conversation, never a verdict, and nothing
of it reaches a learner, a feedback page or the gradebook.

Each learner's answer cells are read per exercise (by grade id, matched to the student edition as
grading matches them: :func:`~autograder.pipeline.intake.reconcile.reconcile`) and fingerprinted by
`copydetect <https://github.com/blingenf/copydetect>`_: its tokenizer (Pygments) replaces every
identifier by one letter, every string by another, and drops comments and whitespace; winnowing
then keeps a guaranteed sample of the k-grams of what is left, each matched wherever it stands, so
renamed variables, rewritten comments and reordered statements leave the fragments matching.
Three things keep a pair from standing out for what it could not help sharing:

- *what the release gives*: every k-gram of the student edition's code (its stubs, the given code
  of its answer cells, its locked and test cells, the code blocks of its text) is boilerplate, and
  a fingerprint of an answer counts only when it holds a character no such k-gram covers, so given
  pieces pasted one after another count for nothing either;
- *rarity*: a fingerprint that ``d`` answers of the exercise hold weighs ``1 / (d - 1)`` — in full
  when only the pair wrote it, half when a third learner did too, almost nothing when many did —
  so the code every right learner writes alike (a dict of strings, a one-line function) counts
  for little, however alike two answers are;
- *length*: a pair's score is the weight of the fingerprints they share over the smaller of
  their answers' weights, an answer with less than :data:`FLOOR` counting as :data:`FLOOR`: two
  short answers written alike cannot reach a high score.

The overall score of a pair adds the shares and the sizes of every exercise both answered. A pair
at or above :data:`THRESHOLD` *stands out*: the test class (about twenty independent right answers
per exercise of Chapter 1, ``tests/pipeline/gradebook/similarity_class/``) stays below it, and a
disguised copy in it scores above.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from autograder.pipeline.course import Course, is_answer_cell, nbgrader_meta

if TYPE_CHECKING:
    import nbformat
    import numpy as np

    from autograder.pipeline.progress import Progress

NOISE = 12  # copydetect's noise threshold: k, in normalised characters (an identifier is one)
GUARANTEE = 13  # copydetect's guarantee threshold: a match this long is always found (window 2)
FLOOR = 44.0  # an answer weighs at least this many fingerprints in a score's denominator
THRESHOLD = 0.6  # a pair at or above it stands out
MARKED = 0.5  # a shared fingerprint of at least this weight (three answers hold it at most) is marked
MEANING = ("A high score means that two answers share more code that few others in the class wrote than "
           "independent answers to these exercises do; it is a lead for a conversation with the learners, "
           "never a verdict. It does not mean that anyone copied: learners who worked together as allowed, a "
           "hint given to the class, or a short answer that everyone writes alike can score high, and a copy "
           "rewritten thoroughly enough can score low.")


@dataclass(frozen=True)
class Answer:
    """One learner's answer cell of one exercise, as written."""

    learner: str
    grade_id: str
    source: str


@dataclass
class Class:
    """The answers to compare: this term's learners, those of earlier terms, and who was not read."""

    learners: list[str] = field(default_factory=list)
    earlier: list[str] = field(default_factory=list)
    answers: list[Answer] = field(default_factory=list)
    unread: dict[str, str] = field(default_factory=dict)  # learner: why their notebook was not compared


@dataclass(frozen=True)
class Pair:
    """Two learners' similarity in one exercise, or overall (``grade_id`` None)."""

    grade_id: str | None
    learner: str
    other: str
    score: float
    shared: float  # the weight of the fingerprints they share

    @property
    def stands_out(self) -> bool:
        return self.score >= THRESHOLD


@dataclass(frozen=True)
class Fragment:
    """A marked stretch of an answer as written: characters ``start:end``, and its number."""

    start: int
    end: int
    number: int


@dataclass
class Exercise:
    """One exercise's fingerprinted answers and the rarity of each fingerprint in the class."""

    grade_id: str
    prints: dict[str, Prints]
    holders: dict[int, int]  # fingerprint: how many answers hold it
    weights: dict[int, float] = field(init=False)

    def __post_init__(self) -> None:
        self.weights = {h: 1 / max(d - 1, 1) for h, d in self.holders.items()}

    def size(self, learner: str) -> float:
        return sum(self.weights[h] for h in self.prints[learner].hashes)

    def fragments(self, learner: str, other: str) -> tuple[list[Fragment], list[Fragment]]:
        """The stretches of the two answers, as written, that hold fingerprints both share and at
        most three answers of the class hold; a stretch of ``other``'s answer takes the number of
        the first of ``learner``'s it shares a fingerprint with."""
        from copydetect.utils import get_copied_slices

        mine, theirs = self.prints[learner], self.prints[other]
        marked = {h for h in mine.hashes & theirs.hashes if self.weights[h] >= MARKED}
        if not marked:
            return [], []
        spans = {}
        for side, prints in (("mine", mine), ("theirs", theirs)):
            starts = sorted(i for h in marked for i in prints.hash_idx[h])
            spans[side] = get_copied_slices(starts, prints.k).T.tolist()  # in normalised characters
        numbers = []
        for start, end in spans["theirs"]:
            held = {h for h in marked if any(start <= i < end for i in theirs.hash_idx[h])}
            first = next(n for n, (s, e) in enumerate(spans["mine"], 1)
                         if any(s <= i < e for h in held for i in mine.hash_idx[h]))
            numbers.append(first)
        return ([Fragment(*_as_written(mine, s, e), n) for n, (s, e) in enumerate(spans["mine"], 1)],
                [Fragment(*_as_written(theirs, s, e), n) for n, (s, e) in zip(numbers, spans["theirs"], strict=True)])


def _as_written(prints: Prints, start: int, end: int) -> tuple[int, int]:
    """A stretch of normalised code as characters of the answer as written (copydetect's offsets,
    as its ``compare_files`` maps them), widened to whole names and without leading blanks."""
    import numpy as np

    if len(prints.offsets):
        where = np.clip(np.searchsorted(prints.offsets[:, 0], [start, end]), 0, prints.offsets.shape[0] - 1)
        moved = prints.offsets[:, 1][where]
        start, end = int(start + moved[0]), int(end + moved[1])
    text = prints.source
    end = min(end, len(text))
    while 0 < start < len(text) and _in_name(text[start - 1]) and _in_name(text[start]):
        start -= 1
    while 0 < end < len(text) and _in_name(text[end - 1]) and _in_name(text[end]):
        end += 1
    while start < end and text[start].isspace():
        start += 1
    return start, end


def _in_name(char: str) -> bool:
    return char.isalnum() or char == "_"


def read_class(course: Course, chapter: str, against: Iterable[Path] = (), bounds=None,
               progress: Progress | None = None) -> Class:
    """Every learner's answer cells of ``chapter`` in ``submitted/``, and those of earlier terms
    (folders of ``<student>/<chapter>/<chapter>.ipynb``, or course folders holding ``submitted/``),
    each named ``<folder>/<student>``. A notebook that cannot be read is named in ``unread`` and
    the rest of the class is compared."""
    from autograder.pipeline.gradebook.flags import submissions
    from autograder.pipeline.intake.bounds import Bounds

    bounds = bounds or Bounds.from_env()
    edition = _edition(course, chapter)
    found = Class()
    for student, path in submissions(course, chapter):
        found.learners.append(student)
        _read_one(found, student, path, edition, bounds)
        if progress:
            progress.step(student)
    for folder in against:
        folder = folder / "submitted" if (folder / "submitted").is_dir() else folder
        earlier = sorted(folder.glob(f"*/{chapter}/{chapter}.ipynb"))
        if not earlier:
            raise FileNotFoundError(f"{folder}: no submission of {chapter} in it (as <student>/{chapter}/"
                                    f"{chapter}.ipynb)")
        label = (folder.parent if folder.name == "submitted" else folder).resolve().name
        for path in earlier:
            learner = f"{label}/{path.parents[1].name}"
            found.earlier.append(learner)
            _read_one(found, learner, path, edition, bounds)
            if progress:
                progress.step(learner)
    return found


def _edition(course: Course, chapter: str) -> nbformat.NotebookNode:
    from autograder.pipeline.course import read_notebook

    return read_notebook(course.release_notebook(chapter))


def _read_one(found: Class, learner: str, path: Path, edition: nbformat.NotebookNode, bounds) -> None:
    from autograder.pipeline.intake.bounds import Refused, load
    from autograder.pipeline.intake.reconcile import reconcile

    try:
        notebook, _ = load(path, bounds)
    except Refused as err:
        found.unread[learner] = str(err)
        return
    given = {nbgrader_meta(c)["grade_id"]: c.source for c in edition.cells if is_answer_cell(c)}
    for cell in reconcile(notebook, edition).notebook.cells:
        grade_id = nbgrader_meta(cell).get("grade_id")
        if grade_id in given and cell.cell_type == "code" and cell.source != given[grade_id]:
            found.answers.append(Answer(learner, grade_id, cell.source))


def given_code(edition: nbformat.NotebookNode) -> list[str]:
    """The code the student edition shows: its code cells and the code blocks of its text."""
    import re

    code = [c.source for c in edition.cells if c.cell_type == "code"]
    for cell in edition.cells:
        if cell.cell_type == "markdown":
            code += re.findall(r"^```[^\n]*\n(.*?)^```", cell.source, flags=re.S | re.M)
    return code


def boilerplate(code: Iterable[str]) -> np.ndarray:
    """Every k-gram of ``code``: what copydetect removes from the answers before comparing them."""
    import numpy as np

    hashes = set()
    for source in code:
        hashes |= _fingerprint(source, window=1).hashes
    return np.array(sorted(hashes), dtype=np.int64)


@dataclass
class Prints:
    """An answer's fingerprints, as copydetect's ``CodeFingerprint`` holds them: its normalised
    code (``filtered``, and ``offsets`` back to the code as written), the winnowed hashes and
    where each stands in the normalised code."""

    source: str
    filtered: str
    offsets: np.ndarray
    hashes: set[int]
    hash_idx: dict[int, list[int]]
    k: int = NOISE


def _fingerprint(source: str, window: int, given: np.ndarray | None = None) -> Prints:
    """copydetect's fingerprints of ``source`` (its tokenizer and its winnowing), less what the
    release gives: a fingerprint counts only when its k-gram holds a character that no k-gram of
    ``given`` covers, so given pieces pasted one after another count for nothing either. The
    k-gram hash is the same in every process (copydetect hashes with Python's ``hash()``, which
    changes between runs, and so would the report)."""
    import numpy as np
    from copydetect.utils import filter_code, winnow

    filtered, offsets = filter_code(source, "answer.py", "python")
    every = _kgram_hashes(filtered)
    hashes, where = winnow(every, window, remove_duplicates=False)
    if given is not None and len(given) and len(where):
        cover = np.zeros(len(filtered) + 1, dtype=np.int64)
        starts = np.flatnonzero(np.isin(every, given))
        np.add.at(cover, starts, 1)
        np.add.at(cover, starts + NOISE, -1)
        own = np.concatenate([[0], np.cumsum(np.cumsum(cover)[:-1] == 0)])  # characters no given k-gram covers
        keep = own[where + NOISE] > own[where]
        hashes, where = hashes[keep], where[keep]
    hash_idx: dict[int, list[int]] = {}
    for value, at in zip(hashes.tolist(), where.tolist(), strict=True):
        hash_idx.setdefault(value, []).append(at)
    return Prints(source, filtered, offsets, set(hash_idx), hash_idx)


def _kgram_hashes(text: str):
    """A rolling hash of every k-gram of ``text`` (64-bit, wrapping), mixed so that winnowing's
    minimum is spread evenly."""
    import numpy as np

    codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    count = len(codes) - NOISE + 1
    if count <= 0:
        return np.array([], dtype=np.int64)
    value = np.zeros(count, dtype=np.uint64)
    for j in range(NOISE):
        value = value * np.uint64(1_000_003) + codes[j:j + count]
    value ^= value >> np.uint64(31)
    value *= np.uint64(0x9E3779B97F4A7C15)
    value ^= value >> np.uint64(29)
    return value.astype(np.int64)


def fingerprint(answers: Iterable[Answer], given: np.ndarray) -> dict[str, Exercise]:
    """Each exercise's answers fingerprinted without what the release gives, and each
    fingerprint's weight: ``1 / (d - 1)`` for a fingerprint ``d`` answers hold (1 for one only)."""
    by_exercise: dict[str, dict[str, Prints]] = {}
    for answer in answers:
        prints = _fingerprint(answer.source, GUARANTEE - NOISE + 1, given)
        if prints.hashes:  # nothing left but what the release gives: nothing to compare
            by_exercise.setdefault(answer.grade_id, {})[answer.learner] = prints
    exercises = {}
    for grade_id, prints in by_exercise.items():
        holders: dict[int, int] = {}
        for found in prints.values():
            for h in found.hashes:
                holders[h] = holders.get(h, 0) + 1
        exercises[grade_id] = Exercise(grade_id, prints, holders)
    return exercises


def compare(exercises: dict[str, Exercise], learners: list[str]) -> list[Pair]:
    """Every pair's score in each exercise and overall, highest first; a pair has at least one of
    ``learners`` in it (two learners of earlier terms are never compared with each other)."""
    import numpy as np

    this_term = set(learners)
    pairs: list[Pair] = []
    names = sorted({learner for e in exercises.values() for learner in e.prints})
    index = {name: i for i, name in enumerate(names)}
    shared_all = np.zeros((len(names), len(names)))
    size_all = np.zeros((len(names), len(names)))
    for grade_id, exercise in sorted(exercises.items()):
        who = sorted(exercise.prints)
        shared = _shared_weights(exercise, who)
        sizes = np.array([exercise.size(w) for w in who])
        smaller = np.maximum(np.minimum.outer(sizes, sizes), FLOOR)
        at = np.array([index[w] for w in who])
        shared_all[np.ix_(at, at)] += shared
        size_all[np.ix_(at, at)] += smaller
        for i, j in zip(*np.triu_indices(len(who), 1), strict=True):
            if who[i] in this_term or who[j] in this_term:
                pairs.append(Pair(grade_id, who[i], who[j], float(shared[i, j] / smaller[i, j]), float(shared[i, j])))
    for i, j in zip(*np.triu_indices(len(names), 1), strict=True):
        if size_all[i, j] and (names[i] in this_term or names[j] in this_term):
            pairs.append(Pair(None, names[i], names[j], float(shared_all[i, j] / size_all[i, j]),
                              float(shared_all[i, j])))
    pairs.sort(key=lambda p: (-p.score, p.grade_id or "", p.learner, p.other))
    return pairs


def _shared_weights(exercise: Exercise, who: list[str]):
    """The weight of the fingerprints each two answers share, as a matrix (one product of the
    answers-by-fingerprints table with itself, over the fingerprints two or more answers hold)."""
    import numpy as np

    common = sorted(h for h, d in exercise.holders.items() if d >= 2)
    column = {h: k for k, h in enumerate(common)}
    table = np.zeros((len(who), len(common)))
    for row, learner in enumerate(who):
        held = [column[h] for h in exercise.prints[learner].hashes if h in column]
        table[row, held] = 1.0
    weights = np.array([exercise.weights[h] for h in common])
    return (table * weights) @ table.T

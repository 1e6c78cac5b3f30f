"""The similarity report of a chapter: ``reports/<chapter>/similarity/``, for the instructor only.

``index.html`` says first what a high score does and does not mean, then lists the pairs of
learners by score, overall and per exercise (:mod:`autograder.pipeline.gradebook.similarity`): each
pair that stands out, and the few highest below the threshold for scale. Each pair that stands out
is shown side by side, the fragments that make it stand out marked: numbered, underlined and
shaded, the same number on both sides (never colour alone). ``pairs.csv`` holds every pair scoring
at least :data:`LISTED`. The page needs nothing but its folder (no script, nothing from the
network), and nothing of it reaches a learner, a feedback page or the gradebook.
"""

from __future__ import annotations

import csv
import html
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from autograder.pipeline.course import Course
from autograder.pipeline.gradebook.similarity import (
    FLOOR,
    MEANING,
    THRESHOLD,
    Class,
    Exercise,
    Fragment,
    Pair,
    boilerplate,
    compare,
    fingerprint,
    given_code,
    read_class,
)
from autograder.pipeline.progress import Progress

LISTED = 0.1  # pairs.csv holds every pair scoring at least this
BELOW = 3  # pairs below the threshold listed in each table, for scale
SHOWN = 50  # pairs that stand out shown side by side, per exercise (the rest are in pairs.csv)
OVERALL = "overall"


@dataclass
class Written:
    """What a similarity report holds: its page, how many pairs stand out, who was not read."""

    index: Path
    standing_out: dict[str, int] = field(default_factory=dict)  # exercise or "overall": pairs
    unread: dict[str, str] = field(default_factory=dict)
    compared: int = 0


def similarity_report(course: Course, chapter: str, against: Iterable[Path] = (), progress: bool = False) -> Written:
    """Compare the answers of ``chapter`` (and those of earlier terms in ``against``) and write
    the report; returns its page and what it found."""
    from autograder.pipeline.course import read_notebook

    bar = Progress(None, f"{chapter} similarity: notebooks read", note="reading submissions") if progress else None
    found = read_class(course, chapter, against, progress=bar)
    if bar:
        bar.finish()
    given = given_code(read_notebook(course.release_notebook(chapter)))
    return write(course.root / "reports" / chapter / "similarity", chapter, found, given)


def write(folder: Path, chapter: str, found: Class, given: list[str]) -> Written:
    """Compare the answers of ``found`` without the code in ``given`` and write the report into
    ``folder``."""
    exercises = fingerprint(found.answers, boilerplate(given))
    pairs = compare(exercises, found.learners)
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / "pairs.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["exercise", "learner", "other", "score", "shared", "stands_out"])
        writer.writerows([p.grade_id or OVERALL, p.learner, p.other, f"{p.score:.3f}", f"{p.shared:.2f}",
                          "yes" if p.stands_out else "no"] for p in pairs if p.score >= LISTED)
    written = Written(folder / "index.html", unread=found.unread,
                      compared=len({a.learner for a in found.answers} & set(found.learners)))
    for p in pairs:
        if p.stands_out:
            key = p.grade_id or OVERALL
            written.standing_out[key] = written.standing_out.get(key, 0) + 1
    written.index.write_text(_page(chapter, found, exercises, pairs), encoding="utf-8")
    return written


def _page(chapter: str, found: Class, exercises: dict[str, Exercise], pairs: list[Pair]) -> str:
    title = html.escape(f"{chapter}: similar answers")
    sources = {(a.learner, a.grade_id): a.source for a in found.answers}
    earlier = f" and {len(found.earlier)} of earlier terms" if found.earlier else ""
    parts = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'>"
             "<meta name='viewport' content='width=device-width, initial-scale=1'>"
             f"<title>{title}</title><style>{STYLE}</style></head><body><main>",
             f"<h1>{title}</h1>",
             f"<p class='meaning'><strong>What a score means.</strong> {html.escape(MEANING)}</p>",
             f"<p>{len(found.learners)} learner(s) of this term{earlier}: their answer cells compared exercise by "
             "exercise, after removing every piece of code the student edition gives (its stubs, the code given in "
             "answer cells, its locked cells, the code in its text). Names, strings, comments and layout do not "
             "count, and a fragment matches wherever it stands, so renamed variables and reordered statements "
             "still match. A fragment that only the two learners wrote counts in full; one that <var>k</var> "
             "learners wrote counts 1/(<var>k</var> − 1) for each pair of them, so code that many learners write "
             "alike weighs almost nothing. A score is the weight of what the two answers share over the smaller "
             f"answer's weight (an answer weighing less than {FLOOR:g} counts as {FLOOR:g}); a pair at "
             f"{THRESHOLD:g} or above stands out. Every pair scoring at least {LISTED:g}: "
             "<a href='pairs.csv'>pairs.csv</a>.</p>"]
    if found.unread:
        items = "".join(f"<li>{html.escape(who)}: {html.escape(why)}</li>" for who, why in sorted(found.unread.items()))
        parts.append(f"<h2 id='unread'>Not compared</h2><ul>{items}</ul>")
    shown: dict[tuple[str, str, str], str] = {}
    sections = []
    for number, grade_id in enumerate(sorted(exercises), 1):
        mine = [p for p in pairs if p.grade_id == grade_id]
        listed = _listed(mine)
        comparisons = []
        for rank, pair in enumerate([p for p in listed if p.stands_out][:SHOWN], 1):
            anchor = f"e{number}-{rank}"
            shown[(grade_id, pair.learner, pair.other)] = anchor
            left, right = exercises[grade_id].fragments(pair.learner, pair.other)
            comparisons.append(_side_by_side(anchor, pair, sources[(pair.learner, grade_id)], left,
                                             sources[(pair.other, grade_id)], right))
        sections.append(f"<h2 id='e{number}'>{html.escape(grade_id)}</h2>"
                        f"<p>{len(exercises[grade_id].prints)} answer(s) compared.</p>"
                        + _table(grade_id, listed, shown) + "".join(comparisons))
    overall = _listed([p for p in pairs if p.grade_id is None])
    where: dict[frozenset, list[Pair]] = {}
    for pair in pairs:
        if pair.grade_id and pair.stands_out:
            where.setdefault(frozenset((pair.learner, pair.other)), []).append(pair)
    parts.append("<h2 id='overall'>Overall</h2><p>Each pair's shares and sizes added over the exercises both "
                 "answered.</p>" + _table(OVERALL, overall, shown, where))
    parts += sections
    parts.append(f"<p class='legend'><strong>Marked code</strong> ({_tag(1)}, {_tag(2)} …, underlined and shaded): "
                 "code both answers hold that at most one other answer in the class holds; the same number marks "
                 "the same fragment on both sides.</p></main></body></html>")
    return "\n".join(parts)


def _listed(pairs: list[Pair]) -> list[Pair]:
    """The pairs that stand out, then the few highest below the threshold."""
    above = [p for p in pairs if p.stands_out]
    return above + [p for p in pairs if not p.stands_out][:BELOW]


def _table(what: str, listed: list[Pair], shown: dict, where: dict[frozenset, list[Pair]] | None = None) -> str:
    if not listed:
        return "<p>No two answers share anything but what the release gives.</p>"
    standing = sum(p.stands_out for p in listed)
    said = (f"{standing} pair(s) stand out" if standing else "No pair stands out") + \
        f"; the highest {min(BELOW, len(listed) - standing)} below the threshold follow"
    rows = []
    for pair in listed:
        if what == OVERALL:
            by = (where or {}).get(frozenset((pair.learner, pair.other)), [])
            last = f"<td>{', '.join(_link(shown, p) for p in by) or 'none'}</td>"
        else:
            last = f"<td>{_link(shown, pair) if pair.stands_out else ''}</td>"
        rows.append(f"<tr><td>{pair.score:.2f}</td><td>{html.escape(pair.learner)}</td>"
                    f"<td>{html.escape(pair.other)}</td><td>{'yes' if pair.stands_out else 'no'}</td>{last}</tr>")
    heading = "exercises where they stand out" if what == OVERALL else "side by side"
    return (f"<table><caption>{html.escape(what)}: {said}</caption><thead><tr><th scope='col'>score</th>"
            f"<th scope='col'>learner</th><th scope='col'>other learner</th><th scope='col'>stands out</th>"
            f"<th scope='col'>{heading}</th></tr></thead><tbody>{''.join(rows)}</tbody></table>")


def _link(shown: dict, pair: Pair) -> str:
    anchor = shown.get((pair.grade_id, pair.learner, pair.other))
    name = html.escape(pair.grade_id or "")
    if anchor is None:
        return f"{name} (in pairs.csv)"
    return f"<a href='#{anchor}'>{name}: {html.escape(pair.learner)} and {html.escape(pair.other)}</a>"


def _side_by_side(anchor: str, pair: Pair, left_source: str, left: list[Fragment], right_source: str,
                  right: list[Fragment]) -> str:
    return (f"<section id='{anchor}' aria-labelledby='{anchor}-h'><h3 id='{anchor}-h'>"
            f"{html.escape(pair.grade_id or '')}: {html.escape(pair.learner)} and {html.escape(pair.other)}, "
            f"score {pair.score:.2f}</h3>"
            f"<div class='sides'>{_code(pair.learner, left_source, left)}{_code(pair.other, right_source, right)}"
            "</div></section>")


def _code(learner: str, source: str, fragments: list[Fragment]) -> str:
    parts, at = [], 0
    for fragment in sorted(fragments, key=lambda f: f.start):
        start = max(fragment.start, at)
        if start >= fragment.end:
            continue
        parts.append(html.escape(source[at:start]))
        parts.append(f"<mark>{_tag(fragment.number)}{html.escape(source[start:fragment.end])}</mark>")
        at = fragment.end
    parts.append(html.escape(source[at:]))
    return (f"<figure><figcaption>{html.escape(learner)}'s answer</figcaption>"
            f"<pre><code>{''.join(parts)}</code></pre></figure>")


def _tag(number: int) -> str:
    return f"<span class='tag'>[{number}]</span>"


STYLE = ("body{font-family:sans-serif;max-width:1200px;margin:auto;padding:0 1em;color:#1a1a1a;background:#fff}"
         "table{border-collapse:collapse;margin:0.5em 0 1.5em;width:100%}"
         "td,th{padding:2px 8px;text-align:left;vertical-align:top;overflow-wrap:anywhere}"
         "caption{text-align:left;font-style:italic}a{color:#0645ad}"
         ".meaning{border-left:4px solid #1a1a1a;padding:0.5em 1em;background:#f3f3f3}"
         ".sides{display:grid;grid-template-columns:1fr 1fr;gap:1em}.sides>figure{margin:0;min-width:0}"
         "@media (max-width:760px){.sides{grid-template-columns:1fr}}"
         "figcaption{font-weight:bold}"
         "pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f8f8f8;border:1px solid #767676;padding:0.5em}"
         "mark{background:#fff0a8;color:#1a1a1a;border-bottom:2px solid #1a1a1a}"
         ".tag{font-weight:bold;font-size:0.8em;margin-right:0.15em}")

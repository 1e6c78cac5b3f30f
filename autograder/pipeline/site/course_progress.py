"""Progress as the course's units mark it: a time estimate per page, "Mark passed", and a count.

Each chapter and closed-book companion keeps its time estimate in its notebook's metadata
(``metadata.autograd_state.minutes`` of ``notebooks/<chapter>/<chapter>.ipynb``; nbgrader's release
and the book's staging carry it over). On its page the site shows the estimate under the title and,
at the end of its completion criterion (a companion: its rules), a "Mark passed" checkbox with
the unit's rule: only mark it when you can do it without notes. The ``course-progress`` directive
(the landing page) lists every page with its estimate and whether it is marked, with a count and a
control that clears them.

The marks live in the learner's browser only (``localStorage``, ``static/course-progress.js``):
nothing is sent anywhere, and the pages work offline. The checkbox is a native one (keyboard and
screen readers know it); every change is announced by a polite live region.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive

STATIC = Path(__file__).with_name("static")
METADATA = "autograd_state"
CHAPTERS = "chapters"
# Where the mark goes: after the last of a chapter's sections, or a companion's rules.
CRITERION_SECTIONS = ("7. Completion criterion", "Rules")
RULE = "Only mark this when you can do it without notes."


def estimate(minutes: int) -> str:
    """``about 4½ h``, ``about 25 min``."""
    if minutes < 60:
        return f"about {minutes} min"
    hours, rest = divmod(minutes, 60)
    return f"about {hours}{'½' if rest >= 30 else ''} h"


def page_minutes(srcdir: Path, docname: str) -> int | None:
    """The estimate a staged page's notebook keeps in its metadata (None for a page without one)."""
    path = Path(srcdir) / f"{docname}.ipynb"
    if not path.exists():
        return None
    minutes = json.loads(path.read_text(encoding="utf-8")).get("metadata", {}).get(METADATA, {}).get("minutes")
    return int(minutes) if minutes is not None else None


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def mark_html(docname: str, minutes: int) -> str:
    """The "Mark passed" control of a page, with its rule and its live status line."""
    key = _escape(docname)
    box = f"course-mark-{docname.replace('/', '-')}"
    return (
        f'<div class="course-mark" data-page="{key}">'
        f'<p class="course-mark-estimate"><strong>Time:</strong> {estimate(minutes)}.</p>'
        f'<p class="course-mark-control"><input type="checkbox" id="{box}" class="course-mark-box" data-page="{key}">'
        f' <label for="{box}"><strong>Mark passed</strong></label> — <span>{RULE}</span></p>'
        '<p class="course-mark-status" role="status" aria-live="polite">Stored in this browser only.</p>'
        "</div>"
    )


def add_marks(app: Any, doctree: nodes.document, docname: str) -> None:
    """Put the estimate under a chapter page's title and the mark at the end of its criterion."""
    if not docname.startswith(f"{CHAPTERS}/"):
        return
    minutes = page_minutes(app.srcdir, docname)
    if minutes is None:
        return
    sections = list(doctree.findall(nodes.section))
    if not sections:
        return
    title = sections[0]
    heading = title.next_node(nodes.title)
    title.insert(title.index(heading) + 1, nodes.raw(
        "", f'<p class="course-estimate"><strong>Time:</strong> {estimate(minutes)}. '
        "Mark it passed at its end.</p>", format="html"))
    criterion = next((s for s in sections if s.next_node(nodes.title).astext().rstrip("#").strip()
                      in CRITERION_SECTIONS), title)
    criterion.append(nodes.raw("", mark_html(docname, minutes), format="html"))


class CourseProgress(Directive):
    """``course-progress``: every chapter and companion with its estimate and its mark, a count, a clear."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        env = self.state.document.settings.env
        manifest = Path(env.srcdir) / "downloads" / "manifest.json"
        env.note_dependency(str(manifest))
        entries = json.loads(manifest.read_text())["notebooks"] if manifest.exists() else []
        prefix = "../" * env.docname.count("/")
        rows = []
        total = 0
        for entry in entries:
            minutes = page_minutes(env.srcdir, entry["page"])
            env.note_dependency(str(Path(env.srcdir) / f"{entry['page']}.ipynb"))
            total += minutes or 0
            time = f" — {estimate(minutes)}" if minutes else ""
            rows.append(
                f'<li data-page="{_escape(entry["page"])}"><a href="{prefix}{_escape(entry["page"])}.html">'
                f'{_escape(entry["title"].replace("`", ""))}</a>{time} — '
                '<span class="course-progress-state">not marked</span></li>'
            )
        html = (
            '<div class="course-progress">'
            f'<p class="course-progress-summary" role="status" aria-live="polite">0 of {len(entries)} marked passed'
            f" (all of them: {estimate(total)}).</p>"
            f'<ul class="course-progress-list">{"".join(rows)}</ul>'
            '<p><button type="button" class="btn btn-outline-secondary course-progress-clear">'
            "Clear my marks</button></p></div>"
        )
        return [nodes.raw("", html, format="html")]


def add_static(app: Any, config: Any) -> None:
    config.html_static_path.append(str(STATIC))


def setup(app: Any) -> dict:
    app.connect("config-inited", add_static)
    app.connect("doctree-resolved", add_marks)
    app.add_js_file("course-progress.js")
    app.add_css_file("course-progress.css")
    app.add_directive("course-progress", CourseProgress)
    return {"parallel_read_safe": True, "parallel_write_safe": True}

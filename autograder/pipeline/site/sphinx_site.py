"""A Sphinx extension for the course site: clean scripts, accessible theme parts, notebook downloads.

- Each page loads each script once: sphinx-thebe (always loaded by Jupyter Book) registers its
  inline configuration script twice per build; the second copy redeclares a ``const`` and fails
  with a console error on every page.
- The theme's search and colour-mode buttons get an accessible name that contains their visible
  text (WCAG 2.5.3, axe's ``label-content-name-mismatch``): the templates below replace the theme's.
- Maths wider than a phone scrolls inside its own box; code and outputs wrap inside theirs, so
  no line of an error's message is cut at the block's edge; on a phone a figure keeps a legible
  width and scrolls in its box, and a tab's label stays on one line; the open tab's label keeps
  its neighbours' top, in one row with them (``SITE_CSS``).
- The student edition of each notebook, staged by ``autograd-state book`` under ``downloads/``
  with ``downloads/manifest.json``, is copied to the site's ``downloads/``; a chapter's
  ``.ipynb`` button downloads it (``download`` attribute) and the ``notebook-downloads``
  directive lists them all with the zip of all of them and the learner's wheel of the checks.
- A collapsed cell's toggle (instructor edition) is named by the text it shows.
- The widget manager (``require.js`` and ``embed-amd.js``, 4.5 MB) loads only on pages that show a
  widget: on the others it cost more than all of the rest of the page to parse (it was twice the
  browser's work for opening a page of prose).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive
from jinja2 import DictLoader

DOWNLOADS = "downloads"
MANIFEST = "manifest.json"

# The theme's buttons name themselves "Search" while showing "Search Ctrl+K": the name now
# comes from the visible text, and the icons are hidden from assistive technology.
TEMPLATES = {
    "search-button-field.html": (
        '<button class="btn search-button-field search-button__button pst-js-only" title="{{ _(\'Search\') }}"'
        ' data-bs-placement="bottom" data-bs-toggle="tooltip">\n'
        ' <i class="fa-solid fa-magnifying-glass" aria-hidden="true"></i>\n'
        " <span class=\"search-button__default-text\">{{ _('Search') }}</span>\n"
        ' <span class="search-button__kbd-shortcut"><kbd class="kbd-shortcut__modifier">Ctrl</kbd>+'
        '<kbd class="kbd-shortcut__modifier">K</kbd></span>\n'
        "</button>\n"
    ),
    # Its icons' titles ("Light", "Dark" ...) counted as visible text missing from its name.
    "theme-switcher.html": (
        '<button class="btn btn-sm nav-link pst-navbar-icon theme-switch-button pst-js-only"'
        " aria-label=\"{{ _('Color mode') }}\" data-bs-title=\"{{ _('Color mode') }}\""
        ' data-bs-placement="bottom" data-bs-toggle="tooltip">\n'
        + "".join(
            f'  <i class="theme-switch fa-solid {icon} fa-lg" data-mode="{mode}" aria-hidden="true"></i>\n'
            for icon, mode in (("fa-sun", "light"), ("fa-moon", "dark"), ("fa-circle-half-stroke", "auto"))
        )
        + "</button>\n"
    ),
    "search-button.html": (
        '<button class="btn btn-sm pst-navbar-icon search-button search-button__button pst-js-only"'
        " title=\"{{ _('Search') }}\" aria-label=\"{{ _('Search') }}\" data-bs-placement=\"bottom\""
        ' data-bs-toggle="tooltip">\n'
        '    <i class="fa-solid fa-magnifying-glass fa-lg" aria-hidden="true"></i>\n'
        "</button>\n"
    ),
}

# Maths wider than a phone scrolls inside its own box, not the whole page. Code and outputs wrap
# inside their block: an error's message, the line the reader is asked to read, is never cut at
# its edge, on a desktop or on a phone.
SITE_CSS = (
    "<style>article pre { white-space: pre-wrap !important; overflow-wrap: anywhere; }"
    " mjx-container { max-width: 100%; overflow-x: auto; overflow-y: hidden; }"
    ' mjx-container:not([display="true"]) { display: inline-block; vertical-align: bottom; }'
    ' mjx-container[display="true"] { display: block; }'
    # The theme moves the open tab's label 2px down (a transform) so that it covers its panel's
    # top border; that puts it below its neighbours, as if on a row of its own. A negative margin
    # reaches the same border with every label's top on one line.
    " .bd-content .sd-tab-set > input:checked + label { transform: none !important;"
    " margin-bottom: -0.125rem !important; }"
    # On a phone a figure keeps a width at which its smallest labels read, and scrolls in its own
    # box; a tab's label stays on one line (three depths fit side by side at 390 px).
    " @media (max-width: 640px) { article figure { overflow-x: auto; }"
    " article figure img { min-width: 720px; }"
    " article .sd-tab-set > label { padding-left: 0.4em !important; padding-right: 0.4em !important;"
    " white-space: nowrap; } }</style>"
)

# The theme opens the notebook in a new tab, where most servers show raw JSON.
NOTEBOOK_BUTTON = re.compile(
    r'<a href="(?P<href>[^"]*)" target="_blank"'
    r'(?P<rest>\s+class="btn btn-sm btn-download-(?:notebook|source)-button[^"]*")'
)


# myst-nb names a collapsed cell's toggle "Toggle hidden content" while it shows "Show code cell
# source": without the label, its name is the text it shows.
HIDDEN_CELL_TOGGLE = '<summary aria-label="Toggle hidden content">'


def _key(script: Any) -> tuple:
    # An inline script is registered with the file name None by some extensions and "" by others.
    attributes = getattr(script, "attributes", {})
    return (
        str(getattr(script, "filename", script) or ""),
        getattr(script, "priority", 500),
        tuple(sorted((k, str(v)) for k, v in attributes.items())),
    )


def drop_duplicate_scripts(app: Any, pagename: str, templatename: str, context: dict, doctree: Any) -> None:
    """Keep only the first of identical script entries of a page, in order."""
    scripts = context.get("script_files")
    if not scripts:
        return
    seen: set[tuple] = set()
    unique = []
    for script in scripts:
        if _key(script) not in seen:
            seen.add(_key(script))
            unique.append(script)
    # In place: the builder renders this very list.
    scripts[:] = unique


# The scripts that render embedded widgets (_config.yml's, as the builder names them), and what
# marks a widget's view.
WIDGET_SCRIPTS = ("_static/require.js", "_static/widgets/bridge.js", "_static/widgets/embed-amd.js")
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def widgets_only_where_shown(app: Any, pagename: str, templatename: str, context: dict, doctree: Any) -> None:
    """Leave the widget manager out of a page that shows no widget."""
    scripts = context.get("script_files")
    if not scripts or WIDGET_VIEW in context.get("body", ""):
        return
    scripts[:] = [script for script in scripts if str(getattr(script, "filename", script) or "") not in WIDGET_SCRIPTS]


def add_site_css(app: Any, pagename: str, templatename: str, context: dict, doctree: Any) -> None:
    """Add the site's few style rules to the page's head."""
    context["metatags"] = context.get("metatags", "") + SITE_CSS


def manifest(srcdir: Path) -> list[dict]:
    """The staged notebooks in reading order: ``[{"file", "title", "page"}, ...]`` ([] when none)."""
    path = Path(srcdir) / DOWNLOADS / MANIFEST
    return json.loads(path.read_text())["notebooks"] if path.exists() else []


def staged_name(srcdir: Path, what: str) -> str | None:
    """The file name of the staged ``zip`` of every notebook or ``kit`` (the learner's wheel), if any."""
    path = Path(srcdir) / DOWNLOADS / MANIFEST
    return json.loads(path.read_text()).get(what) if path.exists() else None


def point_notebook_button(app: Any, pagename: str, templatename: str, context: dict, doctree: Any) -> None:
    """Point a chapter's ``.ipynb`` button at the student edition in ``downloads/``."""
    files = {entry["page"]: entry["file"] for entry in manifest(app.srcdir)}
    if pagename not in files:
        return
    for group in context.get("header_buttons", []):
        for button in group.get("buttons", []):
            # The source of a chapter page is its notebook: the theme labels that button ".ipynb".
            if button.get("label") in ("download-notebook-button", "download-source-button") and (
                button.get("text") == ".ipynb"
            ):
                button["url"] = context["pathto"](f"{DOWNLOADS}/{files[pagename]}", 1)
                button["tooltip"] = "Download the notebook (student edition)"


class NotebookDownloads(Directive):
    """``notebook-downloads``: a list of every staged notebook, each a download, then the zip."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        env = self.state.document.settings.env
        # Re-read this page whenever the staged notebooks change.
        env.note_dependency(str(Path(env.srcdir) / DOWNLOADS / MANIFEST))
        prefix = "../" * env.docname.count("/")
        entries = manifest(env.srcdir)
        if not entries:
            return [nodes.paragraph(text="No notebook has been released yet.")]
        items = "".join(
            f'<li><a href="{prefix}{DOWNLOADS}/{e["file"]}" download>{_escape(e["title"])}</a>'
            f" (<code>{_escape(e['file'])}</code>)</li>"
            for e in entries
        )
        html = f'<ul class="notebook-downloads">{items}</ul>'
        archive = staged_name(env.srcdir, "zip")
        if archive:
            html += (
                f'<p><a class="notebook-downloads-zip" href="{prefix}{DOWNLOADS}/{archive}" download>'
                f"All {len(entries)} notebooks as one zip</a> (<code>{_escape(archive)}</code>)</p>"
            )
        kit = staged_name(env.srcdir, "kit")
        if kit:
            html += (
                f'<p><a class="notebook-downloads-kit" href="{prefix}{DOWNLOADS}/{kit}" download>'
                f"The checks the test cells run, as a Python package</a> (<code>{_escape(kit)}</code>)</p>"
            )
        return [nodes.raw("", html, format="html")]


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def override_templates(app: Any) -> None:
    """Put the accessible templates ahead of the theme's."""
    templates = getattr(app.builder, "templates", None)
    if templates is not None and hasattr(templates, "loaders"):
        templates.loaders.insert(0, DictLoader(TEMPLATES))


def finish_pages(app: Any, exception: Exception | None) -> None:
    """Copy ``downloads/`` to the site, make the source buttons downloads, name the toggles."""
    if exception is not None or app.builder.format != "html":
        return
    staged = Path(app.srcdir) / DOWNLOADS
    if staged.is_dir():
        target = Path(app.outdir) / DOWNLOADS
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(staged, target, ignore=shutil.ignore_patterns(MANIFEST))
    for page in Path(app.outdir).rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        changed = NOTEBOOK_BUTTON.sub(r'<a href="\g<href>" download\g<rest>', text)
        changed = changed.replace(HIDDEN_CELL_TOGGLE, "<summary>")
        if changed != text:
            page.write_text(changed, encoding="utf-8")


def setup(app: Any) -> dict:
    # Run after the extensions that add scripts and header buttons per page.
    app.connect("html-page-context", drop_duplicate_scripts, priority=900)
    app.connect("html-page-context", point_notebook_button, priority=900)
    app.connect("html-page-context", widgets_only_where_shown, priority=900)
    app.connect("html-page-context", add_site_css)
    app.connect("builder-inited", override_templates)
    app.connect("build-finished", finish_pages)
    app.add_directive("notebook-downloads", NotebookDownloads)
    return {"parallel_read_safe": True, "parallel_write_safe": True}

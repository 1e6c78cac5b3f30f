"""The student edition as JupyterLab shows it: MyST that ``jupyterlab-myst`` cannot render, rewritten.

The chapters are MyST: the site (Sphinx) renders all of it, and JupyterLab renders tabs, dropdowns
and admonitions through ``jupyterlab-myst`` (``requirements.txt``). Two constructs only exist on the
site, so ``nbgrader generate_assignment`` writes them into the student edition in plain Markdown
(``nbgrader_config.py`` runs these preprocessors):

- a cross-reference ``{doc}`text <target>``` becomes a link to that page of the site
  (:attr:`LabMarkdown.site_url`);
- a glued figure (``{glue:figure}``) becomes its caption and description, with where the notebook
  draws it and a link to it on the site.

The site itself is built from the instructor source's markdown (:func:`myst_markdown`), never from
this rewrite. A hidden test cell of the student edition is a docstring once nbgrader has removed
its tests; :class:`QuietHiddenTests` turns the docstring into a comment, so the cell prints nothing
(an ``Out[]`` string in a graded cell also makes Validate warn that it is not a score).
"""

from __future__ import annotations

import posixpath
import re

import nbformat
from nbconvert.preprocessors import Preprocessor
from traitlets import Bool, Unicode

# Where `make serve` serves the site; an instructor who publishes it sets its address here.
DEFAULT_SITE_URL = "http://127.0.0.1:8000/"
# Chapter pages live in chapters/ on the site (_toc.yml): a chapter's {doc} targets are relative to it.
CHAPTER_FOLDER = "chapters"

DOC_ROLE = re.compile(r"\{doc\}`(?P<body>[^`]+)`")
TITLED = re.compile(r"^(?P<title>.*?)\s*<(?P<target>[^<>]+)>$", re.S)
# A glued figure: ```{glue:figure} name ... ``` (or a colon fence), options first, then the caption.
GLUE_FIGURE = re.compile(
    r"^(?P<fence>`{3,}|:{3,})\{glue:figure\}[ \t]+(?P<name>\S+)[ \t]*\n(?P<body>.*?)^(?P=fence)[ \t]*$",
    re.S | re.M,
)
OPTION = re.compile(r"^:(?P<key>[\w-]+):[ \t]*(?P<value>.*)$")
DOCSTRING_ONLY = re.compile(r'^\s*(?P<quote>"""|\'\'\')(?P<text>.*?)(?P=quote)\s*$', re.S)


def site_link(target: str, page: str, site_url: str) -> str:
    """The site's address of the page a ``{doc}`` target names, from the page ``page`` (``chapters/views``)."""
    docname = posixpath.normpath(posixpath.join(posixpath.dirname(page), target.strip()))
    docname = docname.removesuffix(".md").removesuffix(".ipynb").lstrip("/")
    return f"{site_url.rstrip('/')}/{docname}.html"


def rewrite_doc_roles(markdown: str, page: str, site_url: str) -> str:
    """Every ``{doc}`` role as a Markdown link to the site's page."""

    def link(match: re.Match) -> str:
        body = match["body"].strip()
        titled = TITLED.match(body)
        title, target = (titled["title"], titled["target"]) if titled else (posixpath.basename(body), body)
        return f"[{title}]({site_link(target, page, site_url)})"

    return DOC_ROLE.sub(link, markdown)


def glue_cells(notebook: nbformat.NotebookNode) -> dict[str, int]:
    """The index of the code cell that glues each name (``glue("name", ...)``)."""
    found: dict[str, int] = {}
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "code" and "glue(" in cell.source:
            for name in re.findall(r"glue\(\s*[\"']([^\"']+)[\"']", cell.source):
                found.setdefault(name, index)
    return found


def rewrite_glue_figures(markdown: str, index: int, glued: dict[str, int], page_url: str) -> str:
    """Every ``{glue:figure}`` block as a quoted figure note: caption, what it shows, where it is drawn."""

    def note(match: re.Match) -> str:
        name = match["name"]
        options, caption = {}, []
        for line in match["body"].splitlines():
            option = OPTION.match(line)
            if option and not caption:
                options[option["key"]] = option["value"].strip()
            elif line.strip() or caption:
                caption.append(line)
        where = glued.get(name)
        drawn = (
            "Run the notebook: the code cell that calls "
            f"`glue(\"{name}\", ...)` {'above' if where is not None and where < index else 'below'} draws it"
            if where is not None else "It is drawn on the site"
        )
        lines = [f"> **Figure.** {' '.join(line.strip() for line in caption if line.strip())}".rstrip(), ">"]
        if options.get("alt"):
            lines += [f"> *What it shows:* {options['alt']}", ">"]
        lines.append(f"> {drawn}; it is also on [this chapter's page of the site]({page_url}).")
        return "\n".join(lines)

    return GLUE_FIGURE.sub(note, markdown)


def lab_markdown(notebook: nbformat.NotebookNode, chapter: str, site_url: str = DEFAULT_SITE_URL) -> None:
    """Rewrite a chapter's markdown cells, in place, for JupyterLab (see the module's docstring)."""
    page = f"{CHAPTER_FOLDER}/{chapter}"
    page_url = site_link(chapter, page, site_url)
    glued = glue_cells(notebook)
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "markdown":
            text = rewrite_glue_figures(cell.source, index, glued, page_url)
            cell.source = rewrite_doc_roles(text, page, site_url)


def myst_markdown(edition: nbformat.NotebookNode, source: nbformat.NotebookNode) -> None:
    """Give a student edition's markdown cells back their MyST from the instructor source (by grade id).

    The site renders MyST: it is built from the source's markdown, not from :func:`lab_markdown`'s.
    """
    original = {
        cell.metadata.get("nbgrader", {}).get("grade_id"): cell.source
        for cell in source.cells
        if cell.cell_type == "markdown"
    }
    for cell in edition.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if cell.cell_type == "markdown" and grade_id in original:
            cell.source = original[grade_id]


def _chapter(resources: dict) -> str:
    return (resources.get("nbgrader") or {}).get("notebook") or resources.get("unique_key", "")


class LabMarkdown(Preprocessor):
    """nbgrader preprocessor: :func:`lab_markdown` on the student edition (before its checksums)."""

    enabled = Bool(True, help="nbconvert skips preprocessors that are not enabled").tag(config=True)
    site_url = Unicode(DEFAULT_SITE_URL, help="Address of the course site the notebooks link to").tag(config=True)

    def preprocess(self, nb, resources):
        lab_markdown(nb, _chapter(resources), self.site_url)
        return nb, resources


class QuietHiddenTests(Preprocessor):
    """nbgrader preprocessor, after ``ClearHiddenTests``: a test cell left with its docstring alone
    gets the docstring as comment lines, so running it shows nothing."""

    enabled = Bool(True, help="nbconvert skips preprocessors that are not enabled").tag(config=True)

    def preprocess_cell(self, cell, resources, index):
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type == "code" and meta.get("grade") and not meta.get("solution"):
            only = DOCSTRING_ONLY.match(cell.source)
            if only:
                cell.source = "\n".join(f"# {line}".rstrip() for line in only["text"].strip().splitlines())
        return cell, resources

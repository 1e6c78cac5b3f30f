"""The student edition's markdown for JupyterLab: what only the site renders is written out plainly."""

from __future__ import annotations

import re

import nbformat

from autograder.pipeline.site.lab_markdown import (
    QuietHiddenTests,
    lab_markdown,
    myst_markdown,
    rewrite_doc_roles,
    site_link,
)

SITE = "https://course.example/"
# What jupyterlab-myst cannot render: a cross-reference to a page, a glued figure.
SITE_ONLY = re.compile(r"\{doc\}`|\{glue[:\w-]*\}")


def test_a_cross_reference_becomes_a_link_to_the_sites_page():
    text = "See {doc}`Chapter 2 <inplace>` and the {doc}`glossary <../book/glossary>`; {doc}`views-closed-book`."
    assert rewrite_doc_roles(text, "chapters/views", SITE) == (
        "See [Chapter 2](https://course.example/chapters/inplace.html) and the "
        "[glossary](https://course.example/book/glossary.html); "
        "[views-closed-book](https://course.example/chapters/views-closed-book.html)."
    )
    assert site_link("../chapters/views", "chapters/capstone", SITE) == "https://course.example/chapters/views.html"


def glue_notebook() -> nbformat.NotebookNode:
    figure = (
        "Before.\n\n```{glue:figure} page-figure\n:alt: A page of slots and two readings of it.\n\n"
        "One page, two readings.\n```\n\nAfter."
    )
    return nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell(figure),
        nbformat.v4.new_code_cell('glue(\n    "page-figure",\n    draw())'),
    ])


def test_a_glued_figure_becomes_its_caption_description_and_where_it_is_drawn():
    notebook = glue_notebook()
    lab_markdown(notebook, "views", SITE)
    text = notebook.cells[0].source
    assert SITE_ONLY.search(text) is None and "```" not in text
    assert text.startswith("Before.\n\n> **Figure.** One page, two readings.") and text.endswith("\n\nAfter.")
    assert "> *What it shows:* A page of slots and two readings of it." in text
    assert '`glue("page-figure", ...)` below draws it' in text
    assert "(https://course.example/chapters/views.html)" in text


def test_the_site_takes_the_myst_back_from_the_source():
    source = glue_notebook()
    for k, cell in enumerate(source.cells):
        cell.metadata["nbgrader"] = {"grade_id": f"cell-{k}"}
    edition = nbformat.from_dict(source)
    lab_markdown(edition, "views", SITE)
    assert edition.cells[0].source != source.cells[0].source
    myst_markdown(edition, source)
    assert edition.cells[0].source == source.cells[0].source


def test_a_hidden_test_cell_keeps_its_docstring_as_a_comment():
    cell = nbformat.v4.new_code_cell('"""STRIDES: hidden checks (they run when the notebook is graded)."""')
    cell.metadata["nbgrader"] = {"grade": True, "solution": False, "grade_id": "views-strides-tests-hidden"}
    visible = nbformat.v4.new_code_cell('"""STRIDES: visible checks."""\ngrade("views-strides", STRIDES)')
    visible.metadata["nbgrader"] = {"grade": True, "solution": False, "grade_id": "views-strides-tests"}
    quiet = QuietHiddenTests()
    assert quiet.preprocess_cell(cell, {}, 0)[0].source == (
        "# STRIDES: hidden checks (they run when the notebook is graded).")
    assert quiet.preprocess_cell(visible, {}, 1)[0].source.endswith('grade("views-strides", STRIDES)')


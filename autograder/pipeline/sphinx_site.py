"""A Sphinx extension for the course site: each page loads each script once.

sphinx-thebe (always loaded by Jupyter Book) registers its inline configuration script twice
per build; the second copy redeclares a ``const`` and fails with a console error on every page.
"""

from __future__ import annotations

from typing import Any


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


def setup(app: Any) -> dict:
    # Run after the extensions that add scripts per page.
    app.connect("html-page-context", drop_duplicate_scripts, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}

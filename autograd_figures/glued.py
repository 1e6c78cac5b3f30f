"""Values the book's text quotes from a cell's output, glued as myst-nb reads them.

myst-nb's ``glue`` stores a value's display data in the cell's output under its name (the
``scrapbook`` metadata of a ``display_data`` output), and the book's ``{glue}`` roles and directives
read it back at build time. :func:`glue` writes the same output with IPython alone, so a chapter's
setup cell imports nothing of the book's build tools: a learner's kernel and the grading sandbox
run it as the book does.
"""

from __future__ import annotations

from typing import Any

__all__ = ["glue"]

# myst_nb.ext.glue.GLUE_PREFIX: the mime prefix of a value glued without being displayed.
HIDDEN = "application/papermill.record/"


def glue(name: str, variable: Any, display: bool = True) -> None:
    """Glue ``variable`` under ``name``, shown in the cell's output unless ``display`` is False."""
    from IPython.core.formatters import format_display_data
    from IPython.display import display as show

    bundle, metadata = format_display_data(variable)
    prefix = "" if display else HIDDEN
    metadata["scrapbook"] = {"name": name, "mime_prefix": prefix}
    show({prefix + kind: data for kind, data in bundle.items()}, raw=True, metadata=metadata)

"""The stride explorer that runs in the page itself: HTML with inline JavaScript, no kernel.

The static site has no kernel, so the ipywidgets explorer (:mod:`autograd_figures.explorer`), which
asks torch, shows only its first state there. This one is plain JavaScript
(``static/stride-explorer.js``: its own layout computations, checked against torch by
``tests/figures/test_stride_explorer_page.py``, and the op language of :mod:`autograd_figures.chain`) inlined
into the cell's HTML output, so the built page works offline and in JupyterLab alike.

Defined in Chapter 1, "Views, strides and storage" (notebooks/views/views.ipynb).
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from importlib.resources import files

__all__ = ["StaticExplorer", "static_explorer"]

_STATIC = files("autograd_figures") / "static"


def _asset(name: str) -> str:
    text = (_STATIC / name).read_text(encoding="utf-8")
    # Inlined into <script>/<style>: a closing tag inside would end the element early.
    if "</script" in text.lower() or "</style" in text.lower():
        raise ValueError(f"{name} contains a closing script or style tag and cannot be inlined")
    return text


@dataclass(frozen=True)
class StaticExplorer:
    """A stride explorer that displays as self-contained HTML (its script and style inlined).

    Attributes:
        shape: The start shape as typed, e.g. ``"4, 8"``.
    """

    shape: str = "3, 6"

    def _repr_html_(self) -> str:
        if not (_STATIC / "stride-explorer.js").is_file():
            # A learner's installation carries no script that works the rules out: the in-page
            # explorer lives on the site, and the widget explores the same layouts with torch.
            return ("<p>The in-page stride explorer runs on the course's site. Here, in JupyterLab, "
                    "<code>explore(...)</code> explores the same layouts with torch itself.</p>")
        return (
            f"<style>{_asset('stride-explorer.css')}</style>"
            f'<div class="stride-explorer" data-shape="{html.escape(self.shape)}">'
            "<noscript>The stride explorer needs JavaScript.</noscript></div>"
            f"<script>{_asset('stride-explorer.js')}</script>"
        )


def static_explorer(shape: str = "3, 6") -> StaticExplorer:
    """A stride explorer that runs in the browser, starting from ``torch.arange(n).view(shape)``.

    Make it the last expression of a cell. Its HTML output carries the explorer's script, so
    it works on the static site with no kernel and no network, and in JupyterLab.

    Args:
        shape: The start shape as typed, e.g. ``"4, 8"``.
    """
    return StaticExplorer(shape)

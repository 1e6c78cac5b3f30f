"""What a derived tensor shares with its source: storage, version counter, autograd graph.

:func:`probe_sharing` measures the three links on real tensors — it compares storages, writes
through the derived tensor to see whether the source's version counter moves, and asks
autograd whether a gradient reaches the source. :func:`sharing_table` prints the measurements
as a text table (one row per derived tensor, one column per link, in words), and
:func:`draw_sharing` draws the same table as a figure. Nothing is typed in: both show what
torch did.

Artists carry ``gid`` s for tests and tooling: the cell of row ``r`` and link ``k`` is
``"link-<r>-<k>"`` (links in the order of :data:`LINKS`), its row label ``"label-<r>"``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import torch
from matplotlib.patches import Rectangle

from autograd_figures.figures import LayoutFigure, unit_canvas

__all__ = ["LINKS", "Sharing", "draw_sharing", "probe_sharing", "sharing_table"]

LINKS = ("storage", "version counter", "autograd graph")
# How a cell reads when the link is shared with the source, and when it is not.
_WORDS = (("shared", "own"), ("shared", "own"), ("linked", "cut"))
_SHARED_FACE = "#f4a261"  # the source sees it: writes or gradients cross over
_OWN_FACE = "#8ecae6"  # independent of the source


@dataclass(frozen=True)
class Sharing:
    """The links between a derived tensor and its source, as measured.

    Attributes:
        label: The code that derived the tensor, e.g. ``"x.detach()"``.
        storage: Both use one storage: a write to either shows in the other.
        version_counter: A write through the derived tensor bumps the source's ``_version``.
        graph: A gradient of the derived tensor reaches the source.
        grad_fn: Name of the derived tensor's ``grad_fn``, or None.

    Defined in Chapter 3, "detach versus clone" (notebooks/detach/detach.ipynb).
    """

    label: str
    storage: bool
    version_counter: bool
    graph: bool
    grad_fn: str | None

    def links(self) -> tuple[bool, bool, bool]:
        """The three links, in the order of :data:`LINKS`."""
        return self.storage, self.version_counter, self.graph


def probe_sharing(
    make_source: Callable[[], torch.Tensor], derive: Callable[[torch.Tensor], torch.Tensor], label: str
) -> Sharing:
    """Measure what ``derive(source)`` shares with a fresh ``make_source()``.

    The gradient is probed first, then one in-place write ``mul_(1)`` (values unchanged) is made
    through the derived tensor under ``torch.no_grad()`` to see whether the source's version
    counter moves.

    Args:
        make_source: Builds the source tensor (typically a leaf that requires grad).
        derive: The operation under study, e.g. ``lambda x: x.detach()``.
        label: How the operation reads, for the figure.

    Returns:
        The measured links.

    Defined in Chapter 3, "detach versus clone" (notebooks/detach/detach.ipynb).
    """
    source = make_source()
    derived = derive(source)
    storage = source.untyped_storage().data_ptr() == derived.untyped_storage().data_ptr()
    graph = False
    if derived.requires_grad and source.requires_grad:
        (grad,) = torch.autograd.grad(derived.sum(), source, allow_unused=True)
        graph = grad is not None
    grad_fn = type(derived.grad_fn).__name__ if derived.grad_fn is not None else None
    before = source._version
    with torch.no_grad():
        derived.mul_(1)
    return Sharing(label, storage, source._version != before, graph, grad_fn)


def sharing_table(rows: Sequence[Sharing]) -> str:
    """The measurements as a text table: one row per derived tensor, each link in words.

    A link reads ``shared`` / ``own`` for the storage and the version counter, ``linked`` /
    ``cut`` for the graph; the last column names the derived tensor's ``grad_fn``.

    Args:
        rows: Measurements from :func:`probe_sharing`.

    Returns:
        The table, lines joined by newlines, columns aligned.

    Raises:
        ValueError: When ``rows`` is empty.
    """
    if not rows:
        raise ValueError("sharing_table needs at least one measured row")
    header = ("derived", *LINKS, "grad_fn")
    lines = [header] + [
        (row.label, *(words[0 if shared else 1] for words, shared in zip(_WORDS, row.links(), strict=True)),
         row.grad_fn or "None")
        for row in rows
    ]
    widths = [max(len(line[k]) for line in lines) for k in range(len(header))]
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)).rstrip()
                     for line in lines)


def draw_sharing(rows: Sequence[Sharing], *, title: str | None = None) -> LayoutFigure:
    """Draw a table: one row per derived tensor, one coloured cell per link to its source.

    Orange cells are links to the source (a write or a gradient crosses over), blue ones are
    independent of it; the last column names the derived tensor's ``grad_fn``.

    Args:
        rows: Measurements from :func:`probe_sharing`.
        title: Optional heading.

    Returns:
        A new figure that shows itself as a PNG in Jupyter.

    Raises:
        ValueError: When ``rows`` is empty.

    Defined in Chapter 3, "detach versus clone" (notebooks/detach/detach.ipynb).
    """
    if not rows:
        raise ValueError("draw_sharing needs at least one measured row")
    label_width = max(3.0, 0.14 * max(len(row.label) for row in rows) + 0.4)
    cell_width, fn_width = 2.6, 3.0
    top = 1.0 if title else 0.2
    height = top + 0.9 + len(rows) + 0.9
    width = label_width + cell_width * len(LINKS) + fn_width
    fig, ax = unit_canvas(width, height)
    if title:
        ax.text(0.1, 0.5, title, fontsize=12, fontweight="bold", va="center")
    header = top + 0.45
    for k, link in enumerate(LINKS):
        ax.text(label_width + cell_width * (k + 0.5), header, link, ha="center", va="center", fontsize=10)
    ax.text(label_width + cell_width * len(LINKS) + 0.2, header, "grad_fn", va="center", fontsize=10)
    for r, row in enumerate(rows):
        y = top + 0.9 + r
        ax.text(0.1, y + 0.5, row.label, va="center", fontsize=10, family="monospace", gid=f"label-{r}")
        for k, shared in enumerate(row.links()):
            x = label_width + cell_width * k
            ax.add_patch(Rectangle((x + 0.05, y + 0.05), cell_width - 0.1, 0.9,
                                   facecolor=_SHARED_FACE if shared else _OWN_FACE, edgecolor="white",
                                   gid=f"link-{r}-{k}"))
            ax.text(x + cell_width / 2, y + 0.5, _WORDS[k][0 if shared else 1], ha="center", va="center",
                    fontsize=9)
        ax.text(label_width + cell_width * len(LINKS) + 0.2, y + 0.5, row.grad_fn or "None", va="center",
                fontsize=9, family="monospace")
    legend = "orange: linked to the source (writes or gradients cross over); blue: independent of it"
    ax.text(0.1, height - 0.45, legend, va="center", fontsize=8, color="#333333")
    return fig

"""Pictures for the Beginner tabs: pages of numbers, readings of a page, and the ledger.

The book's one metaphor drawn: storage is a **page** of numbers; a tensor is one way of reading
the page, and a view is another reading of the same page. The autograd graph is the **ledger**.
Both pictures are built from real tensors, so what they show is what torch did:

* :func:`draw_page_readings` draws one page (a storage) and, below it, each tensor that reads
  it as a grid of the numbers it reads, marking the cells that read chosen slots of the page.
* :func:`draw_pages_and_ledger` draws a source tensor's page and, for each measured derivation
  (:class:`autograd_figures.provenance.Sharing`), whether it reads that same page or a new one, and
  whether the ledger holds an entry that leads back to the source.

Artists carry ``gid`` s for tests and tooling. In :func:`draw_page_readings`: page slots
``"page-<k>"``, the cells of reading ``r`` ``"reading-<r>-<i>-<j>"``. In
:func:`draw_pages_and_ledger`: the source page ``"source-page"``, the page of row ``r``
``"page-<r>-shared"`` or ``"page-<r>-own"``, its ledger arrow ``"ledger-<r>"`` (drawn only when
a gradient reaches the source), and its arrow onto the source's page ``"same-page-<r>"``.

Defined in Chapter 1, "Views, strides and storage" (notebooks/views/views.ipynb), and used again
in Chapter 3, "detach versus clone" (notebooks/detach/detach.ipynb).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import torch
from matplotlib.patches import FancyArrowPatch, Rectangle

from autograd_figures.figures import LayoutFigure, unit_canvas
from autograd_figures.layout import slots_read
from autograd_figures.provenance import Sharing

__all__ = ["draw_page_readings", "draw_pages_and_ledger", "page_of", "slots_read"]

# Light faces keep black text above a 7:1 contrast ratio; the marked face stays above 4.5:1.
_PAGE_FACE = "#fdf6e3"
_MARKED_FACE = "#f4a261"
_OWN_FACE = "#d6eaf8"
_EDGE = "#5a5a5a"
_LEDGER = "#1e6b1e"


def page_of(tensor: torch.Tensor) -> torch.Tensor:
    """Every number on the page (storage) ``tensor`` reads, in page order, as a new 1-D tensor.

    Args:
        tensor: Any strided tensor.

    Returns:
        A copy of the whole storage, one element per slot, with ``tensor``'s dtype.
    """
    slots = tensor.untyped_storage().nbytes() // tensor.element_size()
    whole = torch.empty(0, dtype=tensor.dtype, device=tensor.device)
    whole.set_(tensor.untyped_storage(), 0, (slots,), (1,))
    return whole.detach().clone()


def _number(value: float) -> str:
    return f"{value:g}" if abs(value) < 1e4 else f"{value:.1e}"


def draw_page_readings(
    readings: Mapping[str, torch.Tensor],
    *,
    marked: Iterable[int] = (),
    title: str | None = None,
) -> LayoutFigure:
    """Draw one page of numbers and each tensor that reads it, as the grid it reads.

    The page is the storage all ``readings`` share, one box per slot with its number and its
    slot index; each reading is a grid (a 1-D tensor is one row) of the numbers it reads, each cell noting
    the slot it reads. Boxes
    on the page whose slot is in ``marked``, and every grid cell that reads such a slot, are
    filled orange: a number written there is seen by every reading.

    Args:
        readings: Label (in plain words) to a 0-, 1- or 2-D tensor; all read one storage.
        marked: Page slots to highlight.
        title: Optional heading.

    Returns:
        A figure that displays itself as a PNG in Jupyter.

    Raises:
        ValueError: When there is no reading, a reading has more than 2 dimensions, or the
            readings do not all read the same page.
    """
    if not readings:
        raise ValueError("draw_page_readings needs at least one reading")
    tensors = list(readings.values())
    pointers = {t.untyped_storage().data_ptr() for t in tensors}
    if len(pointers) != 1:
        raise ValueError("the readings must all read one page: they use different storages")
    if any(t.dim() > 2 for t in tensors):
        raise ValueError("draw_page_readings draws readings of at most 2 dimensions")
    marked = set(marked)
    page = page_of(tensors[0])
    grids = [t.detach().reshape(1, -1) if t.dim() < 2 else t.detach() for t in tensors]
    width = max([page.numel()] + [g.shape[1] for g in grids]) + 0.4
    top = 0.9 if title else 0.2
    height = top + 1.9 + sum(g.shape[0] + 1.1 for g in grids)
    fig = LayoutFigure(figsize=(max(5.0, width * 0.62), height * 0.62))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.axis("off")
    if title:
        ax.text(0.2, 0.45, title, fontsize=12, fontweight="bold", va="center")
    ax.text(0.2, top + 0.25, "the page (storage): slot number under each box", fontsize=9, va="center")
    for k, value in enumerate(page.tolist()):
        face = _MARKED_FACE if k in marked else _PAGE_FACE
        ax.add_patch(Rectangle((0.2 + k, top + 0.55), 0.92, 0.8, facecolor=face, edgecolor=_EDGE, gid=f"page-{k}"))
        ax.text(0.66 + k, top + 0.95, _number(value), ha="center", va="center", fontsize=8)
        ax.text(0.66 + k, top + 1.6, str(k), ha="center", va="center", fontsize=9, color="#333333")
    y = top + 2.1
    for r, (label, tensor, grid) in enumerate(zip(readings, tensors, grids, strict=True)):
        slots = slots_read(tensor).reshape(grid.shape)
        ax.text(0.2, y + 0.2, label, fontsize=10, va="center", gid=f"label-{r}")
        for i in range(grid.shape[0]):
            for j in range(grid.shape[1]):
                face = _MARKED_FACE if int(slots[i, j]) in marked else _OWN_FACE
                ax.add_patch(Rectangle((0.2 + j, y + 0.5 + i), 0.92, 0.92, facecolor=face, edgecolor=_EDGE,
                                       gid=f"reading-{r}-{i}-{j}"))
                ax.text(0.66 + j, y + 0.9 + i, _number(float(grid[i, j])), ha="center", va="center", fontsize=8)
                # Read on a phone too, where the figure keeps a legible width and scrolls (sphinx_site.SITE_CSS).
                ax.text(1.06 + j, y + 1.34 + i, f"slot {int(slots[i, j])}", ha="right", va="bottom", fontsize=7,
                        color="#333333")
        y += grid.shape[0] + 1.1
    return fig


def _page_box(ax, x: float, y: float, numbers: Sequence[float], face: str, gid: str) -> None:
    ax.add_patch(Rectangle((x, y), 3.2, 1.0, facecolor=face, edgecolor=_EDGE, gid=gid))
    ax.text(x + 1.6, y + 0.5, "  ".join(_number(v) for v in numbers[:4]), ha="center", va="center", fontsize=9)


def draw_pages_and_ledger(
    source: torch.Tensor,
    rows: Sequence[Sharing],
    *,
    source_label: str = "x",
    title: str | None = None,
) -> LayoutFigure:
    """Draw a source's page and, per measured derivation, its page and its ledger entry.

    Each row of ``rows`` (measured by :func:`autograd_figures.provenance.probe_sharing`) becomes a
    reader: when it shares the source's storage, an arrow points from it onto the source's page
    (orange: "same page"); otherwise it holds a page of its own (blue: "new page"). When a
    gradient of it reaches the source, a green arrow — the ledger entry read at the audit
    (``backward``) — leads back to the source; otherwise the ledger has no entry for it. When it
    shares the source's version counter, it says that its writes raise the page's erasure tally.

    Args:
        source: The tensor whose page is drawn on top (its first numbers are shown).
        rows: Measurements, one per derived tensor.
        source_label: The source's name.
        title: Optional heading.

    Returns:
        A figure that displays itself as a PNG in Jupyter.

    Raises:
        ValueError: When ``rows`` is empty.
    """
    if not rows:
        raise ValueError("draw_pages_and_ledger needs at least one measured row")
    numbers = source.detach().reshape(-1).tolist()
    width = max(4.2 * len(rows) + 0.4, 9.0)
    top = 0.9 if title else 0.2
    height = top + 6.4
    fig, ax = unit_canvas(width, height, scale=0.62)
    if title:
        ax.text(0.2, 0.45, title, fontsize=12, fontweight="bold", va="center")
    source_x = width / 2 - 1.6
    _page_box(ax, source_x, top + 0.5, numbers, _MARKED_FACE, "source-page")
    ax.text(width / 2, top + 0.25, f"{source_label}'s page", ha="center", va="center", fontsize=10)
    reader_y = top + 3.6
    for r, row in enumerate(rows):
        x = 0.4 + 4.2 * r
        ax.text(x + 1.6, reader_y - 0.3, row.label, ha="center", va="center", fontsize=10, family="monospace",
                gid=f"label-{r}")
        if row.storage:
            _page_box(ax, x, reader_y, numbers, _MARKED_FACE, f"page-{r}-shared")
            ax.add_patch(FancyArrowPatch((x + 1.0, reader_y), (source_x + 1.0 + 0.4 * r, top + 1.5),
                                         arrowstyle="-|>", mutation_scale=14, color="#b5651d",
                                         gid=f"same-page-{r}"))
            words = "reads the same page"
        else:
            _page_box(ax, x, reader_y, numbers, _OWN_FACE, f"page-{r}-own")
            words = "a new page of its own"
        ax.text(x + 1.6, reader_y + 1.35, words, ha="center", va="center", fontsize=9)
        tally = "writes raise the page's tally" if row.version_counter else "its writes: tally unchanged"
        ax.text(x + 1.6, reader_y + 1.75, tally, ha="center", va="center", fontsize=9)
        if row.graph:
            ax.add_patch(FancyArrowPatch((x + 2.6, reader_y), (source_x + 2.2 + 0.4 * r, top + 1.5),
                                         arrowstyle="-|>", mutation_scale=14, color=_LEDGER, linestyle="--",
                                         gid=f"ledger-{r}"))
            entry = "ledger entry: leads back"
        else:
            entry = "no ledger entry"
        ax.text(x + 1.6, reader_y + 2.15, entry, ha="center", va="center", fontsize=9,
                color=_LEDGER if row.graph else "#333333")
    ax.text(0.2, height - 0.3, "orange arrow: same page; green dashed arrow: a ledger entry the audit follows back",
            fontsize=8, va="center", color="#333333")
    return fig

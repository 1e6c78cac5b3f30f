"""Pictures of a strided layout: the flat storage on top, the logical tensor below, same colours.

Each storage slot gets its own colour and every logical element is painted with the colour
of the slot it reads, so transposes, slices, broadcasts and overlaps can be seen at a glance.
Every fact drawn is read off a real tensor torch built: the slots are the values of the
tensor's header laid over a storage holding ``0, 1, 2, ...`` (:meth:`~autograd_figures.layout.Layout.slots`),
and contiguity is torch's ``is_contiguous()``.
Figures are built on :class:`matplotlib.figure.Figure` directly (no pyplot state), so drawing
many of them neither leaks memory nor depends on the backend the caller chose.

Artists carry ``gid`` s for tests and tooling: storage boxes ``"slot-<k>"``, logical cells
``"cell-<i>-<j>..."`` (their full index), the offset label ``"offset"`` and the summary lines
``"info"``.

Defined in Chapter 1, "Views, strides and storage" (notebooks/views/views.ipynb).
"""

from __future__ import annotations

import io
import math

import numpy as np
import torch
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from autograd_figures.layout import Layout, broadcast_dims, slot_color, slot_ink

__all__ = ["LayoutFigure", "draw_layout", "slot_color"]



class LayoutFigure(Figure):
    """A figure that shows itself as a PNG in Jupyter, whatever backend pyplot has (or not)."""

    def _repr_png_(self) -> bytes:
        buffer = io.BytesIO()
        self.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
        return buffer.getvalue()


_INCHES_PER_CELL = 0.42
_SLOTS_PER_ROW = 32
_UNREAD_FACE = "#eeeeee"
_UNREAD_EDGE = "#9a9a9a"
def _summary(layout: Layout, counts: np.ndarray) -> list[str]:
    lines = [
        f"shape={layout.shape} stride={layout.stride} offset={layout.offset} "
        f"contiguous={layout.is_contiguous()}"
    ]
    lines += [
        f"stride 0 along dim {d}: every element along it reads the same slot (broadcast)"
        for d in broadcast_dims(layout)
    ]
    if (counts > 1).any():
        shared = int((counts > 1).sum())
        lines.append(
            f"overlap: {shared} storage slot(s) are read by more than one element (×n under a slot), "
            "so writing through this view is ambiguous"
        )
    if (counts == 0).any():
        lines.append("grey hatched slots belong to the storage but are not read by this view")
    return lines


def _grid_caption(ndim: int) -> str:
    axes = {
        1: "dim 0 runs left to right",
        2: "rows: dim 0, columns: dim 1",
        3: "one panel per index of dim 0; rows: dim 1, columns: dim 2",
    }[ndim]
    return f"tensor ({axes}); each cell shows the storage slot it reads"


def unit_canvas(width: float, height: float, scale: float = 0.55) -> tuple[LayoutFigure, Axes]:
    """A figure whose one axes spans it, measured in drawing units (``scale`` inches each), with
    y growing downwards and no axis lines: the canvas of the book's table-like pictures."""
    fig = LayoutFigure(figsize=(width * scale, height * scale))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.axis("off")
    return fig, ax


def draw_layout(
    source: torch.Tensor | Layout,
    *,
    title: str | None = None,
    max_slots: int = 64,
    max_cells: int = 512,
) -> LayoutFigure:
    """Draw a tensor's storage strip above its logical grid, coloured by the slot each element reads.

    Top: one box per storage slot — every slot of a tensor's storage; for a bare layout, from 0
    to the last slot read (at least up to the offset) —
    read slots in their own colour, unread slots grey and hatched, the storage offset
    marked, and ``×n`` under slots read by ``n > 1`` elements. Below: the elements of the
    1-D, 2-D or 3-D tensor (3-D as one panel per index of dim 0), each painted with its
    slot's colour and labelled with the slot number. Last: a summary of shape, stride,
    offset and contiguity, and notes on broadcast (stride-0) dims and overlaps.

    Args:
        source: A tensor, or a :class:`~autograd_figures.layout.Layout`.
        title: Optional heading, e.g. the code that made the tensor.
        max_slots: Refuse to draw more storage slots than this.
        max_cells: Refuse to draw more logical elements than this.

    Returns:
        A new figure; display it, or save it with ``fig.savefig``.

    Raises:
        ValueError: For 0-d or more than 3-d inputs, or when the picture would exceed
            ``max_slots`` storage slots or ``max_cells`` elements.
    """
    layout = source if isinstance(source, Layout) else Layout.of(source)
    if not 1 <= layout.ndim <= 3:
        raise ValueError(f"draw_layout draws 1-D, 2-D or 3-D tensors, not {layout.ndim}-D ones")
    # A tensor's whole storage; for a bare layout, the storage torch needs for it (and the offset's slot).
    whole = 0 if isinstance(source, Layout) else source.untyped_storage().nbytes() // source.element_size()
    n_slots = max(layout.storage_size(), layout.offset + 1, whole)
    if n_slots > max_slots:
        raise ValueError(
            f"this layout spans {n_slots} storage slots, more than max_slots={max_slots}; "
            "use a smaller example or raise max_slots"
        )
    if layout.numel > max_cells:
        raise ValueError(f"this tensor has {layout.numel} elements, more than max_cells={max_cells}")
    slots = layout.slots()
    counts = np.bincount(slots.ravel(), minlength=n_slots)
    # View every layout as panels x rows x columns so one loop draws 1-D, 2-D and 3-D alike.
    grid = slots.reshape((1,) * (3 - layout.ndim) + layout.shape)
    n_panels, n_rows, n_cols = grid.shape
    lines = _summary(layout, counts)

    # Everything is placed in "cell units" (one box = 1x1), y growing downwards.
    strip_cols = min(n_slots, _SLOTS_PER_ROW)
    strip_rows = math.ceil(n_slots / _SLOTS_PER_ROW)
    grid_width = n_panels * n_cols + (n_panels - 1) if slots.size else 6
    text_width = 0.15 * max(len(line) for line in [*lines, _grid_caption(layout.ndim)])
    width = max(strip_cols, grid_width, text_width, 8) + 1.6
    left = -1.0  # room for row indices

    y = 0.3
    items: list[tuple[str, float]] = []  # (kind, y) of sections, resolved below
    if title:
        items.append(("title", y + 0.4))
        y += 1.1
    items.append(("strip_caption", y + 0.35))
    y += 0.6
    strip_top = y
    row_pitch = 2.4  # offset label above, box, ×n counts below
    y += strip_rows * row_pitch
    items.append(("grid_caption", y + 0.5))
    y += 1.0 + (0.6 if n_panels > 1 else 0) + 0.5
    grid_top = y
    y += max(n_rows, 1) if slots.size else 1
    y += 0.5
    info_top = y
    y += 0.55 * len(lines) + 0.3
    height = y

    fig = LayoutFigure(figsize=(width * _INCHES_PER_CELL, height * _INCHES_PER_CELL))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(left, left + width)
    ax.set_ylim(height, 0)
    ax.set_aspect("equal")
    ax.axis("off")

    for kind, ty in items:
        if kind == "title":
            ax.text(left + 0.3, ty, title, fontsize=12, fontweight="bold", va="center")
        elif kind == "strip_caption":
            ax.text(0, ty, f"storage: slots 0-{n_slots - 1}", fontsize=9, va="center", color="#333333")
        else:
            ax.text(0, ty, _grid_caption(layout.ndim), fontsize=9, va="center", color="#333333")

    for k in range(n_slots):
        x = k % _SLOTS_PER_ROW
        box_top = strip_top + (k // _SLOTS_PER_ROW) * row_pitch + 0.9
        read = counts[k] > 0
        face = slot_color(k) if read else _UNREAD_FACE
        ax.add_patch(
            Rectangle(
                (x, box_top),
                1,
                1,
                facecolor=face,
                edgecolor="white" if read else _UNREAD_EDGE,
                hatch=None if read else "///",
                linewidth=1,
                gid=f"slot-{k}",
            )
        )
        ax.text(
            x + 0.5,
            box_top + 0.5,
            str(k),
            ha="center",
            va="center",
            fontsize=8,
            color=slot_ink(face) if read else "#777777",
        )
        if counts[k] > 1:
            ax.text(
                x + 0.5, box_top + 1.3, f"×{counts[k]}", ha="center", va="center", fontsize=7, color="#444444"
            )
        if k == layout.offset:
            ax.annotate(
                f"offset = {k}",
                xy=(x + 0.5, box_top),
                xytext=(x + 0.5, box_top - 0.65),
                ha="center",
                va="center",
                fontsize=8,
                gid="offset",
                arrowprops={"arrowstyle": "-|>", "color": "black", "lw": 1, "shrinkA": 2, "shrinkB": 1},
            )

    if not slots.size:
        ax.text(0, grid_top + 0.5, f"(no elements: shape {layout.shape})", fontsize=9, va="center")
    for p in range(n_panels if slots.size else 0):
        x0 = p * (n_cols + 1)
        if n_panels > 1 or layout.ndim == 3:
            ax.text(
                x0 + n_cols / 2,
                grid_top - 1.0,
                f"[{p}]",
                ha="center",
                va="center",
                fontsize=9,
                fontweight="bold",
            )
        for j in range(n_cols):
            ax.text(
                x0 + j + 0.5, grid_top - 0.3, str(j), ha="center", va="center", fontsize=7, color="#777777"
            )
        for i in range(n_rows):
            if p == 0 and layout.ndim > 1:
                ax.text(
                    -0.3, grid_top + i + 0.5, str(i), ha="center", va="center", fontsize=7, color="#777777"
                )
            for j in range(n_cols):
                slot = int(grid[p, i, j])
                index = (p, i, j)[3 - layout.ndim :]
                ax.add_patch(
                    Rectangle(
                        (x0 + j, grid_top + i),
                        1,
                        1,
                        facecolor=slot_color(slot),
                        edgecolor="white",
                        linewidth=1,
                        gid="cell-" + "-".join(map(str, index)),
                    )
                )
                ax.text(
                    x0 + j + 0.5,
                    grid_top + i + 0.5,
                    str(slot),
                    ha="center",
                    va="center",
                    fontsize=8,
                    color=slot_ink(slot_color(slot)),
                )

    for n, line in enumerate(lines):
        ax.text(
            0,
            info_top + 0.55 * n + 0.25,
            line,
            fontsize=9,
            va="center",
            family="monospace" if n == 0 else None,
            gid="info",
        )
    return fig

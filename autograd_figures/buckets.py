"""Pictures of DDP's gradient buckets: which gradients share a bucket, and when each is reduced.

Defined in Chapter 6, "Gradient buckets and flat shards" (notebooks/buckets/buckets.ipynb).

Three figures, each drawn from plain data that the chapter measures on real ranks:

* :func:`draw_bucket_layouts` puts the buckets of one or more bucket assignments side by side (the
  first iteration's and the rebuilt one), one row per bucket, one segment per gradient, its width
  its size in bytes, with the size limit that closed the bucket as a dashed line;
* :func:`draw_overlap_timeline` puts the moments at which backward finished each gradient on one
  lane and each bucket's all-reduce, from launch to completion, on another;
* :func:`draw_shared_sheets` is the Beginner picture: two branches, each with the accounts of its
  sheet, the call that adds the sheets up, and one branch that corrects its sheet afterwards.

Artists carry ``gid`` s for tests: ``"slot-<layout>-<bucket>-<name>"`` for a segment,
``"limit-<layout>-<bucket>"`` for a size limit, ``"ready-<name>"`` and ``"reduce-<bucket>"`` for
the timeline, ``"sheet-<branch>"``, ``"call"`` and ``"correction"`` for the picture.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from matplotlib.patches import FancyArrowPatch, Rectangle

from autograd_figures.figures import LayoutFigure

__all__ = [
    "BucketSlot",
    "Reduction",
    "bucket_slots",
    "draw_bucket_layouts",
    "draw_overlap_timeline",
    "draw_shared_sheets",
    "reductions_before_backward_ends",
]

# Okabe and Ito's palette: distinguishable with the common colour-vision deficiencies.
_PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
_DARK_INK_ON = {"#E69F00", "#56B4E9", "#F0E442", "#009E73", "#CC79A7"}

Bucket = Sequence[tuple[str, int]]


@dataclass(frozen=True)
class BucketSlot:
    """Where one gradient sits in its bucket: its name, first byte and size in bytes."""

    name: str
    offset: int
    nbytes: int


@dataclass(frozen=True)
class Reduction:
    """One bucket's all-reduce: the bucket's index, and when it was launched and completed."""

    bucket: int
    start: float
    end: float


def bucket_slots(buckets: Sequence[Bucket]) -> list[list[BucketSlot]]:
    """Lay each bucket's gradients end to end, in the bucket's order.

    Args:
        buckets: Per bucket, its gradients as ``(name, size in bytes)``, in the order they sit in the
            bucket (as a communication hook's ``bucket.parameters()`` lists them).

    Returns:
        Per bucket, one :class:`BucketSlot` per gradient, offsets in bytes from the bucket's start.

    Raises:
        ValueError: for an empty bucket, a negative size or a gradient that appears twice.
    """
    seen: set[str] = set()
    layout = []
    for index, bucket in enumerate(buckets):
        if not bucket:
            raise ValueError(f"bucket {index} is empty")
        offset, slots = 0, []
        for name, nbytes in bucket:
            if nbytes < 0:
                raise ValueError(f"{name!r} has a negative size")
            if name in seen:
                raise ValueError(f"{name!r} is in more than one place; a gradient has one slot")
            seen.add(name)
            slots.append(BucketSlot(name, offset, nbytes))
            offset += nbytes
        layout.append(slots)
    return layout


def draw_bucket_layouts(
    layouts: Mapping[str, Sequence[Bucket]],
    *,
    limits: Mapping[str, Sequence[int | None]] | None = None,
    title: str | None = None,
) -> LayoutFigure:
    """Draw bucket assignments one above the other, one row per bucket, one segment per gradient.

    A gradient keeps its colour in every layout, so a reader sees it change bucket and place.

    Args:
        layouts: From a label (e.g. "iteration 0") to its buckets, as :func:`bucket_slots` takes them.
        limits: Optionally, per label, the size limit in bytes that each bucket was filled against
            (``None`` for a bucket with no limit worth drawing); drawn as a dashed line.
        title: Optional heading.

    Returns:
        A new figure that shows itself as a PNG in Jupyter.

    Raises:
        ValueError: for no layouts, a layout :func:`bucket_slots` refuses, or limits whose number
            differs from the number of buckets.
    """
    if not layouts:
        raise ValueError("no bucket layout to draw")
    limits = dict(limits or {})
    placed = {label: bucket_slots(buckets) for label, buckets in layouts.items()}
    for label, bucket_limits in limits.items():
        if len(bucket_limits) != len(placed[label]):
            raise ValueError(f"{label!r}: {len(bucket_limits)} limits for {len(placed[label])} buckets")
    names = list(dict.fromkeys(slot.name for slots in placed.values() for row in slots for slot in row))
    colour = {name: _PALETTE[i % len(_PALETTE)] for i, name in enumerate(names)}
    widest = max(
        max([row[-1].offset + row[-1].nbytes for row in slots]
            + [limit for limit in limits.get(label, ()) if limit is not None])
        for label, slots in placed.items()
    )
    rows = sum(len(slots) for slots in placed.values())
    fig = LayoutFigure(figsize=(7.2, 1.4 + 0.62 * rows + 0.35 * len(placed)))
    axes = fig.subplots(len(placed), 1, squeeze=False,
                        gridspec_kw={"height_ratios": [len(s) for s in placed.values()]})[:, 0]
    for ax, (label, slots) in zip(axes, placed.items(), strict=True):
        for index, row in enumerate(slots):
            y = -index
            for slot in row:
                face = colour[slot.name]
                ax.add_patch(Rectangle((slot.offset, y - 0.35), slot.nbytes, 0.7, facecolor=face,
                                       edgecolor="white", linewidth=1.0,
                                       gid=f"slot-{label}-{index}-{slot.name}"))
                if slot.nbytes >= 0.08 * widest:
                    ink = "black" if face in _DARK_INK_ON else "white"
                    ax.text(slot.offset + slot.nbytes / 2, y, slot.name, ha="center", va="center",
                            fontsize=8, color=ink)
            limit = limits.get(label, [None] * len(slots))[index]
            if limit is not None:
                ax.plot([limit, limit], [y - 0.45, y + 0.45], linestyle="--", color="#444444",
                        linewidth=1.2, gid=f"limit-{label}-{index}")
            total = row[-1].offset + row[-1].nbytes
            ax.text(max(total, limit or 0) + 0.01 * widest, y, f"{total:,} B", va="center", fontsize=8)
        ax.set_xlim(0, widest * 1.18)
        ax.set_ylim(-len(slots) + 0.4, 0.6)
        ax.set_yticks([-i for i in range(len(slots))], [f"bucket {i}" for i in range(len(slots))])
        ax.set_title(label, loc="left", fontsize=10)
        ax.spines[["top", "right"]].set_visible(False)
    axes[-1].set_xlabel("bytes from the start of the bucket (dashed: the size limit the bucket was filled against)")
    handles = [Rectangle((0, 0), 1, 1, facecolor=colour[name]) for name in names]
    fig.legend(handles, names, loc="lower center", fontsize=8, ncols=min(len(names), 6), frameon=False)
    if title:
        fig.suptitle(title, x=0.02, ha="left", fontsize=11)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    return fig


def reductions_before_backward_ends(ready: Sequence[tuple[str, float]],
                                    reductions: Sequence[Reduction]) -> list[bool]:
    """Per all-reduce, whether it was launched before backward had finished its last gradient.

    Args:
        ready: ``(parameter name, time)`` at which backward finished each gradient.
        reductions: The buckets' all-reduces.

    Returns:
        One bool per reduction, in the order given: True when it overlaps the rest of backward.

    Raises:
        ValueError: for no gradients.
    """
    if not ready:
        raise ValueError("no gradient was recorded")
    last = max(time for _, time in ready)
    return [reduction.start < last for reduction in reductions]


def draw_overlap_timeline(
    ready: Sequence[tuple[str, float]],
    reductions: Sequence[Reduction],
    *,
    title: str | None = None,
) -> LayoutFigure:
    """Draw one backward pass: when each gradient was ready, and each bucket's all-reduce.

    Args:
        ready: ``(parameter name, seconds since backward started)`` for each gradient.
        reductions: Each bucket's all-reduce, with its launch and completion in the same seconds.
        title: Optional heading.

    Returns:
        A new figure that shows itself as a PNG in Jupyter (times in milliseconds).

    Raises:
        ValueError: for no gradients, or a reduction that completes before it starts.
    """
    if not ready:
        raise ValueError("no gradient was recorded")
    for reduction in reductions:
        if reduction.end < reduction.start:
            raise ValueError(f"the all-reduce of bucket {reduction.bucket} ends before it starts")
    order = sorted(ready, key=lambda item: item[1])
    rows = len(order) + len(reductions)
    fig = LayoutFigure(figsize=(7.2, 0.9 + 0.24 * rows))
    ax = fig.add_subplot()
    labels = []
    for row, (name, time) in enumerate(order):
        ax.plot([0, time * 1e3], [-row, -row], color="#bbbbbb", linewidth=1.0)
        ax.plot([time * 1e3], [-row], marker="o", markersize=6, color=_PALETTE[0], linestyle="none",
                gid=f"ready-{name}")
        labels.append(f"gradient {name}")
    for offset, reduction in enumerate(reductions):
        row = len(order) + offset
        face = _PALETTE[(reduction.bucket + 1) % len(_PALETTE)]
        # A reduction shorter than a pixel still shows as a thin bar.
        width = max((reduction.end - reduction.start) * 1e3, 1e-3)
        ax.add_patch(Rectangle((reduction.start * 1e3, -row - 0.35), width, 0.7, facecolor=face,
                               edgecolor="black", linewidth=0.8, gid=f"reduce-{reduction.bucket}"))
        labels.append(f"all-reduce bucket {reduction.bucket}")
    last = order[-1][1] * 1e3
    ax.axvline(last, linestyle="--", color="#444444", linewidth=1.0)
    ax.annotate("last gradient ready", (last, 0.6), textcoords="offset points", xytext=(4, 0), fontsize=8)
    end = max([last / 1e3] + [r.end for r in reductions])
    ax.set_xlim(0, end * 1e3 * 1.12)
    ax.set_ylim(-rows + 0.4, 1.0)
    ax.set_yticks([-row for row in range(rows)], labels, fontsize=8)
    ax.set_xlabel("milliseconds since backward() started")
    ax.grid(True, axis="x", alpha=0.3)
    ax.spines[["top", "right"]].set_visible(False)
    if title:
        ax.set_title(title, loc="left", fontsize=10)
    fig.tight_layout()
    return fig


def draw_shared_sheets(accounts: Sequence[str] = ("layer 3", "layer 2", "layer 1")) -> LayoutFigure:
    """The Beginner picture of a bucket: two branches send the accounts on one sheet in one call.

    Each branch (a rank) keeps its accounts (gradients) on one shared sheet (the bucket). The call
    adds both sheets up and writes the average on each; a correction one branch makes to its own
    sheet after the call reaches no other branch.

    Args:
        accounts: The names of the accounts on each sheet, in sheet order.

    Returns:
        A new figure that shows itself as a PNG in Jupyter.

    Raises:
        ValueError: for no accounts.
    """
    if not accounts:
        raise ValueError("a sheet holds at least one account")
    fig = LayoutFigure(figsize=(7.2, 3.0))
    ax = fig.add_subplot()
    ax.set_xlim(0, 10)
    ax.set_ylim(0, 4.6)
    ax.axis("off")
    rows = len(accounts)
    height = 0.55
    for branch, left in (("branch 0", 0.4), ("branch 1", 6.6)):
        top = 3.6
        ax.add_patch(Rectangle((left, top - rows * height - 0.15), 3.0, rows * height + 0.3, facecolor="#f6f1e1",
                               edgecolor="#444444", linewidth=1.2, gid=f"sheet-{branch}"))
        ax.text(left + 1.5, top + 0.35, f"{branch}: one sheet", ha="center", fontsize=10, weight="bold")
        for row, account in enumerate(accounts):
            y = top - (row + 1) * height
            face = _PALETTE[row % len(_PALETTE)]
            ax.add_patch(Rectangle((left + 0.15, y), 2.7, height * 0.8, facecolor=face, edgecolor="white"))
            ax.text(left + 1.5, y + height * 0.4, f"account: {account}", ha="center", va="center", fontsize=8,
                    color="black" if face in _DARK_INK_ON else "white")
    ax.add_patch(FancyArrowPatch((3.5, 2.7), (6.5, 2.7), arrowstyle="<->", mutation_scale=16, linewidth=1.6,
                                 color="#333333", gid="call"))
    ax.text(5.0, 2.95, "one call: add both sheets,\nwrite the average on each", ha="center", fontsize=8)
    ax.add_patch(FancyArrowPatch((2.9, 1.2), (1.9, 1.95), arrowstyle="->", mutation_scale=14, linewidth=1.4,
                                 color=_PALETTE[5], gid="correction"))
    ax.text(3.1, 0.75, "after the call, branch 0 corrects\nits own sheet: branch 1 never hears of it",
            ha="left", fontsize=8, color="#8a3300")
    return fig

"""Loss curves of training runs, one panel per run, side by side on a shared axis.

Chapter 4 compares a training run that zeroes its gradients with one that forgets to: the
numbers alone look plausible, the two curves next to each other do not. :func:`draw_balance`
draws the book's account metaphor for ``.grad``: each ``backward()`` deposits into a leaf's
balance, and the balance grows until someone empties it. Figures are built on
:class:`matplotlib.figure.Figure` directly (no pyplot state), like :mod:`autograd_figures.figures`.

Artists carry ``gid`` s for tests and tooling: each run's line ``"curve-<name>"``, its panel's
final-value note ``"final-<name>"`` and, for a run with non-finite losses, ``"diverged-<name>"``;
in :func:`draw_balance`, the balance of row ``r``, element ``k`` ``"balance-<r>-<k>"``, its deposit
``"deposit-<r>-<k>"`` and an emptied balance ``"empty-<r>"``.

Defined in Chapter 4, "Leaves, .grad and accumulation" (notebooks/leaves/leaves.ipynb).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import torch
from matplotlib.patches import Rectangle

from autograd_figures.figures import LayoutFigure, unit_canvas

__all__ = ["deposits", "draw_balance", "draw_loss_curves"]

_PANEL_INCHES = (4.2, 3.2)
_COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")


def _finite_prefix(losses: Sequence[float]) -> tuple[list[float], int | None]:
    """The losses up to the first non-finite one, and that step (None when all are finite)."""
    for step, value in enumerate(losses):
        if not math.isfinite(value):
            return list(losses[:step]), step
    return list(losses), None


def draw_loss_curves(
    runs: Mapping[str, Sequence[float]],
    *,
    title: str | None = None,
    log_scale: bool = True,
    ylabel: str = "loss",
) -> LayoutFigure:
    """Draw each run's loss per step in its own panel, panels side by side sharing the y axis.

    Sharing the y axis is the point: a run that does not converge stands out next to one that
    does. A run whose losses turn non-finite (it diverged) is drawn up to that step and says so.

    Args:
        runs: Run name -> loss after each step (Python floats, e.g. ``loss.item()``), in the
            order the panels should appear.
        title: Optional heading above the panels.
        log_scale: Plot the losses on a logarithmic axis (losses must then be positive).
        ylabel: Label of the shared y axis.

    Returns:
        A new figure; display it, or save it with ``fig.savefig``.

    Raises:
        ValueError: When there is no run, a run has no loss, or ``log_scale`` meets a loss <= 0.
    """
    if not runs:
        raise ValueError("draw_loss_curves needs at least one run")
    for name, losses in runs.items():
        if len(losses) == 0:
            raise ValueError(f"run {name!r} has no losses")
        if log_scale and any(math.isfinite(v) and v <= 0 for v in losses):
            raise ValueError(f"run {name!r} has a loss <= 0, which a log scale cannot show; pass log_scale=False")

    width, height = _PANEL_INCHES
    fig = LayoutFigure(figsize=(width * len(runs), height + (0.4 if title else 0)), layout="constrained")
    axes = fig.subplots(1, len(runs), sharey=True, squeeze=False)[0]
    if title:
        fig.suptitle(title, fontweight="bold")
    for index, (ax, (name, losses)) in enumerate(zip(axes, runs.items(), strict=True)):
        shown, diverged_at = _finite_prefix(losses)
        color = _COLORS[index % len(_COLORS)]
        ax.plot(range(1, len(shown) + 1), shown, color=color, marker=".", linewidth=1.5, gid=f"curve-{name}")
        ax.set_title(name)
        ax.set_xlabel("step")
        ax.set_xlim(0, len(losses) + 1)
        ax.grid(True, alpha=0.3)
        if log_scale:
            ax.set_yscale("log")
        if diverged_at is None:
            note = f"final loss {shown[-1]:.3g}"
            gid = f"final-{name}"
        else:
            note = f"diverged: loss not finite from step {diverged_at + 1}"
            gid = f"diverged-{name}"
        ax.text(0.97, 0.95, note, transform=ax.transAxes, ha="right", va="top", fontsize=9, gid=gid,
                bbox={"boxstyle": "round", "facecolor": "white", "edgecolor": color})
    axes[0].set_ylabel(ylabel)
    return fig


_BALANCE_FACE = "#d9f2d9"
_DEPOSIT_FACE = "#fdf6e3"


def deposits(history: Sequence[tuple[str, torch.Tensor | None]]) -> list[list[float] | None]:
    """What each event added to the balance: the balance minus the one before (None when emptied).

    Args:
        history: ``(caption, copy of .grad after the event)`` pairs; ``None`` for no ``.grad``.

    Returns:
        One list of numbers per event, or None for an event that left no balance.
    """
    found: list[list[float] | None] = []
    before = None
    for _, balance in history:
        if balance is None:
            found.append(None)
        else:
            now = balance.detach().flatten()
            found.append((now - before if before is not None else now).tolist())
        before = None if balance is None else balance.detach().flatten()
    return found


def draw_balance(
    history: Sequence[tuple[str, torch.Tensor | None]], *, title: str, account: str = "w.grad"
) -> LayoutFigure:
    """The account metaphor drawn from real gradients: deposits add up until someone empties it.

    One row per event, told in plain words: the deposit it made (the balance minus the balance
    before) and the balance after it, one box per element; an emptied account (``.grad`` is
    None) says so.

    Args:
        history: ``(caption, w.grad.clone() after the event, or None)`` pairs, in order; at most
            8 elements per balance.
        title: Heading of the figure.
        account: What the balance is, for the column heading.

    Returns:
        A figure that displays itself as a PNG in Jupyter.

    Raises:
        ValueError: When the history is empty or a balance has more than 8 elements.
    """
    if not history:
        raise ValueError("draw_balance needs at least one event")
    if any(b is not None and b.numel() > 8 for _, b in history):
        raise ValueError("draw_balance draws balances of at most 8 elements")
    added = deposits(history)
    n = max((b.numel() for _, b in history if b is not None), default=1)
    caption_w = max(len(c) for c, _ in history) * 0.12 + 0.6
    box = 1.0
    x_deposit = caption_w
    x_balance = x_deposit + n * box + 0.8
    width = x_balance + n * box + 0.6
    top = 1.5
    height = top + len(history) + 0.4
    fig, ax = unit_canvas(width, height)
    ax.text(0.2, 0.45, title, fontsize=11, fontweight="bold", va="center")
    ax.text(x_deposit, top - 0.35, "deposit", fontsize=9, fontweight="bold", va="center", color="#333333")
    ax.text(x_balance, top - 0.35, f"balance ({account})", fontsize=9, fontweight="bold", va="center",
            color="#333333")
    for r, ((caption, balance), deposit) in enumerate(zip(history, added, strict=True)):
        y = top + r
        ax.text(0.2, y + 0.5, caption, fontsize=9, va="center")
        if balance is None:
            ax.text(x_balance, y + 0.5, "empty (None)", fontsize=9, va="center", style="italic", gid=f"empty-{r}")
            continue
        for k, (put, held) in enumerate(zip(deposit, balance.detach().flatten().tolist(), strict=True)):
            for x, value, face, kind in ((x_deposit, put, _DEPOSIT_FACE, "deposit"),
                                         (x_balance, held, _BALANCE_FACE, "balance")):
                ax.add_patch(Rectangle((x + k * box + 0.05, y + 0.12), box - 0.1, 0.76, facecolor=face,
                                       edgecolor="#5a5a5a", gid=f"{kind}-{r}-{k}"))
                sign = "+" if kind == "deposit" and value >= 0 else ""
                ax.text(x + k * box + box / 2, y + 0.5, f"{sign}{value:g}", ha="center", va="center", fontsize=9)
    return fig

"""Loss curves of training runs, one panel per run, side by side on a shared axis.

Chapter 4 compares a training run that zeroes its gradients with one that forgets to: the
numbers alone look plausible, the two curves next to each other do not. Figures are built on
:class:`matplotlib.figure.Figure` directly (no pyplot state), like :mod:`stridelab.figures`.

Artists carry ``gid`` s for tests and tooling: each run's line ``"curve-<name>"``, its panel's
final-value note ``"final-<name>"`` and, for a run with non-finite losses, ``"diverged-<name>"``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from stridelab.figures import LayoutFigure

__all__ = ["draw_loss_curves"]

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

    Defined in Chapter 4, "Leaves, .grad and accumulation" (notebooks/leaves/leaves.ipynb).
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

"""A picture of ranks drifting apart: the largest cross-rank parameter difference after each step.

Data-parallel replicas must hold bitwise-identical parameters. When one rank edits its gradient in
place after the all-reduce, nothing raises; the only trace is that the difference between ranks
stops being zero. The figure puts that difference on a symmetric-log axis (zero stays visible next
to tiny and large drifts) and marks the first step at which it is not zero.

Artists carry ``gid`` s for tests: one line per series ``"series-<label>"`` and the marker of its
first divergent step ``"first-<label>"``.

Defined in Chapter 6, "Gradient buckets and flat shards" (notebooks/buckets/buckets.ipynb).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from autograd_figures.figures import LayoutFigure

__all__ = ["draw_divergence", "first_divergent_step"]


def first_divergent_step(differences: Sequence[float]) -> int | None:
    """Index of the first step whose cross-rank difference is not zero, or None if there is none."""
    return next((step for step, value in enumerate(differences) if value != 0), None)


def draw_divergence(
    series: Mapping[str, Sequence[float]] | Sequence[float],
    *,
    title: str | None = None,
) -> LayoutFigure:
    """Plot max |parameters of rank 0 - parameters of rank r| per training step, one line per series.

    Args:
        series: The differences per step (step 0 first), or a mapping from a label (e.g. "buggy
            step", "fixed step") to such a sequence.
        title: Optional heading.

    Returns:
        A new figure that shows itself as a PNG in Jupyter.

    Raises:
        ValueError: for an empty series or a negative difference (a distance cannot be negative).
    """
    named = dict(series) if isinstance(series, Mapping) else {"difference": series}
    for label, values in named.items():
        if len(values) == 0:
            raise ValueError(f"series {label!r} is empty")
        if any(v < 0 for v in values):
            raise ValueError(f"series {label!r} has a negative difference; pass absolute differences")
    fig = LayoutFigure(figsize=(6.4, 3.4))
    ax = fig.add_subplot()
    smallest = min((v for values in named.values() for v in values if v > 0), default=1e-8)
    for label, values in named.items():
        steps = list(range(len(values)))
        (line,) = ax.plot(steps, list(values), marker="o", label=label)
        line.set_gid(f"series-{label}")
        first = first_divergent_step(values)
        if first is not None:
            ax.axvline(first, color=line.get_color(), linestyle=":", linewidth=1.2, gid=f"first-{label}")
            ax.annotate(f"first divergent step: {first}", (first, values[first]), textcoords="offset points",
                        xytext=(6, 6), fontsize=8, color=line.get_color())
    ax.set_yscale("symlog", linthresh=smallest)
    ax.set_xlabel("training step")
    ax.set_ylabel("max |rank 0 − rank 1| over parameters")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper left", fontsize=8)
    if title:
        ax.set_title(title)
    fig.tight_layout()
    return fig

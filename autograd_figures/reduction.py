"""Pictures of keeping a failure: a delta-debugging run, and a regression test judged by mutation.

``draw_reduction_run`` plots every candidate a reduction tried — how many statements it held, and
whether it still failed the same way (kept) or not (rejected) — so the halving, then the
one-statement steps of delta debugging show as a staircase. ``draw_mutation_matrix`` draws tests
against variants of the code (correct pairs and mutants): each cell says whether the test passed;
a good test passes every correct pair and fails every mutant.

Artists carry ``gid`` s for tests: ``"kept"`` and ``"rejected"`` (the two marker sets), and
``"cell-<row>-<column>"`` for each matrix cell.

Defined in Chapter 7, "Keep a failure as a regression test" (notebooks/capstone/capstone.ipynb).
"""

from __future__ import annotations

from collections.abc import Sequence

from matplotlib.patches import Rectangle

from autograd_figures.figures import LayoutFigure

__all__ = ["draw_mutation_matrix", "draw_reduction_run"]

KEPT, REJECTED = "#1b7837", "#b2182b"


def draw_reduction_run(tried: Sequence[tuple[int, bool]], *, original: int | None = None,
                       title: str | None = None) -> LayoutFigure:
    """Plot each candidate a reduction tried: its number of statements, and whether it was kept.

    Args:
        tried: ``(statements in the candidate, still fails the same way)`` in the order tried.
        original: How many statements the input held before the first candidate; the line of the
            reduction so far starts there (by default one more than the largest candidate).
        title: Optional heading.

    Raises:
        ValueError: when nothing was tried.
    """
    if not tried:
        raise ValueError("a reduction run tries at least one candidate")
    fig = LayoutFigure(figsize=(8.4, 3.2))
    ax = fig.add_subplot()
    for flag, colour, label, marker in ((True, KEPT, "kept: fails the same way", "o"),
                                        (False, REJECTED, "rejected: fails otherwise or not at all", "x")):
        points = [(i + 1, size) for i, (size, kept) in enumerate(tried) if kept is flag]
        if points:
            xs, ys = zip(*points, strict=True)
            markers = ax.scatter(xs, ys, color=colour, marker=marker, label=label, zorder=3)
            markers.set_gid("kept" if flag else "rejected")
    current = original if original is not None else max(size for size, _ in tried) + 1
    sizes = [current]
    for size, kept in tried:
        if kept:
            current = size
        sizes.append(current)
    ax.step(range(len(tried) + 1), sizes, where="post", color="#777777", linewidth=1, label="reduction so far")
    ax.set_xlabel("candidate tried (0: the original)")
    ax.set_ylabel("statements")
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize="small", borderaxespad=0.0)
    if title:
        ax.set_title(title)
    fig.tight_layout()
    return fig


def draw_mutation_matrix(tests: Sequence[str], variants: Sequence[str], passed: Sequence[Sequence[bool]],
                         correct: int, *, title: str | None = None) -> LayoutFigure:
    """Draw which test passed on which variant: the first ``correct`` variants are correct pairs.

    Raises:
        ValueError: when the matrix does not have one row per test and one column per variant.
    """
    if len(passed) != len(tests) or any(len(row) != len(variants) for row in passed):
        raise ValueError("one row per test, one column per variant")
    fig = LayoutFigure(figsize=(1.2 + 1.35 * len(variants), 0.9 + 0.55 * len(tests)))
    ax = fig.add_subplot()
    for r, row in enumerate(passed):
        for c, ok in enumerate(row):
            right = ok if c < correct else not ok
            cell = ax.add_patch(Rectangle((c, r), 1, 1, facecolor="#d9f0d3" if right else "#f4a582",
                                          edgecolor="white", linewidth=2))
            cell.set_gid(f"cell-{r}-{c}")
            ax.text(c + 0.5, r + 0.5, "passes" if ok else "fails", ha="center", va="center", fontsize="small")
    ax.axvline(correct, color="#333333", linewidth=1.5)
    ax.set_xlim(0, len(variants))
    ax.set_ylim(len(tests), 0)
    ax.set_xticks([c + 0.5 for c in range(len(variants))], variants, rotation=20, ha="right", fontsize="small")
    ax.set_yticks([r + 0.5 for r in range(len(tests))], tests, fontsize="small")
    ax.tick_params(length=0)
    for side in ax.spines.values():
        side.set_visible(False)
    if title:
        ax.set_title(title)
    fig.tight_layout()
    return fig

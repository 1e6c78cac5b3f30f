"""autograd_figures.divergence: the plot shows the differences it is given and where they start."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from autograd_figures import draw_divergence, first_divergent_step  # noqa: E402


def _lines(fig):
    return {line.get_gid(): line for ax in fig.axes for line in ax.get_lines() if line.get_gid()}


def test_first_divergent_step_is_the_first_nonzero_difference():
    assert first_divergent_step([0.0, 0.0, 1e-9, 0.0, 3.0]) == 2
    assert first_divergent_step([0.0, 0.0]) is None


def test_each_series_is_drawn_with_its_values_and_its_first_divergent_step_marked():
    fig = draw_divergence({"buggy": [0.0, 0.0, 0.05, 0.1], "fixed": [0.0, 0.0, 0.0, 0.0]}, title="drift")
    lines = _lines(fig)
    assert list(lines["series-buggy"].get_ydata()) == [0.0, 0.0, 0.05, 0.1]
    assert list(lines["series-fixed"].get_xdata()) == [0, 1, 2, 3]
    assert list(lines["first-buggy"].get_xdata()) == [2, 2]
    assert "first-fixed" not in lines  # a series that never diverges gets no marker
    assert fig.axes[0].get_yscale() == "symlog" and fig.axes[0].get_title() == "drift"


def test_a_plain_sequence_is_one_series_and_the_figure_renders_as_png():
    fig = draw_divergence([0.0, 2.0])
    assert set(_lines(fig)) == {"series-difference", "first-difference"}
    assert fig._repr_png_().startswith(b"\x89PNG")


@pytest.mark.parametrize("bad", [[], [0.0, -1.0]])
def test_empty_or_negative_series_are_refused(bad):
    with pytest.raises(ValueError):
        draw_divergence({"x": bad})

"""autograd_figures.curves: each run in its own panel, on one shared axis, divergence said out loud."""

from __future__ import annotations

import io
import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from autograd_figures import deposits, draw_balance, draw_loss_curves  # noqa: E402

RUNS = {"zeroed": [3.0, 1.5, 0.7, 0.3], "not zeroed": [3.0, 0.5, 1.4, 2.0]}


def _lines(fig: Figure) -> dict[str, list]:
    return {line.get_gid(): line for ax in fig.axes for line in ax.lines if line.get_gid()}


def _texts(fig: Figure) -> dict[str, str]:
    return {t.get_gid(): t.get_text() for ax in fig.axes for t in ax.texts if t.get_gid()}


def test_one_panel_per_run_in_order_sharing_the_y_axis():
    fig = draw_loss_curves(RUNS, title="zero_grad or not")
    assert [ax.get_title() for ax in fig.axes] == list(RUNS)
    first, second = fig.axes
    assert first.get_shared_y_axes().joined(first, second)
    assert first.get_position().x0 < second.get_position().x0  # side by side, left to right
    assert fig.get_suptitle() == "zero_grad or not"


def test_lines_carry_exactly_the_losses_per_step():
    lines = _lines(draw_loss_curves(RUNS))
    for name, losses in RUNS.items():
        x, y = lines[f"curve-{name}"].get_data()
        assert list(x) == [1, 2, 3, 4]
        assert list(y) == losses


def test_final_loss_is_noted_and_log_scale_is_the_default():
    fig = draw_loss_curves(RUNS)
    texts = _texts(fig)
    assert texts["final-zeroed"] == "final loss 0.3"
    assert texts["final-not zeroed"] == "final loss 2"
    assert all(ax.get_yscale() == "log" for ax in fig.axes)
    assert all(ax.get_yscale() == "linear" for ax in draw_loss_curves(RUNS, log_scale=False).axes)


def test_a_diverged_run_is_drawn_up_to_its_first_non_finite_loss():
    fig = draw_loss_curves({"diverged": [1.0, 10.0, math.inf, math.nan]})
    x, y = _lines(fig)["curve-diverged"].get_data()
    assert list(y) == [1.0, 10.0]
    assert _texts(fig)["diverged-diverged"] == "diverged: loss not finite from step 3"


@pytest.mark.parametrize(
    ("runs", "message"),
    [({}, "at least one run"), ({"a": []}, "no losses"), ({"a": [1.0, 0.0]}, "log scale")],
    ids=["no-runs", "empty-run", "zero-on-log"],
)
def test_unplottable_input_raises(runs, message):
    with pytest.raises(ValueError, match=message):
        draw_loss_curves(runs)


def test_renders_to_a_non_blank_png_through_repr_png():
    png = draw_loss_curves(RUNS)._repr_png_()
    assert png.startswith(b"\x89PNG")
    pixels = plt.imread(io.BytesIO(png), format="png")
    assert pixels.shape[1] > pixels.shape[0] > 100  # wider than tall: panels side by side
    assert len(np.unique(pixels.reshape(-1, pixels.shape[-1]), axis=0)) > 8


def _history() -> list:
    w = torch.tensor([1.0, -1.0], requires_grad=True)
    history = []
    (w * 3).sum().backward()
    history.append(("3w", w.grad.clone()))
    (w**2).sum().backward()
    history.append(("w squared, not emptied", w.grad.clone()))
    w.grad = None
    history.append(("emptied", None))
    (w**2).sum().backward()
    history.append(("w squared", w.grad.clone()))
    return history


def test_deposits_are_the_differences_of_real_balances():
    assert deposits(_history()) == [[3.0, 3.0], [2.0, -2.0], None, [2.0, -2.0]]


def test_balance_picture_draws_every_deposit_and_balance_and_the_emptied_account():
    fig = draw_balance(_history(), title="account")
    boxes = {p.get_gid() for ax in fig.axes for p in ax.patches if p.get_gid()}
    assert boxes == {f"{kind}-{r}-{k}" for kind in ("deposit", "balance") for r in (0, 1, 3) for k in (0, 1)}
    texts = [t.get_text() for ax in fig.axes for t in ax.texts]
    assert texts.count("5") == 1 and "+2" in texts and "-2" in texts
    assert _texts(fig)["empty-2"] == "empty (None)"


def test_balance_picture_refuses_an_empty_history():
    with pytest.raises(ValueError, match="at least one event"):
        draw_balance([], title="nothing")

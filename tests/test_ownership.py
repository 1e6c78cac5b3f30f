"""stridelab.ownership: the state map must tell the truth about what each mechanism sees."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
import torch  # noqa: E402
from matplotlib.colors import to_rgba  # noqa: E402
from torch import nn  # noqa: E402

from stridelab import KINDS, draw_state_map, state_kind, state_map  # noqa: E402


class Everything(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.scale = nn.Parameter(torch.ones(3))
        self.register_buffer("running", torch.zeros(3))
        self.register_buffer("scratch", torch.zeros(3), persistent=False)
        self.register_buffer("count", torch.zeros((), dtype=torch.int64))
        self.plain = torch.zeros(3)
        self.label = "not a tensor"


def tied() -> nn.Module:
    layer = nn.Linear(2, 2)
    return nn.Sequential(layer, nn.Tanh(), layer)


def test_state_kind_names_every_kind():
    module = nn.Sequential(Everything())
    kinds = {name: state_kind(module, f"0.{name}") for name in ("scale", "running", "scratch", "plain")}
    assert list(kinds.values()) == list(KINDS)
    assert state_kind(module, "0.label") == "plain value"
    assert state_kind(module, "0.nothing") == "missing" and state_kind(module, "7.scale") == "missing"


def test_state_map_agrees_with_what_torch_does():
    rows = {e.name: e for e in state_map(Everything())}
    assert set(rows) == {"scale", "running", "scratch", "count", "plain"}
    assert [n for n, e in rows.items() if e.in_parameters] == ["scale"]
    assert {n for n, e in rows.items() if e.in_state_dict} == {"scale", "running", "count"}
    assert {n for n, e in rows.items() if e.moves_with_device} == {"scale", "running", "scratch", "count"}
    # .to(float64) casts floating-point state only: the int64 counter moves but stays int64.
    assert {n for n, e in rows.items() if e.cast_by_dtype} == {"scale", "running", "scratch"}
    assert rows["scale"].requires_grad and not rows["running"].requires_grad


def test_state_map_leaves_the_module_untouched():
    module = Everything()
    before = {name: (t.dtype, t.device) for name, t in module.state_dict().items()}
    state_map(module)
    assert {name: (t.dtype, t.device) for name, t in module.state_dict().items()} == before
    assert module.plain.dtype == torch.float32


def test_a_tied_tensor_is_yielded_once_under_its_first_name():
    rows = {e.name: e for e in state_map(tied())}
    assert rows["0.weight"].in_parameters and not rows["2.weight"].in_parameters
    assert rows["2.weight"].tied_to == "0.weight" and rows["0.weight"].tied_to == ""
    assert rows["2.weight"].in_state_dict


def test_batchnorm_counter_moves_with_device_but_is_not_cast():
    rows = {e.name: e for e in state_map(nn.BatchNorm1d(2))}
    counter = rows["num_batches_tracked"]
    assert counter.kind == "buffer" and counter.moves_with_device and not counter.cast_by_dtype


@pytest.mark.parametrize("module", [Everything(), tied(), nn.BatchNorm1d(2)], ids=["everything", "tied", "bn"])
def test_figure_has_one_row_per_tensor_coloured_by_answer(module):
    fig = draw_state_map(module, title="state")
    cells = {p.get_gid(): p for ax in fig.axes for p in ax.patches if (p.get_gid() or "").startswith("cell-")}
    entries = state_map(module)
    assert len(cells) == 6 * len(entries)
    for row, entry in enumerate(entries):
        yes, no = cells[f"cell-{row}-in_state_dict"], cells[f"cell-{row}-requires_grad"]
        saved_colour = to_rgba(yes.get_facecolor())
        assert (saved_colour == to_rgba("#d9ead3")) == entry.in_state_dict
        assert (to_rgba(no.get_facecolor()) == to_rgba("#d9ead3")) == entry.requires_grad
    assert fig._repr_png_().startswith(b"\x89PNG")

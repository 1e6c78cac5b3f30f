"""autograd_figures.ownership: the state map must tell the truth about what each mechanism sees."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
import torch  # noqa: E402
from torch import nn  # noqa: E402

from autograd_figures import KINDS, draw_state_map, state_kind, state_map  # noqa: E402


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


def _boxes(fig, prefix: str) -> dict:
    return {p.get_gid().removeprefix(prefix): p.get_bbox() for ax in fig.axes for p in ax.patches
            if (p.get_gid() or "").startswith(prefix)}


def _inside(inner, outer) -> bool:
    return outer.x0 <= inner.x0 and inner.x1 <= outer.x1 and outer.y0 <= inner.y0 and inner.y1 <= outer.y1


DEPTH = {"held": 0, "moves": 1, "saved": 2, "trained": 3}


@pytest.mark.parametrize("module", [Everything(), tied(), nn.BatchNorm1d(2)], ids=["everything", "tied", "bn"])
@pytest.mark.parametrize("plain_words", [False, True])
def test_each_tensor_sits_in_the_innermost_region_that_reaches_it(module, plain_words):
    fig = draw_state_map(module, title="state", plain_words=plain_words)
    regions, chips = _boxes(fig, "region-"), _boxes(fig, "chip-")
    assert list(regions) == list(DEPTH)
    entries = [e for e in state_map(module) if not e.tied_to]
    assert len(chips) == len(entries)
    for entry in entries:
        label = next(label for label in chips if label.split(" = ")[0] == entry.name)
        depth = sum((entry.moves_with_device, entry.in_state_dict, entry.in_parameters))
        inside = [key for key, box in regions.items() if _inside(chips[label], box)]
        assert inside == [key for key, d in DEPTH.items() if d <= depth], entry.name
    assert fig._repr_png_().startswith(b"\x89PNG")


def test_tied_names_share_one_chip():
    chips = _boxes(draw_state_map(tied()), "chip-")
    assert "0.weight = 2.weight" in chips and "0.bias = 2.bias" in chips and len(chips) == 2


def test_a_tensor_reached_by_an_inner_mechanism_only_is_refused():
    module = Everything()
    module._register_state_dict_hook(lambda mod, sd, prefix, local: sd.update(plain=mod.plain))
    with pytest.raises(ValueError, match="plain: what reaches it is not nested"):
        draw_state_map(module)

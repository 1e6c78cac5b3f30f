"""autograd_figures.layout and autograd_figures.chain: every layout fact the figures show is torch's.

The module computes no layout itself: a chain's ops are real torch calls, slots are read from the
header laid over a storage of ``0, 1, 2, ...``, contiguity is ``is_contiguous()`` and legality of a
``view`` is torch's ``view``. These tests check that those readings, taken from a layout alone,
agree with the real tensors the layouts came from.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from autograd_figures import (
    Layout,
    ViewError,
    apply_chain,
    broadcast_dims,
    overlaps,
    parse_op,
    parse_shape,
    torch_chain,
    view_verdict,
)
from tests.strategies import chains, view_targets

FAST = settings(max_examples=150, deadline=None)


def torch_refusal(tensor: torch.Tensor, shape: tuple[int, ...]) -> str | None:
    """Torch's message when ``tensor.view(shape)`` fails, else None."""
    try:
        tensor.view(shape)
    except RuntimeError as err:
        return str(err)
    return None


# --- properties against torch -------------------------------------------------------------


@FAST
@given(chains())
def test_chain_layout_matches_torch(case):
    shape, ops = case
    layout = apply_chain(shape, ops)
    tensor = torch_chain(shape, ops)
    assert layout == Layout.of(tensor)
    assert layout.shape == tuple(tensor.shape)
    assert layout.stride == tensor.stride()
    assert layout.offset == tensor.storage_offset()
    assert layout.is_contiguous() == tensor.is_contiguous()


@FAST
@given(chains())
def test_slots_are_the_slots_torch_reads(case):
    shape, ops = case
    layout = apply_chain(shape, ops)
    # The start tensor is arange over its own storage, so every value *is* its slot number.
    read = torch_chain(shape, ops).numpy().astype(np.int64)
    slots = layout.slots()
    assert slots.shape == read.shape
    np.testing.assert_array_equal(slots, read)
    assert overlaps(layout) == (len(np.unique(read)) < read.size)
    if read.size:  # an empty slice may move its offset past the storage, as torch does
        assert layout.storage_size() <= math.prod(shape)


@FAST
@given(st.data())
def test_view_verdict_of_a_layout_matches_torch_view_of_its_tensor(data):
    shape, ops = data.draw(chains())
    tensor = torch_chain(shape, ops)
    target = data.draw(view_targets(tensor.numel()))
    verdict = view_verdict(Layout.of(tensor), target)
    try:
        viewed = tensor.view(target)
    except RuntimeError as err:
        assert not verdict.legal, verdict.reason
        assert verdict.stride is None
        assert verdict.reason == str(err)
        with pytest.raises(ViewError):
            apply_chain(shape, [*ops, f"view{tuple(target)}"])
    else:
        assert verdict.legal, verdict.reason
        assert verdict.stride == viewed.stride()
        assert verdict.shape == tuple(viewed.shape)
        assert apply_chain(shape, [*ops, f"view{tuple(target)}"]) == Layout.of(viewed)


@FAST
@given(
    st.lists(
        st.tuples(st.integers(0, 4), st.sampled_from([0, 1, 2, 3, 4, 6, 8, 12])), min_size=1, max_size=4
    ),
    st.data(),
)
def test_view_verdict_matches_torch_for_arbitrary_strides(dims, data):
    # Layouts no chain reaches (gaps, overlaps, odd orders) must be judged like torch too.
    shape, stride = zip(*dims, strict=True)
    tensor = torch.zeros(200).as_strided(shape, stride)
    target = data.draw(view_targets(tensor.numel()))
    verdict = view_verdict(Layout(shape, stride), target)
    try:
        expected = tensor.view(target).stride()
    except RuntimeError:
        expected = None
    assert verdict.legal == (expected is not None), verdict.reason
    assert verdict.stride == expected
    assert Layout(shape, stride).is_contiguous() == tensor.is_contiguous()


# --- examples from the chapter -----------------------------------------------------------


def test_contiguous_layouts_are_the_ones_torch_allocates():
    assert Layout.contiguous((4, 8)) == Layout((4, 8), (8, 1), 0)
    assert Layout.contiguous((2, 0, 3)) == Layout((2, 0, 3), (3, 3, 1), 0)


def test_of_reads_a_tensor():
    t = torch.arange(32.0).view(4, 8)[1:, ::2]
    assert Layout.of(t) == Layout((3, 4), (8, 2), 8)


@pytest.mark.parametrize(
    ("ops", "expected"),
    [
        (["T"], Layout((8, 4), (1, 8), 0)),
        (["transpose(0, 1)"], Layout((8, 4), (1, 8), 0)),
        (["[:, ::2]"], Layout((4, 4), (8, 2), 0)),
        (["[1:3]"], Layout((2, 8), (8, 1), 8)),
        (["[0]"], Layout((8,), (1,), 0)),
        (["[-1, 2:]"], Layout((6,), (1,), 26)),
        (["unsqueeze(0)", "expand(3, 4, 8)"], Layout((3, 4, 8), (0, 8, 1), 0)),
        (["[:, None]", "expand(-1, 5, -1)"], Layout((4, 5, 8), (8, 0, 1), 0)),
        (["permute(1, 0)", "[::3]"], Layout((3, 4), (3, 8), 0)),
        (["t.T", ".view(2, 4, 4)"], Layout((2, 4, 4), (4, 1, 8), 0)),
    ],
)
def test_example_chains_on_4_by_8(ops, expected):
    assert apply_chain((4, 8), ops) == expected


def test_slices_clamp_like_python_and_refuse_negative_steps_with_torchs_message():
    base = Layout.contiguous((4, 8))
    assert apply_chain((4, 8), ["[-10:100]"]) == base
    empty = apply_chain((4, 8), ["[:, 6:2]"])
    assert empty.shape == (4, 0)
    assert empty.offset == 6  # torch moves the offset even for an empty slice
    with pytest.raises(ValueError, match="step must be greater than zero"):
        apply_chain((4, 8), ["[:, ::-1]"])


def test_contiguity_is_torchs():
    assert Layout((4, 1, 8), (8, 999, 1)).is_contiguous()  # size-1 dims are ignored
    assert Layout((0, 3), (1, 7)).is_contiguous()  # empty tensors are contiguous
    assert not Layout((8, 4), (1, 8)).is_contiguous()
    assert Layout((2, 8), (8, 1), 8).is_contiguous()  # the offset does not matter


def test_expanded_layout_overlaps_and_reports_broadcast_dims():
    expanded = apply_chain((4, 8), ["[0]", "expand(3, 8)"])
    assert broadcast_dims(expanded) == (0,)
    assert overlaps(expanded)
    assert not overlaps(Layout.contiguous((4, 8)))
    assert broadcast_dims(Layout((1, 4), (0, 1))) == ()
    np.testing.assert_array_equal(expanded.slots()[:, 2], [2, 2, 2])


def test_slots_of_a_slice_and_of_an_empty_view():
    layout = Layout((2, 3), (8, 2), 5)
    np.testing.assert_array_equal(layout.slots(), [[5, 7, 9], [13, 15, 17]])
    assert layout.storage_size() == 18
    empty = Layout((4, 0), (8, 1), 8)
    assert empty.slots().shape == (4, 0)
    assert empty.storage_size() == 8


# --- view legality -------------------------------------------------------------------------


def test_view_of_column_slice_splitting_last_dim_is_legal():
    t = torch.arange(32.0).view(4, 8)
    verdict = view_verdict(Layout.of(t[:, :4]), (4, 2, 2))
    assert verdict.legal
    assert verdict.stride == t[:, :4].view(4, 2, 2).stride() == (8, 2, 1)
    assert "stride (8, 2, 1)" in verdict.reason and "nothing copied" in verdict.reason


def test_view_of_transpose_splitting_a_dim_is_legal():
    t = torch.arange(32.0).view(4, 8)
    verdict = view_verdict(t.T, (2, 4, 4))
    assert verdict.legal
    assert verdict.stride == t.T.view(2, 4, 4).stride()


def test_view_of_transpose_merging_dims_is_illegal_with_torchs_message():
    t = torch.arange(16.0).view(4, 4).T
    verdict = view_verdict(Layout.of(t), (16,))
    assert not verdict.legal
    assert verdict.stride is None
    assert verdict.reason == torch_refusal(t, (16,))
    assert "reshape" in verdict.reason
    with pytest.raises(ViewError, match="not compatible"):
        apply_chain((4, 4), ["T", "view(16)"])


def test_view_infers_minus_one_and_refuses_wrong_sizes():
    base = torch.arange(32.0).view(4, 8)
    assert apply_chain((4, 8), ["view(2, -1)"]) == Layout((2, 16), (16, 1), 0)
    assert apply_chain((4, 8), ["view((32,))"]) == Layout((32,), (1,), 0)
    assert view_verdict(base, (2, -1)).shape == (2, 16)
    verdict = view_verdict(base, (5, 7))
    assert not verdict.legal
    assert verdict.reason == torch_refusal(base, (5, 7))
    assert not view_verdict(base, (-1, -1)).legal


def test_views_of_empty_and_0d_tensors():
    empty = torch.empty(0, 4)
    assert view_verdict(empty, (2, 0, 3)).stride == empty.view(2, 0, 3).stride()
    assert not view_verdict(Layout.of(empty), (0, -1)).legal  # -1 would be ambiguous
    scalar = view_verdict(Layout((), (), 3), (1, 1))
    assert scalar.legal and scalar.stride == (1, 1) and "offset 3" in scalar.reason


def test_size_one_dims_never_block_a_view():
    layout = Layout((4, 1, 2), (1, 100, 4))  # non-contiguous, with a stray size-1 dim
    assert view_verdict(layout, (4, 2)).legal
    assert view_verdict(layout, (4, 1, 1, 2)).legal
    assert not view_verdict(layout, (8,)).legal
    # A size-1 dim with any stride inside a contiguous block does not split the block.
    assert view_verdict(Layout((2, 1, 2), (2, 100, 1)), (4,)).stride == (1,)


# --- the chain language ----------------------------------------------------------------------


def test_parse_op_reads_python_spellings():
    assert parse_op("t.T").kind == "T"
    index = parse_op("[..., 1:-1:2, 0, None]")
    assert index.kind == "index"
    assert index.args == (Ellipsis, slice(1, -1, 2), 0, None)
    assert index.code == "[..., 1:-1:2, 0, None]"
    assert parse_op(".view((2, -1))").args == (2, -1)
    assert parse_op("permute(2, 0, 1)").code == ".permute(2, 0, 1)"


@pytest.mark.parametrize(
    "text",
    ["", "transpose(0)", "foo(1)", "view(2, x)", "__import__('os')", "[1.5]", "view(n=2)", "[:", "T()"],
)
def test_parse_op_rejects_bad_text(text):
    with pytest.raises(ValueError):
        parse_op(text)


def test_ops_that_do_not_fit_raise_value_error_with_torchs_message():
    with pytest.raises(ValueError, match="out of range"):
        apply_chain((4, 8), ["transpose(0, 2)"])
    with pytest.raises(ValueError, match="out of bounds"):
        apply_chain((4, 8), ["[4]"])
    with pytest.raises(ValueError, match="2-D"):
        apply_chain((2, 3, 4), ["T"])
    with pytest.raises(ValueError, match="must match the existing size"):
        apply_chain((4, 8), ["expand(4, 9)"])
    with pytest.raises(ValueError, match="too many"):
        apply_chain((4,), ["[0, 0]"])


def test_parse_shape():
    assert parse_shape("4, 8") == (4, 8)
    assert parse_shape("(2, -1)") == (2, -1)
    assert parse_shape("[16]") == (16,)
    assert parse_shape("32") == (32,)
    with pytest.raises(ValueError):
        parse_shape("4 x 8")


# Machado, Oliveira and Fernandes (2009), severity 1: dichromat vision in linear sRGB.
CVD_SIMULATIONS = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.01182, 0.04294, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.3039)),
}
# OKLab distance of about two just-noticeable differences.
DISTINCT = 0.04


def _oklab(rgb: tuple[float, float, float], matrix) -> tuple[float, float, float]:
    linear = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in rgb]
    seen = [min(max(sum(m * v for m, v in zip(row, linear, strict=True)), 0.0), 1.0) for row in matrix]
    lms = (
        0.4122214708 * seen[0] + 0.5363325363 * seen[1] + 0.0514459929 * seen[2],
        0.2119034982 * seen[0] + 0.6806995451 * seen[1] + 0.1073969566 * seen[2],
        0.0883024619 * seen[0] + 0.2817188376 * seen[1] + 0.6299787005 * seen[2],
    )
    l_, m_, s_ = (v ** (1 / 3) for v in lms)
    return (
        0.2104542553 * l_ + 0.7936177850 * m_ - 0.0040720468 * s_,
        1.9779984951 * l_ - 2.4285922050 * m_ + 0.4505937099 * s_,
        0.0259040371 * l_ + 0.7827717662 * m_ - 0.8086757660 * s_,
    )


def test_the_slot_palette_never_repeats_within_what_a_picture_shows():
    from autograd_figures.layout import SLOT_COLOR_COUNT, SLOT_COLORS, slot_color

    assert len(set(SLOT_COLORS)) == SLOT_COLOR_COUNT == 128
    assert len({slot_color(k) for k in range(SLOT_COLOR_COUNT)}) == SLOT_COLOR_COUNT


@pytest.mark.parametrize("vision", sorted(CVD_SIMULATIONS))
def test_nearby_slots_stay_distinct_under_colour_vision_deficiencies(vision):
    from autograd_figures.layout import SLOT_COLOR_COUNT, slot_color

    seen = [_oklab(slot_color(k), CVD_SIMULATIONS[vision]) for k in range(SLOT_COLOR_COUNT)]
    closest = min(
        math.dist(seen[k], seen[j]) for k in range(SLOT_COLOR_COUNT) for j in range(k + 1, min(k + 4, SLOT_COLOR_COUNT))
    )
    assert closest > DISTINCT, f"two slots at most 3 apart look alike under {vision} ({closest:.3f})"


def test_slot_numbers_reach_wcag_aa_contrast_on_every_slot_colour():
    from autograd_figures.layout import SLOT_COLOR_COUNT, contrast_ratio, slot_color, slot_ink

    inks = {"black": (0.0, 0.0, 0.0), "white": (1.0, 1.0, 1.0)}
    ratios = [contrast_ratio(slot_color(k), inks[slot_ink(slot_color(k))]) for k in range(SLOT_COLOR_COUNT)]
    assert min(ratios) >= 4.5

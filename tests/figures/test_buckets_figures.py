"""autograd_figures.buckets: bucket layouts, the backward/all-reduce timeline and the Beginner picture."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from autograd_figures.buckets import (  # noqa: E402
    BucketSlot,
    Reduction,
    bucket_slots,
    draw_bucket_layouts,
    draw_overlap_timeline,
    draw_shared_sheets,
    reductions_before_backward_ends,
)

FIRST = [[("w0", 2048), ("b0", 128), ("w1", 4096), ("b1", 16)]]
REBUILT = [[("b1", 16), ("w1", 4096)], [("b0", 128), ("w0", 2048)]]


def _patches(fig):
    return {patch.get_gid(): patch for ax in fig.axes for patch in ax.patches if patch.get_gid()}


def _lines(fig):
    return {line.get_gid(): line for ax in fig.axes for line in ax.get_lines() if line.get_gid()}


def test_slots_lie_end_to_end_in_bucket_order():
    assert bucket_slots(REBUILT) == [
        [BucketSlot("b1", 0, 16), BucketSlot("w1", 16, 4096)],
        [BucketSlot("b0", 0, 128), BucketSlot("w0", 128, 2048)],
    ]


@pytest.mark.parametrize("bad", [[[]], [[("w", -1)]], [[("w", 4)], [("w", 4)]]])
def test_an_empty_bucket_a_negative_size_or_a_gradient_in_two_places_is_refused(bad):
    with pytest.raises(ValueError):
        bucket_slots(bad)


def test_each_gradient_is_drawn_at_its_offset_with_its_width_and_keeps_its_colour_across_layouts():
    fig = draw_bucket_layouts({"first": FIRST, "rebuilt": REBUILT}, limits={"rebuilt": [100, 100]})
    patches = _patches(fig)
    w1_first, w1_rebuilt = patches["slot-first-0-w1"], patches["slot-rebuilt-0-w1"]
    assert (w1_first.get_x(), w1_first.get_width()) == (2176, 4096)
    assert (w1_rebuilt.get_x(), w1_rebuilt.get_width()) == (16, 4096)
    assert w1_first.get_facecolor() == w1_rebuilt.get_facecolor()
    assert patches["slot-rebuilt-1-w0"].get_facecolor() != w1_rebuilt.get_facecolor()
    lines = _lines(fig)
    assert list(lines["limit-rebuilt-1"].get_xdata()) == [100, 100]
    assert not any(gid.startswith("limit-first") for gid in lines)  # no limit given, none drawn
    assert fig._repr_png_().startswith(b"\x89PNG")


def test_limits_must_match_the_buckets_and_something_must_be_drawn():
    with pytest.raises(ValueError):
        draw_bucket_layouts({"rebuilt": REBUILT}, limits={"rebuilt": [100]})
    with pytest.raises(ValueError):
        draw_bucket_layouts({})


def test_a_reduction_overlaps_backward_iff_it_starts_before_the_last_gradient():
    ready = [("b1", 0.001), ("w1", 0.002), ("b0", 0.010), ("w0", 0.012)]
    reductions = [Reduction(0, 0.003, 0.004), Reduction(1, 0.012, 0.013)]
    assert reductions_before_backward_ends(ready, reductions) == [True, False]
    with pytest.raises(ValueError):
        reductions_before_backward_ends([], reductions)


def test_the_timeline_puts_each_gradient_and_each_reduction_at_its_time_in_milliseconds():
    ready = [("w0", 0.012), ("b1", 0.001)]
    fig = draw_overlap_timeline(ready, [Reduction(0, 0.003, 0.005)], title="one pass")
    lines, patches = _lines(fig), _patches(fig)
    assert list(lines["ready-b1"].get_xdata()) == pytest.approx([1.0])
    assert list(lines["ready-w0"].get_xdata()) == pytest.approx([12.0])
    bar = patches["reduce-0"]
    assert (bar.get_x(), bar.get_width()) == pytest.approx((3.0, 2.0))
    assert fig.axes[0].get_title(loc="left") == "one pass"


def test_the_timeline_refuses_no_gradients_or_a_reduction_that_ends_before_it_starts():
    with pytest.raises(ValueError):
        draw_overlap_timeline([], [])
    with pytest.raises(ValueError):
        draw_overlap_timeline([("w", 0.001)], [Reduction(0, 0.003, 0.002)])


def test_the_beginner_picture_has_two_sheets_one_call_and_one_correction():
    fig = draw_shared_sheets(("a", "b"))
    gids = set(_patches(fig))
    assert {"sheet-branch 0", "sheet-branch 1", "call", "correction"} <= gids
    texts = [text.get_text() for text in fig.axes[0].texts]
    assert sum("account: a" == text for text in texts) == 2  # the same accounts on both sheets
    with pytest.raises(ValueError):
        draw_shared_sheets(())

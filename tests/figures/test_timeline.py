"""autograd_figures.timeline: the record is what torch did, and the picture shows that record."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
import torch  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from autograd_figures import draw_erasure_tally, draw_timeline, record_versions  # noqa: E402

VIEW_WRITE = [
    "x = torch.randn(4, requires_grad=True)",
    "a = x * 1",
    "tail = a[2:]",
    "y = (a ** 2).sum()",
    "with torch.no_grad(): tail.add_(1)",
    "y.backward()",
]


def _gids(fig: Figure, prefix: str) -> set[str]:
    return {p.get_gid() for ax in fig.axes for p in ax.patches if (p.get_gid() or "").startswith(prefix)}


def test_versions_are_read_from_the_tensors():
    timeline = record_versions(["t = torch.zeros(3)", "t.add_(1)", "t[0] = 2.0", "t *= 3"])
    assert [step.versions["t"] for step in timeline.steps] == [0, 1, 2, 3]
    assert [step.phase for step in timeline.steps] == ["forward", "write", "write", "write"]


def test_a_view_and_its_base_tick_together():
    timeline = record_versions(VIEW_WRITE)
    write = timeline.steps[4]
    assert write.phase == "write"
    assert write.versions["a"] == write.versions["tail"] == 1
    assert write.versions["x"] == 0


def test_saves_name_the_saved_tensor_and_its_version():
    timeline = record_versions(["x = torch.randn(3, requires_grad=True)", "a = x * 1", "h = a.exp()",
                                "y = (a ** 2).sum()"])
    assert [(s.name, s.node, s.version) for s in timeline.saves] == [("h", "ExpBackward0", 0),
                                                                       ("a", "PowBackward0", 0)]


def test_a_save_after_a_write_records_the_later_version():
    timeline = record_versions(["x = torch.randn(3, requires_grad=True)", "a = x * 1",
                                "with torch.no_grad(): a.add_(1)", "y = a.sin()"])
    assert [(s.name, s.version) for s in timeline.saves] == [("a", 1)]
    assert timeline.stale(3) == []


@pytest.mark.parametrize(("write", "refused"), [("a.mul_(2)", True), ("y.mul_(2)", False)])
def test_stale_saves_agree_with_what_backward_does(write, refused):
    timeline = record_versions(["x = torch.randn(3, requires_grad=True)", "a = x * 1", "y = a ** 2",
                                f"with torch.no_grad(): {write}", "y.sum().backward()"])
    last = timeline.steps[-1]
    assert last.phase == "backward"
    assert (last.error is not None and "modified by an inplace operation" in last.error) == refused
    assert bool(timeline.stale(len(timeline.steps) - 1)) == refused


def test_the_namespace_is_used_and_updated():
    namespace = {"w": torch.ones(2, requires_grad=True)}
    timeline = record_versions(["v = w * 3", "v.add_(1)"], namespace)
    assert torch.equal(namespace["v"], torch.full((2,), 4.0))
    assert timeline.names == ["w", "v"]


def test_figure_highlights_writes_saves_and_the_mismatch():
    timeline = record_versions(VIEW_WRITE)
    fig = draw_timeline(timeline, title="view write")
    assert isinstance(fig, Figure)
    assert _gids(fig, "write-") == {"write-4-a", "write-4-tail"}
    assert _gids(fig, "stale-") == {"stale-5-a"}
    texts = [t.get_text() for ax in fig.axes for t in ax.texts]
    assert "v0 saved" in texts
    assert any("is at version 1; expected version 0" in text for text in texts)
    assert fig._repr_png_().startswith(b"\x89PNG")


def test_figure_without_errors_or_writes_has_no_highlights():
    fig = draw_timeline(record_versions(["x = torch.ones(2, requires_grad=True)", "y = (x * 2).sum()",
                                         "y.backward()"]))
    assert _gids(fig, "write-") == set() and _gids(fig, "stale-") == set()
    assert {gid.rsplit("-", 1)[1] for gid in _gids(fig, "phase-")} == {"forward", "backward"}


ERASURE = [
    "x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)",
    "a = x * 2",
    "y = (a ** 2).sum()",
    "with torch.no_grad(): a[1] = 9.0",
    "y.backward()",
]


def _texts(fig: Figure) -> dict[str, str]:
    return {t.get_gid(): t.get_text() for ax in fig.axes for t in ax.texts if t.get_gid()}


def test_values_are_recorded_for_small_tensors_only():
    timeline = record_versions(["s = torch.arange(3.)", "big = torch.zeros(9)", "s.mul_(2)"])
    assert timeline.steps[0].values == {"s": (0.0, 1.0, 2.0)}
    assert "big" not in timeline.steps[1].values
    assert timeline.steps[2].values["s"] == (0.0, 2.0, 4.0)


def test_erasure_picture_marks_the_rewritten_number_the_tally_and_the_refusal():
    timeline = record_versions(ERASURE)
    fig = draw_erasure_tally(timeline, "a", ["x", "double", "square", "erase", "audit"], title="erasure",
                             entries={"PowBackward0": "squaring"})
    assert _gids(fig, "erased-") == {"erased-3-1"}  # only the number the write changed
    texts = _texts(fig)
    assert {gid for gid in texts if gid.startswith("tally-")} == {"tally-1-0", "tally-2-0", "tally-3-1", "tally-4-1"}
    assert "audit-4-refused" in texts
    all_texts = [t.get_text() for ax in fig.axes for t in ax.texts]
    assert "squaring noted tally 0" in all_texts


def test_erasure_picture_accepts_when_backward_does():
    lines = [*ERASURE[:3], "with torch.no_grad(): x[1] = 9.0", "y.backward()"]  # x is not what pow saved
    fig = draw_erasure_tally(record_versions(lines), "a", ["x", "double", "square", "erase x", "audit"],
                             title="accepted")
    assert "audit-4-ok" in _texts(fig)
    assert _gids(fig, "erased-") == set()


def test_erasure_picture_needs_one_caption_per_step():
    with pytest.raises(ValueError, match="captions"):
        draw_erasure_tally(record_versions(ERASURE), "a", ["too few"], title="t")

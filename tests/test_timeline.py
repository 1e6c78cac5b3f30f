"""stridelab.timeline: the record is what torch did, and the picture shows that record."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
import torch  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from stridelab import draw_timeline, record_versions  # noqa: E402

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

"""autograd_figures.figures: the picture must tell the truth about which slot each element reads."""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402
from matplotlib.colors import to_rgba  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from autograd_figures import Layout, draw_layout  # noqa: E402

BASE = torch.arange(32.0).view(4, 8)


def _patches(fig: Figure, prefix: str) -> dict[str, tuple[float, ...]]:
    return {
        p.get_gid(): to_rgba(p.get_facecolor())
        for ax in fig.axes
        for p in ax.patches
        if (p.get_gid() or "").startswith(prefix)
    }


def _texts(fig: Figure) -> list[str]:
    return [t.get_text() for ax in fig.axes for t in ax.texts]


@pytest.mark.parametrize(
    "tensor",
    [
        BASE,
        BASE.T,
        BASE[:, ::2],
        BASE[1:3],
        BASE[0].expand(3, 8),
        torch.arange(24.0).view(2, 3, 4).permute(2, 0, 1),
    ],
    ids=["plain", "transpose", "step", "slice", "expand", "3d-permute"],
)
def test_cells_have_the_colour_of_the_slot_they_read(tensor):
    fig = draw_layout(tensor)
    assert isinstance(fig, Figure)
    slots = _patches(fig, "slot-")
    cells = _patches(fig, "cell-")
    # Every tensor here reads a storage made by torch.arange: each value is the slot it reads.
    read = tensor.numpy().astype(np.int64)
    assert len(cells) == tensor.numel()
    for index in np.ndindex(*tensor.shape):
        gid = "cell-" + "-".join(map(str, index))
        assert cells[gid] == slots[f"slot-{read[index]}"], gid
    # Unread slots are drawn differently from every read slot.
    unread = set(range(len(slots))) - set(read.ravel().tolist())
    for k in unread:
        assert slots[f"slot-{k}"] not in set(cells.values())


def test_storage_strip_is_the_whole_storage():
    assert len(_patches(draw_layout(BASE[1:3, :2]), "slot-")) == 32  # reads 8, 9, 16, 17 of 32
    assert len(_patches(draw_layout(BASE[1:, 8:]), "slot-")) == 32  # reads nothing
    assert len(_patches(draw_layout(BASE), "slot-")) == 32
    assert len(_patches(draw_layout(torch.arange(6.0)[2:4]), "slot-")) == 6


def test_expanded_tensor_mentions_broadcast_and_overlap():
    texts = " | ".join(_texts(draw_layout(BASE[0].unsqueeze(0).expand(3, 8))))
    assert "stride 0 along dim 0" in texts
    assert "broadcast" in texts
    assert "overlap" in texts
    assert "×3" in texts
    plain = " | ".join(_texts(draw_layout(BASE)))
    assert "broadcast" not in plain
    assert "overlap" not in plain


def test_slice_shows_its_offset_and_summary():
    fig = draw_layout(BASE[1:3], title="t[1:3]")
    texts = _texts(fig)
    assert "offset = 8" in texts
    assert "shape=(2, 8) stride=(8, 1) offset=8 contiguous=True" in texts
    assert "t[1:3]" in texts
    assert "contiguous=False" in " ".join(_texts(draw_layout(BASE.T)))


@pytest.mark.parametrize(
    "source",
    [torch.arange(5.0), BASE, torch.arange(24.0).view(2, 3, 4), Layout((3,), (3,), 2), BASE[:, 8:]],
    ids=["1d", "2d", "3d", "layout", "empty"],
)
def test_one_two_and_three_dims_render_to_a_non_blank_png(source):
    buffer = io.BytesIO()
    draw_layout(source).savefig(buffer, format="png", dpi=60)
    assert buffer.getvalue().startswith(b"\x89PNG")
    buffer.seek(0)
    pixels = plt.imread(buffer, format="png")
    assert pixels.shape[0] > 50 and pixels.shape[1] > 50
    assert len(np.unique(pixels.reshape(-1, pixels.shape[-1]), axis=0)) > 8


@pytest.mark.parametrize("tensor", [torch.tensor(1.0), torch.zeros(2, 2, 2, 2)], ids=["0d", "4d"])
def test_unsupported_dims_raise(tensor):
    with pytest.raises(ValueError, match="1-D, 2-D or 3-D"):
        draw_layout(tensor)


def test_too_many_slots_raise():
    with pytest.raises(ValueError, match="max_slots"):
        draw_layout(torch.arange(100.0))
    assert isinstance(draw_layout(torch.arange(100.0), max_slots=100), Figure)

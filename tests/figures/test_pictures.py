"""autograd_figures.pictures: the Beginner pictures show the slots and links torch reports."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
import torch  # noqa: E402
from matplotlib.colors import to_rgba  # noqa: E402

from autograd_figures.pictures import (  # noqa: E402
    _MARKED_FACE,
    _OWN_FACE,
    draw_page_readings,
    draw_pages_and_ledger,
    page_of,
    slots_read,
)
from autograd_figures.provenance import probe_sharing  # noqa: E402


def faces(fig) -> dict[str, tuple[float, ...]]:
    return {p.get_gid(): to_rgba(p.get_facecolor()) for ax in fig.axes for p in ax.patches if p.get_gid()}


@pytest.mark.parametrize(
    "derive",
    [lambda t: t, lambda t: t.T, lambda t: t[1:, ::2], lambda t: t[2], lambda t: t.unsqueeze(0).expand(2, 3, 4),
     lambda t: t.diagonal(), lambda t: t.unfold(1, 2, 1)],
)
def test_slots_read_addresses_the_same_numbers_as_torch(derive):
    base = torch.arange(12.0).view(3, 4)
    tensor = derive(base)
    assert torch.equal(page_of(tensor)[slots_read(tensor)], tensor)


def test_page_of_is_the_whole_storage_even_from_an_offset_view():
    base = torch.arange(6.0)
    assert torch.equal(page_of(base[4:]), base)
    assert page_of(base[4:]).untyped_storage().data_ptr() != base.untyped_storage().data_ptr()


def test_a_write_through_one_reading_is_marked_in_every_reading_and_on_the_page():
    t = torch.arange(16.0).view(4, 4)
    b = t.view(2, 8)
    b[0][5] = 3.14
    fig = draw_page_readings({"t": t, "b": b, "t read by columns": t.T}, marked=[5])
    found = faces(fig)
    marked = {gid for gid, face in found.items() if face == to_rgba(_MARKED_FACE)}
    assert marked == {"page-5", "reading-0-1-1", "reading-1-0-5", "reading-2-1-1"}
    assert found["reading-0-0-0"] == to_rgba(_OWN_FACE)
    texts = [t.get_text() for ax in fig.axes for t in ax.texts]
    assert texts.count("3.14") == 4  # the page and the three readings


def test_readings_of_different_pages_are_refused():
    with pytest.raises(ValueError, match="one page"):
        draw_page_readings({"a": torch.zeros(3), "copy": torch.zeros(3).clone()})
    with pytest.raises(ValueError, match="at most 2"):
        draw_page_readings({"cube": torch.zeros(2, 2, 2)})
    with pytest.raises(ValueError, match="at least one"):
        draw_page_readings({})


def leaf() -> torch.Tensor:
    return torch.arange(4.0, requires_grad=True)


def test_the_ledger_picture_follows_the_measured_links():
    rows = [probe_sharing(leaf, lambda x: x.detach(), "detach()"),
            probe_sharing(leaf, lambda x: x.clone(), "clone()"),
            probe_sharing(leaf, lambda x: x.detach().clone(), "detach().clone()")]
    gids = set(faces(draw_pages_and_ledger(leaf(), rows)))
    assert {"page-0-shared", "same-page-0", "page-1-own", "ledger-1", "page-2-own"} <= gids
    assert not {"ledger-0", "ledger-2", "same-page-1", "same-page-2", "page-0-own"} & gids


def test_the_pictures_render_as_png():
    t = torch.zeros(2, 2)
    assert draw_page_readings({"t": t}, title="a page")._repr_png_().startswith(b"\x89PNG")
    row = probe_sharing(leaf, lambda x: x.clone(), "clone()")
    assert draw_pages_and_ledger(leaf(), [row], title="x")._repr_png_().startswith(b"\x89PNG")
    with pytest.raises(ValueError, match="at least one"):
        draw_pages_and_ledger(leaf(), [])

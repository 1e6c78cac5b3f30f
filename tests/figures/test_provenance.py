"""autograd_figures.provenance: the measured links are torch's, and the picture shows exactly them."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
import torch  # noqa: E402
from matplotlib.colors import to_rgba  # noqa: E402

from autograd_figures import Sharing, draw_sharing, probe_sharing  # noqa: E402
from autograd_figures.provenance import _OWN_FACE, _SHARED_FACE, LINKS, sharing_table  # noqa: E402


def leaf() -> torch.Tensor:
    return torch.arange(6.0).requires_grad_()


@pytest.mark.parametrize(
    ("label", "derive", "storage", "version_counter", "graph"),
    [
        ("x.detach()", lambda x: x.detach(), True, True, False),
        ("x.clone()", lambda x: x.clone(), False, False, True),
        ("x.detach().clone()", lambda x: x.detach().clone(), False, False, False),
        ("x.data", lambda x: x.data, True, False, False),
        ("x[1:]", lambda x: x[1:], True, True, True),
    ],
)
def test_probe_measures_storage_version_counter_and_graph(label, derive, storage, version_counter, graph):
    found = probe_sharing(leaf, derive, label)
    assert found.links() == (storage, version_counter, graph)
    assert found.label == label


def test_probe_names_the_grad_fn_and_leaves_values_alone():
    made = []

    def source():
        made.append(leaf())
        return made[-1]

    assert probe_sharing(source, lambda x: x.clone(), "clone").grad_fn == "CloneBackward0"
    assert probe_sharing(source, lambda x: x.detach(), "detach").grad_fn is None
    assert all(torch.equal(x.detach(), torch.arange(6.0)) for x in made)


def test_a_source_that_does_not_require_grad_has_no_graph_link():
    assert probe_sharing(lambda: torch.ones(3), lambda x: x.clone(), "clone").graph is False


def test_each_cell_is_coloured_by_its_measured_link():
    rows = [probe_sharing(leaf, lambda x: x.detach(), "x.detach()"),
            probe_sharing(leaf, lambda x: x.clone(), "x.clone()")]
    fig = draw_sharing(rows, title="links")
    patches = {p.get_gid(): to_rgba(p.get_facecolor()) for ax in fig.axes for p in ax.patches}
    for r, row in enumerate(rows):
        for k, shared in enumerate(row.links()):
            assert patches[f"link-{r}-{k}"] == to_rgba(_SHARED_FACE if shared else _OWN_FACE)
    assert len(patches) == len(rows) * len(LINKS)
    texts = [t.get_text() for ax in fig.axes for t in ax.texts]
    assert "x.detach()" in texts and "CloneBackward0" in texts and "cut" in texts and "linked" in texts


def test_the_figure_renders_as_png():
    png = draw_sharing([Sharing("t", True, False, False, None)])._repr_png_()
    assert png.startswith(b"\x89PNG")


def test_no_rows_is_refused():
    with pytest.raises(ValueError, match="at least one"):
        draw_sharing([])


def test_the_table_states_each_measured_link_in_words():
    rows = [probe_sharing(leaf, lambda x: x.detach(), "x.detach()"),
            probe_sharing(leaf, lambda x: x.clone(), "x.clone()"),
            probe_sharing(leaf, lambda x: x.data, "x.data")]
    header, *lines = sharing_table(rows).splitlines()
    assert header.split() == ["derived", "storage", "version", "counter", "autograd", "graph", "grad_fn"]
    assert [line.split() for line in lines] == [
        ["x.detach()", "shared", "shared", "cut", "None"],
        ["x.clone()", "own", "own", "linked", "CloneBackward0"],
        ["x.data", "shared", "own", "cut", "None"],
    ]
    assert len({line.index(line.split()[1]) for line in lines}) == 1  # columns aligned
    with pytest.raises(ValueError, match="at least one"):
        sharing_table([])

"""A chapter glues values as myst-nb does: the same display data, under the same name, so the
book's ``{glue}`` roles read them alike, without the book's build tools in the kernel."""

from __future__ import annotations

import IPython.display
import pytest
import torch

from autograd_figures import glue


@pytest.mark.parametrize("value", [3, 0.25, "a (4, 1) stride", torch.arange(3), [1, (2, 3)]])
@pytest.mark.parametrize("display", [True, False])
def test_a_glued_value_is_displayed_as_myst_nb_displays_it(monkeypatch, value, display: bool) -> None:
    from myst_nb.ext import glue as myst_glue

    shown: dict[str, list] = {"ours": [], "theirs": []}
    monkeypatch.setattr(IPython.display, "display", lambda *a, **k: shown["ours"].append((a, k)))
    monkeypatch.setattr(myst_glue, "ipy_display", lambda *a, **k: shown["theirs"].append((a, k)))
    glue("name", value, display)
    myst_glue.glue("name", value, display)
    assert shown["ours"] == shown["theirs"] and len(shown["ours"]) == 1

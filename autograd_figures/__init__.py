"""autograd_figures: the book's figures and widgets of autograd state, each drawn from real tensors.

Figures and widgets of the chapters, each built from real tensors: stride layouts and the
explorer (Chapter 1), version timelines and autograd graphs (Chapter 2), sharing tables (Chapter 3), loss curves
(Chapter 4), module state maps (Chapter 5), cross-rank divergence (Chapter 6), and reduction runs and
mutation matrices (Chapter 7).
It depends only on torch, numpy, matplotlib and ipywidgets. Names load lazily, from the module
that defines them, so ``autograd_figures.state`` (used by the grader's cases) never imports matplotlib."""

from __future__ import annotations

import importlib
from typing import Any

_MODULES: dict[str, tuple[str, ...]] = {
    "chain": ("Op", "apply_chain", "parse_op", "parse_shape", "start_tensor", "torch_chain", "view_chain",
              "view_step"),
    "curves": ("deposits", "draw_balance", "draw_loss_curves"),
    "divergence": ("draw_divergence", "first_divergent_step"),
    "explorer": ("StrideExplorer", "explore"),
    "figures": ("LayoutFigure", "draw_layout", "slot_color"),
    "glued": ("glue",),
    "graph": ("Node", "Saved", "draw_graph", "graph_nodes"),
    "layout": ("Layout", "ViewError", "ViewVerdict", "broadcast_dims", "overlaps", "slots_read", "view_verdict"),
    "ownership": ("StateEntry", "draw_state_map", "state_map"),
    "page": ("StaticExplorer", "static_explorer"),
    "provenance": ("Sharing", "draw_sharing", "probe_sharing"),
    "reduction": ("draw_mutation_matrix", "draw_reduction_run"),
    "state": ("KINDS", "state_kind"),
    "timeline": ("draw_erasure_tally", "draw_timeline", "record_versions"),
}
_HOME = {name: module for module, names in _MODULES.items() for name in names}

__all__ = sorted(_HOME)


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module 'autograd_figures' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"autograd_figures.{_HOME[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__

"""stridelab: stride-layout maths, figures and an interactive explorer for PyTorch views.

Figures and widgets of the chapters, each built from real tensors: stride layouts and the
explorer (Chapter 1), version timelines and autograd graphs (Chapter 2), sharing tables (Chapter 3), loss curves
(Chapter 4), module state maps (Chapter 5) and cross-rank divergence (Chapter 6).
It depends only on torch, numpy, matplotlib and ipywidgets.
"""

from stridelab.chain import Op, apply_chain, parse_op, parse_shape, torch_chain
from stridelab.curves import deposits, draw_balance, draw_loss_curves
from stridelab.divergence import draw_divergence, first_divergent_step
from stridelab.explorer import StrideExplorer, explore
from stridelab.figures import LayoutFigure, draw_layout, slot_color
from stridelab.graph import Node, Saved, draw_graph, graph_nodes
from stridelab.layout import (
    Layout,
    ViewError,
    ViewVerdict,
    broadcast_dims,
    contiguous_strides,
    explain_view,
    infer_view_shape,
    is_contiguous,
    overlaps,
    storage_indices,
)
from stridelab.ownership import KINDS, StateEntry, draw_state_map, state_kind, state_map
from stridelab.page import StaticExplorer, static_explorer
from stridelab.provenance import Sharing, draw_sharing, probe_sharing
from stridelab.timeline import draw_erasure_tally, draw_timeline, record_versions

__all__ = [
    "KINDS",
    "Layout",
    "LayoutFigure",
    "Node",
    "Op",
    "Saved",
    "StateEntry",
    "StaticExplorer",
    "StrideExplorer",
    "Sharing",
    "ViewError",
    "ViewVerdict",
    "apply_chain",
    "broadcast_dims",
    "contiguous_strides",
    "deposits",
    "draw_balance",
    "draw_divergence",
    "draw_erasure_tally",
    "draw_graph",
    "draw_layout",
    "draw_sharing",
    "draw_loss_curves",
    "draw_state_map",
    "draw_timeline",
    "explain_view",
    "explore",
    "first_divergent_step",
    "graph_nodes",
    "infer_view_shape",
    "is_contiguous",
    "overlaps",
    "parse_op",
    "parse_shape",
    "probe_sharing",
    "record_versions",
    "slot_color",
    "state_kind",
    "state_map",
    "static_explorer",
    "storage_indices",
    "torch_chain",
]

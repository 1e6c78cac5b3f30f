"""stridelab: stride-layout maths, figures and an interactive explorer for PyTorch views.

Companion package of Chapter 1, "Views, strides and storage" (notebooks/views/views.ipynb).
It depends only on torch, numpy, matplotlib and ipywidgets.
"""

from stridelab.chain import Op, apply_chain, parse_op, parse_shape, torch_chain
from stridelab.curves import draw_loss_curves
from stridelab.explorer import StrideExplorer, explore
from stridelab.figures import LayoutFigure, draw_layout, slot_color
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
from stridelab.provenance import Sharing, draw_sharing, probe_sharing

__all__ = [
    "Layout",
    "LayoutFigure",
    "Op",
    "StrideExplorer",
    "Sharing",
    "ViewError",
    "ViewVerdict",
    "apply_chain",
    "broadcast_dims",
    "contiguous_strides",
    "draw_layout",
    "draw_sharing",
    "draw_loss_curves",
    "explain_view",
    "explore",
    "infer_view_shape",
    "is_contiguous",
    "overlaps",
    "parse_op",
    "parse_shape",
    "probe_sharing",
    "slot_color",
    "storage_indices",
    "torch_chain",
]

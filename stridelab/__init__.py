"""stridelab: stride-layout maths, figures and an interactive explorer for PyTorch views.

Companion package of Chapter 1, "Views, strides and storage" (notebooks/views/views.ipynb).
It depends only on torch, numpy, matplotlib and ipywidgets.
"""

from stridelab.chain import Op, apply_chain, parse_op, parse_shape, torch_chain
from stridelab.divergence import draw_divergence, first_divergent_step
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

__all__ = [
    "Layout",
    "LayoutFigure",
    "Op",
    "StrideExplorer",
    "ViewError",
    "ViewVerdict",
    "apply_chain",
    "broadcast_dims",
    "contiguous_strides",
    "draw_divergence",
    "draw_layout",
    "explain_view",
    "explore",
    "first_divergent_step",
    "infer_view_shape",
    "is_contiguous",
    "overlaps",
    "parse_op",
    "parse_shape",
    "slot_color",
    "storage_indices",
    "torch_chain",
]

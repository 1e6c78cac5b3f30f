"""stridelab: stride-layout maths, figures and an interactive explorer for PyTorch views.

Companion package of Chapter 1, "Views, strides and storage" (notebooks/views/views.ipynb).
It depends only on torch, numpy, matplotlib and ipywidgets.
"""

from stridelab.chain import Op, apply_chain, parse_op, parse_shape, torch_chain
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
from stridelab.page import StaticExplorer, static_explorer

__all__ = [
    "Layout",
    "LayoutFigure",
    "Op",
    "StaticExplorer",
    "StrideExplorer",
    "ViewError",
    "ViewVerdict",
    "apply_chain",
    "broadcast_dims",
    "contiguous_strides",
    "draw_layout",
    "explain_view",
    "explore",
    "infer_view_shape",
    "is_contiguous",
    "overlaps",
    "parse_op",
    "parse_shape",
    "slot_color",
    "static_explorer",
    "storage_indices",
    "torch_chain",
]

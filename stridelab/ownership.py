"""Who owns a module's tensors: parameters, buffers (saved or not) and plain tensor attributes.

:func:`state_map` asks a real module, by running it, which of its tensors ``parameters()``
yields, which ``state_dict()`` holds, which a device move (``.to("meta")``) and a dtype cast
(``.to(torch.float64)``) reach. :func:`draw_state_map` draws the answer as a table, one row per
tensor. Nothing is read off the class: the moves are made on deep copies of the module, so the
picture shows what torch does, and the module itself is left untouched.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import torch
from matplotlib.patches import Rectangle
from torch import nn

from stridelab.figures import LayoutFigure

__all__ = ["KINDS", "StateEntry", "draw_state_map", "state_kind", "state_map"]

#: The kinds of tensor state a module can hold, in the order the chapter introduces them.
KINDS = ("parameter", "buffer", "non-persistent buffer", "plain tensor")


def _owner(module: nn.Module, name: str) -> tuple[nn.Module, str]:
    """The submodule that holds a dotted name, and the name's last part."""
    path, _, leaf = name.rpartition(".")
    return (module.get_submodule(path) if path else module), leaf


def state_kind(module: nn.Module, name: str) -> str:
    """How ``module`` holds the attribute ``name`` (dotted names reach into submodules).

    Returns:
        One of :data:`KINDS`; ``"plain value"`` for an attribute that is not a tensor;
        ``"missing"`` when there is no such attribute.

    Defined in Chapter 5, "Parameters, buffers and module ownership" (notebooks/modules/modules.ipynb).
    """
    try:
        owner, leaf = _owner(module, name)
    except AttributeError:
        return "missing"
    if leaf in dict(owner.named_parameters(recurse=False)):
        return "parameter"
    if leaf in dict(owner.named_buffers(recurse=False)):
        # state_dict(keep_vars=True) is the public view of persistence; it does not copy.
        return "buffer" if leaf in owner.state_dict(keep_vars=True) else "non-persistent buffer"
    if leaf not in vars(owner):
        return "missing"
    return "plain tensor" if isinstance(vars(owner)[leaf], torch.Tensor) else "plain value"


@dataclass(frozen=True)
class StateEntry:
    """One tensor a module holds, and which of the module's mechanisms see it.

    Attributes:
        name: Dotted name, as ``named_parameters`` and ``state_dict`` spell it.
        kind: One of :data:`KINDS`.
        dtype: The tensor's dtype, e.g. ``"torch.float32"``.
        requires_grad: Whether the tensor requires grad.
        in_parameters: ``module.parameters()`` yields this tensor under this name (a tied
            tensor is yielded once, under its first name).
        in_state_dict: ``module.state_dict()`` holds an entry of this name.
        moves_with_device: ``module.to("meta")`` moved it to the meta device.
        cast_by_dtype: ``module.to(torch.float64)`` made it float64.
        tied_to: The first name of the same tensor when this name is a second one, else ``""``.
    """

    name: str
    kind: str
    dtype: str
    requires_grad: bool
    in_parameters: bool
    in_state_dict: bool
    moves_with_device: bool
    cast_by_dtype: bool
    tied_to: str = ""


def _tensors(module: nn.Module) -> list[tuple[str, torch.Tensor]]:
    """Every tensor the module or a submodule holds, by dotted name, tied names included."""
    found = []
    for prefix, owner in module.named_modules(remove_duplicate=False):
        dot = prefix + "." if prefix else ""
        held = {**dict(owner.named_parameters(recurse=False)), **dict(owner.named_buffers(recurse=False))}
        held |= {k: v for k, v in vars(owner).items() if isinstance(v, torch.Tensor) and not k.startswith("_")}
        found += [(dot + leaf, tensor) for leaf, tensor in held.items() if tensor is not None]
    return found


def _lookup(module: nn.Module, name: str) -> torch.Tensor:
    owner, leaf = _owner(module, name)
    return getattr(owner, leaf)


def state_map(module: nn.Module) -> list[StateEntry]:
    """Ask a real module which of its tensors each mechanism sees.

    Args:
        module: Any module; it is deep-copied before anything is moved, never changed.

    Returns:
        One entry per tensor name, in the order ``named_modules`` walks the module.

    Defined in Chapter 5, "Parameters, buffers and module ownership" (notebooks/modules/modules.ipynb).
    """
    yielded = {id(p): name for name, p in module.named_parameters()}
    saved = set(module.state_dict(keep_vars=True))
    on_meta = copy.deepcopy(module).to("meta")
    as_double = copy.deepcopy(module).to(torch.float64)
    first: dict[int, str] = {}
    entries = []
    for name, tensor in _tensors(module):
        tied_to = first.setdefault(id(tensor), name)
        entries.append(
            StateEntry(
                name=name,
                kind=state_kind(module, name),
                dtype=str(tensor.dtype),
                requires_grad=tensor.requires_grad,
                in_parameters=yielded.get(id(tensor)) == name,
                in_state_dict=name in saved,
                moves_with_device=_lookup(on_meta, name).device.type == "meta",
                cast_by_dtype=tensor.dtype != torch.float64 and _lookup(as_double, name).dtype == torch.float64,
                tied_to="" if tied_to == name else tied_to,
            )
        )
    return entries


_COLUMNS = (
    ("kind", "kind"),
    ("in_parameters", "parameters()"),
    ("in_state_dict", "state_dict()"),
    ("moves_with_device", '.to("meta")'),
    ("cast_by_dtype", ".to(float64)"),
    ("requires_grad", "requires_grad"),
)
_KIND_COLOURS = {
    "parameter": "#4c72b0",
    "buffer": "#55a868",
    "non-persistent buffer": "#a6d8b0",
    "plain tensor": "#c44e52",
}
_YES, _NO = "#d9ead3", "#f4f4f4"


def draw_state_map(module: nn.Module, *, title: str | None = None) -> LayoutFigure:
    """Draw :func:`state_map` as a table: one row per tensor, one column per mechanism.

    The first column names the kind of state, in its own colour; the others say "yes" (green)
    or "no" (grey) for ``parameters()``, ``state_dict()``, a device move ``.to("meta")``, a
    dtype cast ``.to(torch.float64)`` and ``requires_grad``. A tied tensor's second name says
    which first name ``parameters()`` yields it under.

    Artists carry ``gid`` s for tests: ``"cell-<row>-<column key>"`` for every table cell.

    Args:
        module: The module to inspect (left unchanged).
        title: Optional heading, e.g. the code that built the module.

    Returns:
        A new figure that shows itself as a PNG in Jupyter.

    Defined in Chapter 5, "Parameters, buffers and module ownership" (notebooks/modules/modules.ipynb).
    """
    entries = state_map(module)
    name_width = max([len(e.name) for e in entries] + [8]) * 0.085 + 0.3
    widths = [name_width, 2.0] + [1.35] * (len(_COLUMNS) - 1)
    row_height, head = 0.42, 0.6 if title else 0.1
    height = head + row_height * (len(entries) + 1) + 0.2
    fig = LayoutFigure(figsize=(sum(widths) + 0.2, height))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(-0.1, sum(widths) + 0.1)
    ax.set_ylim(height, 0)
    ax.axis("off")
    if title:
        ax.text(0, 0.3, title, fontsize=11, fontweight="bold", va="center")
    lefts = [sum(widths[:i]) for i in range(len(widths))]
    top = head
    ax.text(lefts[0] + 0.05, top + row_height / 2, "tensor", fontsize=9, fontweight="bold", va="center")
    for (_key, label), left, width in zip(_COLUMNS, lefts[1:], widths[1:], strict=True):
        ax.text(left + width / 2, top + row_height / 2, label, fontsize=8.5, fontweight="bold",
                ha="center", va="center", family="monospace")
    for row, entry in enumerate(entries):
        y = top + row_height * (row + 1)
        ax.text(lefts[0] + 0.05, y + row_height / 2, entry.name, fontsize=9, va="center", family="monospace")
        for (key, _label), left, width in zip(_COLUMNS, lefts[1:], widths[1:], strict=True):
            value = getattr(entry, key)
            if key == "kind":
                face, text, ink = _KIND_COLOURS[value], value, "white" if value != "non-persistent buffer" else "black"
            else:
                face, text, ink = (_YES if value else _NO), ("yes" if value else "no"), "black"
                if key == "in_parameters" and entry.tied_to:
                    face, text = _YES, f"as {entry.tied_to}"
            ax.add_patch(Rectangle((left + 0.03, y + 0.03), width - 0.06, row_height - 0.06, facecolor=face,
                                   edgecolor="white", gid=f"cell-{row}-{key}"))
            ax.text(left + width / 2, y + row_height / 2, text, fontsize=8, ha="center", va="center", color=ink)
    return fig

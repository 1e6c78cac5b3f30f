"""Who owns a module's tensors: parameters, buffers (saved or not) and plain tensor attributes.

How a module holds each tensor is :func:`autograd_figures.state.state_kind`. :func:`state_map` asks a
real module, by running it, which of its tensors ``parameters()`` yields, which ``state_dict()``
holds, which a device move (``.to("meta")``) and a dtype cast (``.to(torch.float64)``) reach.
:func:`draw_state_map` draws the answer as nested regions, since each mechanism reaches a subset
of what the one outside it reaches. Nothing is read off the class: the moves are made on deep
copies of the module, so the picture shows what torch does, and the module itself is left
untouched.

Defined in Chapter 5, "Parameters, buffers and module ownership" (notebooks/modules/modules.ipynb).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import torch
from matplotlib.patches import FancyBboxPatch
from torch import nn

from autograd_figures.figures import LayoutFigure, unit_canvas
from autograd_figures.state import KINDS, owner_of, state_kind

__all__ = ["KINDS", "StateEntry", "draw_state_map", "state_kind", "state_map"]


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
    owner, leaf = owner_of(module, name)
    return getattr(owner, leaf)


def state_map(module: nn.Module) -> list[StateEntry]:
    """Ask a real module which of its tensors each mechanism sees.

    Args:
        module: Any module; it is deep-copied before anything is moved, never changed.

    Returns:
        One entry per tensor name, in the order ``named_modules`` walks the module.
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


# The four mechanisms, outermost first: each reaches a subset of what the one before reaches.
# Labels are (mechanism words, plain words): the plain ones are the Beginner's picture.
_REGIONS = (
    ("held", "held in an attribute: nothing else sees it",
     "loose pages: not carried, not archived"),
    ("moves", '.to() moves it (and casts it if floating point)',
     "carried along when the model moves"),
    ("saved", "state_dict() saves it", "archived in every checkpoint"),
    ("trained", "parameters() yields it: the optimizer writes it",
     "trained: the optimizer rewrites these pages"),
)
_REGION_FACES = ("#f2f2f2", "#dfe9f5", "#c7dcef", "#a9c8e6")
_KIND_COLOURS = {
    "parameter": "#1f4e8c",
    "buffer": "#2e7d32",
    "non-persistent buffer": "#7cb342",
    "plain tensor": "#b71c1c",
}
_WIDTH, _INSET, _TITLE, _CHIP, _GAP, _CHAR = 7.0, 0.2, 0.4, 0.58, 0.12, 0.085


def _depth(entry: StateEntry) -> int:
    """How many of the nested mechanisms reach ``entry`` (0: only the attribute holds it)."""
    reach = (entry.moves_with_device, entry.in_state_dict, entry.in_parameters or bool(entry.tied_to))
    depth = 0
    while depth < len(reach) and reach[depth]:
        depth += 1
    if any(reach[depth:]):
        raise ValueError(f"{entry.name}: what reaches it is not nested ({reach}); the map cannot draw it")
    return depth


def _chips(entries: list[StateEntry]) -> list[tuple[int, str, str, str]]:
    """One chip per tensor: (depth, label, detail, kind); tied names share their tensor's chip."""
    names: dict[str, list[str]] = {}
    for entry in entries:
        names.setdefault(entry.tied_to or entry.name, []).append(entry.name)
    chips = []
    for entry in entries:
        if entry.tied_to:
            continue
        detail = entry.dtype.removeprefix("torch.")
        if entry.kind == "parameter" and not entry.requires_grad:
            detail += ", frozen"
        if entry.moves_with_device and not entry.cast_by_dtype and entry.dtype != "torch.float64":
            detail += ", not cast"
        chips.append((_depth(entry), " = ".join(names[entry.name]), detail, entry.kind))
    return chips


def _chip_width(label: str, detail: str) -> float:
    return max(len(label), len(detail)) * _CHAR + 0.3


def _rows(widths: list[float], room: float) -> list[list[int]]:
    """Indices of chips, wrapped into rows that fit ``room``."""
    rows: list[list[int]] = [[]]
    used = 0.0
    for index, width in enumerate(widths):
        if rows[-1] and used + width > room:
            rows.append([])
            used = 0.0
        rows[-1].append(index)
        used += width + _GAP
    return rows


def draw_state_map(module: nn.Module, *, title: str | None = None, plain_words: bool = False) -> LayoutFigure:
    """Draw :func:`state_map` as nested regions: who reaches each tensor the module holds.

    The mechanisms nest: every tensor ``parameters()`` yields, ``state_dict()`` saves; every
    tensor it saves, ``.to()`` moves; every tensor ``.to()`` moves, the module holds. So the map
    is four regions, one inside the other, and each tensor is a chip in the innermost region
    that reaches it, outlined in the colour of its kind, with its dtype ("not cast": a dtype move
    leaves it as it is). Names of one tied tensor share one chip (``0.weight = 2.weight``).

    Artists carry ``gid`` s for tests: ``"region-<key>"`` (keys ``held``, ``moves``, ``saved``,
    ``trained``) and ``"chip-<label>"``.

    Args:
        module: The module to inspect (left unchanged).
        title: Optional heading, e.g. the code that built the module.
        plain_words: Label the regions in everyday words instead of the mechanisms' names.

    Returns:
        A new figure that shows itself as a PNG in Jupyter.

    Raises:
        ValueError: if some tensor is reached by an inner mechanism but not an outer one
            (a module whose hooks change ``state_dict``), which nested regions cannot show.
    """
    chips = _chips(state_map(module))
    widths = [_chip_width(label, detail) for _, label, detail, _ in chips]
    layout = []  # per region: its rows of chip indices
    for depth in range(len(_REGIONS)):
        room = _WIDTH - 2 * _INSET * (depth + 1)
        mine = [i for i, chip in enumerate(chips) if chip[0] == depth]
        rows = _rows([widths[i] for i in mine], room) if mine else []
        layout.append([[mine[i] for i in row] for row in rows])
    head = 0.5 if title else 0.0
    tops = [head]
    for rows in layout[:-1]:
        tops.append(tops[-1] + _TITLE + len(rows) * (_CHIP + _GAP) + _GAP)
    height = tops[-1] + _TITLE + max(len(layout[-1]), 1) * (_CHIP + _GAP) + _GAP + _INSET * len(_REGIONS)
    fig, ax = unit_canvas(_WIDTH, height, scale=1.0)
    if title:
        ax.text(0.05, 0.25, title, fontsize=12, fontweight="bold", va="center")
    for depth, ((key, words, plain), face) in enumerate(zip(_REGIONS, _REGION_FACES, strict=True)):
        left, top = _INSET * depth, tops[depth]
        ax.add_patch(FancyBboxPatch((left, top), _WIDTH - 2 * left, height - _INSET * depth - top,
                                    boxstyle="round,pad=0,rounding_size=0.12", facecolor=face,
                                    edgecolor="#4d4d4d", linewidth=1, gid=f"region-{key}"))
        ax.text(left + 0.15, top + _TITLE / 2 + 0.04, plain if plain_words else words, fontsize=10.5,
                fontweight="bold", va="center", color="#1a1a1a")
        for row_number, row in enumerate(layout[depth]):
            x, y = left + 0.15, top + _TITLE + row_number * (_CHIP + _GAP)
            for index in row:
                _, label, detail, kind = chips[index]
                ax.add_patch(FancyBboxPatch((x, y), widths[index], _CHIP,
                                            boxstyle="round,pad=0,rounding_size=0.08", facecolor="white",
                                            edgecolor=_KIND_COLOURS[kind], linewidth=2.5, gid=f"chip-{label}"))
                ax.text(x + widths[index] / 2, y + 0.19, label, fontsize=10, family="monospace",
                        ha="center", va="center", color="#1a1a1a")
                ax.text(x + widths[index] / 2, y + 0.41, detail, fontsize=8.5, ha="center", va="center",
                        color="#333333")
                x += widths[index] + _GAP
    return fig

"""The autograd graph, read from the live graph and drawn.

:func:`graph_nodes` walks ``grad_fn.next_functions`` from the given roots and returns the
nodes it meets as plain data: each node named as torch names it (``MulBackward0``,
``CopySlices``, ``AccumulateGrad``), its inputs in ``next_functions`` order, the named tensors
it produced, and optionally what it saved (its ``_saved_*`` attributes, read the way backward
reads them, so a saved tensor that was overwritten in place shows up as stale). An input slot
that holds ``None`` — an input that does not require grad — becomes an ``untracked`` node, and a
``detach()`` given as a cut becomes a ``cut`` node that stands in for the slot it fed.
:func:`draw_graph` lays those nodes out in rows, the roots on top and the ``AccumulateGrad``
sinks at the bottom, with arrows in the direction ``backward()`` walks.

Nothing is drawn by hand: every box and arrow is a node or an edge torch built.

Artists carry ``gid`` s for tests and tooling: the box of node ``k`` is ``"node-<k>-<kind>"``,
the arrow from node ``i`` to its input ``j`` is ``"edge-<i>-<j>"``.

Defined in Chapter 2, "In-place operations and the version counter"
(notebooks/inplace/inplace.ipynb).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import torch
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch
from matplotlib.path import Path

from autograd_figures.figures import LayoutFigure, unit_canvas

__all__ = ["KIND_STYLE", "Node", "Saved", "draw_graph", "graph_nodes"]

# Face colour, edge colour, line style and the legend's words for each kind of node. Faces are
# light so black text keeps a contrast ratio above 7:1.
KIND_STYLE: dict[str, tuple[str, str, str, str]] = {
    "op": ("#dbe8fb", "#1f4e99", "solid", "backward node of a recorded op"),
    "sink": ("#d9f2d9", "#1e6b1e", "solid", "AccumulateGrad: adds into a leaf's .grad"),
    "untracked": ("#eeeeee", "#6b6b6b", "dotted", "None: an input that does not require grad"),
    "cut": ("#fde2e2", "#b02020", "dashed", "detach(): None in next_functions; dashed: the tensor it aliases"),
}


@dataclass(frozen=True)
class Saved:
    """One ``_saved_*`` attribute of a node.

    Attributes:
        attribute: The attribute without its prefix, e.g. ``"self"``, ``"result"``, ``"exponent"``.
        value: A short description: ``"float32 [3]"`` for a tensor, the value otherwise,
            ``"freed by backward"`` once a backward without ``retain_graph`` released it.
        tensor: The name of the named tensor it is (same storage, layout and ``requires_grad``), if any.
        stale: True when reading it raised autograd's version-counter error.
        versions: For a stale tensor, ``(current, saved)`` as the error states them.
    """

    attribute: str
    value: str
    tensor: str | None = None
    stale: bool = False
    versions: tuple[int, int] | None = None


@dataclass(frozen=True)
class Node:
    """One node of the autograd graph.

    Attributes:
        key: Index of the node in the list :func:`graph_nodes` returns.
        name: Torch's class name (``"MulBackward0"``, ``"AccumulateGrad"``), ``"None"`` for an
            untracked input slot, ``"detach()"`` for a cut.
        kind: ``"op"``, ``"sink"`` (``AccumulateGrad``), ``"untracked"`` or ``"cut"``.
        inputs: Keys of the nodes in its ``next_functions``, in order (for a cut: its source).
        tensors: Names of the named tensors whose ``grad_fn`` it is; for a sink, its leaf's name;
            for a cut, the detached tensor's name.
        saved: Its ``_saved_*`` attributes, when asked for.
        root: True for the ``grad_fn`` of a root.
    """

    key: int
    name: str
    kind: str
    inputs: tuple[int, ...] = ()
    tensors: tuple[str, ...] = ()
    saved: tuple[Saved, ...] = ()
    root: bool = False


def _same_tensor(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Same storage, layout and ``requires_grad``: what a saved tensor shares with its original."""
    return (
        a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()
        and a.shape == b.shape
        and a.stride() == b.stride()
        and a.storage_offset() == b.storage_offset()
        and a.requires_grad == b.requires_grad
    )


def _name_of(tensor: torch.Tensor, names: Mapping[str, torch.Tensor]) -> str | None:
    by_identity = next((name for name, t in names.items() if t is tensor), None)
    if by_identity is not None:
        return by_identity
    return next((name for name, t in names.items() if _same_tensor(t, tensor)), None)


def _describe(value: Any) -> str:
    if isinstance(value, torch.Tensor):
        dtype = str(value.dtype).removeprefix("torch.")
        if value.dim() == 0:
            return f"{value.item():g} ({dtype} scalar)"
        return f"{dtype} {list(value.shape)}"
    text = repr(value)
    return text if len(text) <= 24 else text[:21] + "..."


_VERSIONS = re.compile(r"is at version (\d+); expected version (\d+)")


def _saved(fn: Any, names: Mapping[str, torch.Tensor]) -> tuple[Saved, ...]:
    """A node's ``_saved_*`` attributes, unpacked as backward unpacks them."""
    found = []
    for attr in sorted(a for a in dir(fn) if a.startswith("_saved_")):
        short = attr.removeprefix("_saved_")
        try:
            value = getattr(fn, attr)
        except RuntimeError as err:
            if "already been freed" in str(err):  # a backward without retain_graph released it
                found.append(Saved(short, "freed by backward"))
                continue
            if "modified by an inplace operation" not in str(err):
                raise
            match = _VERSIONS.search(str(err))
            versions = (int(match.group(1)), int(match.group(2))) if match else None
            found.append(Saved(short, "stale", None, True, versions))
            continue
        if value is None:
            continue
        tensor = _name_of(value, names) if isinstance(value, torch.Tensor) else None
        found.append(Saved(short, _describe(value), tensor))
    return tuple(found)


def graph_nodes(
    *roots: torch.Tensor,
    names: Mapping[str, torch.Tensor] | None = None,
    cuts: Iterable[tuple[torch.Tensor, torch.Tensor]] = (),
    saved: bool = False,
) -> list[Node]:
    """Walk the autograd graph of ``roots`` through ``grad_fn.next_functions``.

    Args:
        roots: Tensors to start from; a root without a ``grad_fn`` adds nothing.
        names: Variable names: a node is labelled with the names of the tensors it produced, a
            sink with its leaf's name, a saved tensor with the name of the tensor it is.
        cuts: ``(source, detached)`` pairs with ``detached = source.detach()``. The cut becomes a
            node whose input is ``source``'s node (added to the walk if the roots do not reach it),
            standing in for the ``None`` slot of the node that consumed ``detached`` — found as a
            node with a ``None`` slot that saved ``detached``. Without such a consumer the cut
            hangs from ``source`` alone.
        saved: Also read every node's ``_saved_*`` attributes.

    Returns:
        The nodes, roots first, in the order of a breadth-first walk.

    Raises:
        ValueError: If a cut's second tensor does not share the first one's storage, or requires grad.
    """
    names = dict(names or {})
    cuts = list(cuts)
    for source, detached in cuts:
        if detached.requires_grad or detached.untyped_storage().data_ptr() != source.untyped_storage().data_ptr():
            raise ValueError("a cut is (source, source.detach()): same storage, no grad")
    start = [t.grad_fn for t in roots if t.grad_fn is not None]
    start += [source.grad_fn for source, _ in cuts if source.grad_fn is not None]
    order: list[Any] = []
    keys: dict[int, int] = {}
    queue = list(start)
    while queue:
        fn = queue.pop(0)
        if id(fn) in keys:
            continue
        keys[id(fn)] = len(order)
        order.append(fn)
        queue.extend(next_fn for next_fn, _ in fn.next_functions if next_fn is not None)
    # A cut whose source is a leaf hangs from the leaf's sink, which only its consumer can reach.
    sinks_of = {id(fn.variable): fn for fn in order if type(fn).__name__ == "AccumulateGrad"}

    produced: dict[int, list[str]] = {}
    for name, tensor in names.items():
        if tensor.grad_fn is not None and id(tensor.grad_fn) in keys:
            produced.setdefault(keys[id(tensor.grad_fn)], []).append(name)
    root_keys = {keys[id(fn)] for fn in start[: len([t for t in roots if t.grad_fn is not None])]}

    nodes: list[Node] = []
    extra: list[Node] = []  # untracked slots and cuts, numbered after the real nodes

    def new_key() -> int:
        return len(order) + len(extra)

    consumed_cuts: set[int] = set()
    for key, fn in enumerate(order):
        kind = "sink" if type(fn).__name__ == "AccumulateGrad" else "op"
        inputs = []
        for next_fn, _ in fn.next_functions:
            if next_fn is not None:
                inputs.append(keys[id(next_fn)])
                continue
            cut = next(
                (
                    i
                    for i, (_, detached) in enumerate(cuts)
                    if i not in consumed_cuts and _saves(fn, detached)
                ),
                None,
            )
            if cut is None:
                inputs.append(new_key())
                extra.append(Node(new_key(), "None", "untracked"))
                continue
            consumed_cuts.add(cut)
            inputs.append(new_key())
            extra.append(_cut_node(new_key(), cuts[cut], keys, sinks_of, names))
        tensors: tuple[str, ...] = tuple(produced.get(key, ()))
        if kind == "sink":
            leaf_name = _name_of(fn.variable, names)
            tensors = (leaf_name,) if leaf_name else ()
        nodes.append(
            Node(key, type(fn).__name__, kind, tuple(inputs), tensors,
                 _saved(fn, names) if saved else (), key in root_keys)
        )
    for i, cut in enumerate(cuts):
        if i not in consumed_cuts:
            extra.append(_cut_node(new_key(), cut, keys, sinks_of, names))
    return nodes + extra


def _saves(fn: Any, tensor: torch.Tensor) -> bool:
    """Whether ``fn`` saved ``tensor`` (reading nothing stale)."""
    for attr in dir(fn):
        if not attr.startswith("_saved_"):
            continue
        try:
            value = getattr(fn, attr)
        except RuntimeError:
            continue
        if isinstance(value, torch.Tensor) and _same_tensor(value, tensor):
            return True
    return False


def _cut_node(
    key: int,
    cut: tuple[torch.Tensor, torch.Tensor],
    keys: Mapping[int, int],
    sinks_of: Mapping[int, Any],
    names: Mapping[str, torch.Tensor],
) -> Node:
    source, detached = cut
    source_fn = source.grad_fn if source.grad_fn is not None else sinks_of.get(id(source))
    inputs = (keys[id(source_fn)],) if source_fn is not None and id(source_fn) in keys else ()
    label = _name_of(detached, names)
    return Node(key, "detach()", "cut", inputs, (label,) if label else ())


def _layers(nodes: list[Node]) -> dict[int, int]:
    """Row of each node: the longest path from a node nothing points at; sinks on the last row."""
    pointed_at = {j for node in nodes for j in node.inputs}
    row = {node.key: 0 for node in nodes if node.key not in pointed_at}
    by_key = {node.key: node for node in nodes}
    changed = True
    while changed:  # a DAG: at most len(nodes) rounds
        changed = False
        for node in nodes:
            if node.key not in row:
                continue
            for j in node.inputs:
                if row.get(j, -1) < row[node.key] + 1:
                    row[j] = row[node.key] + 1
                    changed = True
    bottom = max(row.values(), default=0)
    for key, node in by_key.items():
        if node.kind == "sink":
            row[key] = bottom
    return row


def _lines(node: Node, show_saved: bool) -> list[str]:
    lines = [node.name]
    if node.kind == "sink":
        lines.append(f"leaf {node.tensors[0]}" if node.tensors else "leaf")
    elif node.tensors:
        lines.append(("→ " if node.kind == "op" else "") + ", ".join(node.tensors))
    if show_saved:
        for s in node.saved:
            if s.stale:
                versions = f" v{s.versions[0]}≠v{s.versions[1]}" if s.versions else ""
                lines.append(f"saved {s.attribute}: STALE{versions}")
            else:
                lines.append(f"saved {s.attribute}: {s.tensor or s.value}")
    return lines


def draw_graph(
    *roots: torch.Tensor,
    title: str,
    names: Mapping[str, torch.Tensor] | None = None,
    cuts: Iterable[tuple[torch.Tensor, torch.Tensor]] = (),
    saved: bool = False,
) -> LayoutFigure:
    """Draw the autograd graph of ``roots`` as :func:`graph_nodes` reads it.

    Rows run from the roots' ``grad_fn`` (top) to the ``AccumulateGrad`` sinks (bottom row); an
    arrow goes from a node to each entry of its ``next_functions``, the direction ``backward()``
    walks. Each box shows torch's name for the node, the named tensors it produced (``→ a``) or,
    for a sink, its leaf, and with ``saved=True`` each ``_saved_*`` attribute (``STALE`` when an
    in-place write has moved its version). Grey dotted boxes are ``None`` slots; a red dashed box
    is a ``detach()`` cut, reached from its consumer by a grey dashed line labelled ``None`` (the
    slot, not an edge) and joined to its source by a dashed line that no gradient crosses.

    Args:
        roots: Tensors to start from.
        title: Heading of the figure.
        names: Variable names, as in :func:`graph_nodes`.
        cuts: ``(source, source.detach())`` pairs, as in :func:`graph_nodes`.
        saved: List each node's saved tensors and values.

    Returns:
        A figure that displays itself as a PNG in Jupyter.
    """
    nodes = graph_nodes(*roots, names=names, cuts=cuts, saved=saved)
    row = _layers(nodes)
    n_rows = max(row.values(), default=0) + 1
    texts = {node.key: _lines(node, saved) for node in nodes}
    char_w, line_h, gap = 0.13, 0.32, 0.45
    size: dict[Any, tuple[float, float]] = {
        key: (max(len(line) for line in lines) * char_w + 0.4, len(lines) * line_h + 0.25)
        for key, lines in texts.items()
    }
    # An edge that skips rows passes through one waypoint per skipped row; waypoints take room in
    # their row like a thin node, so the edge runs beside the boxes instead of over them.
    edges: list[tuple[int, int, list[Any]]] = []
    members: list[list[Any]] = [[n.key for n in nodes if row[n.key] == r] for r in range(n_rows)]
    above: dict[Any, list[Any]] = {}
    for node in nodes:
        for slot, j in enumerate(node.inputs):
            chain: list[Any] = [node.key]
            for r in range(row[node.key] + 1, row[j]):
                point = ("via", node.key, slot, r)
                size[point] = (0.15, 0.0)
                members[r].append(point)
                chain.append(point)
            chain.append(j)
            for upper, lower in zip(chain, chain[1:], strict=False):
                above.setdefault(lower, []).append(upper)
            edges.append((node.key, j, chain[1:-1]))
    # Order each row by where the items above it sit, so edges cross as little as one pass allows.
    x_of: dict[Any, float] = {}
    widths = []
    for r, items in enumerate(members):
        if r:
            items.sort(key=lambda k: sum(x_of[p] for p in above.get(k, [])) / max(len(above.get(k, [])), 1))
        x = 0.0
        for k in items:
            x_of[k] = x + size[k][0] / 2
            x += size[k][0] + gap
        widths.append(x - gap)
    width = max(max(widths, default=1.0), len(title) * 0.14, 9.0) + 0.6
    for r, items in enumerate(members):
        for k in items:
            x_of[k] += (width - widths[r]) / 2
    legend_kinds = [kind for kind in KIND_STYLE if any(n.kind == kind for n in nodes)]
    top = 0.8
    row_heights = [max((size[k][1] for k in items), default=0.0) + 0.9 for items in members]
    centres = [top + sum(row_heights[:r]) + row_heights[r] / 2 for r in range(n_rows)]
    bottom = top + sum(row_heights)
    height = bottom + 0.35 * len(legend_kinds) + 0.8
    fig, ax = unit_canvas(width, height, scale=0.62)
    ax.text(0.3, 0.4, title, fontsize=11, fontweight="bold", va="center")

    def y_of(key: Any) -> float:
        return centres[key[3] if isinstance(key, tuple) else row[key]]

    by_key = {node.key: node for node in nodes}
    for node in nodes:
        face, edge, style, _ = KIND_STYLE[node.kind]
        w, h = size[node.key]
        x, y = x_of[node.key], y_of(node.key)
        ax.add_patch(FancyBboxPatch((x - w / 2, y - h / 2), w, h, boxstyle="round,pad=0.04,rounding_size=0.12",
                                    facecolor=face, edgecolor=edge, linestyle=style, linewidth=1.6,
                                    gid=f"node-{node.key}-{node.kind}"))
        for i, line in enumerate(texts[node.key]):
            stale = "STALE" in line
            ax.text(x, y - h / 2 + 0.25 + i * line_h, line, ha="center", va="center", family="monospace",
                    fontsize=9 if i == 0 else 8, fontweight="bold" if i == 0 or stale else "normal",
                    color="#a00000" if stale else "black")
    drawn: dict[tuple[int, int], int] = {}
    for i, j, via in edges:
        cut = by_key[i].kind == "cut"
        # The slot a cut stands in for is None in next_functions: no edge backward() walks.
        none_slot = by_key[j].kind == "cut"
        start = (x_of[i], y_of(i) + size[i][1] / 2)
        end = (x_of[j], y_of(j) - size[j][1] / 2)
        colour = "#b02020" if cut else "#999999" if none_slot else "#333333"
        style = {"arrowstyle": "-" if cut or none_slot else "-|>", "mutation_scale": 12, "linewidth": 1.3,
                 "linestyle": "dashed" if cut or none_slot else "solid", "color": colour,
                 "gid": f"edge-{i}-{j}"}
        if via:
            points = [start, *[(x_of[p], y_of(p)) for p in via], end]
            codes = [Path.MOVETO] + [Path.LINETO] * (len(points) - 1)
            ax.add_patch(FancyArrowPatch(path=Path(points, codes), **style))
        else:
            # The same input twice (x * x) is two edges: bend the second so both show.
            repeat = drawn.get((i, j), 0)
            drawn[(i, j)] = repeat + 1
            ax.add_patch(FancyArrowPatch(start, end, connectionstyle=f"arc3,rad={0.3 * repeat}",
                                         shrinkA=2, shrinkB=2, **style))
        if none_slot:
            ax.text((start[0] + end[0]) / 2, (start[1] + end[1]) / 2, "None", ha="center", va="center",
                    fontsize=8, family="monospace", color="#666666",
                    bbox={"facecolor": "white", "edgecolor": "none", "pad": 1})
        if cut:
            ax.text((start[0] + end[0]) / 2, (start[1] + end[1]) / 2, "✂ no gradient", ha="center",
                    va="center", fontsize=8, color="#a00000",
                    bbox={"facecolor": "white", "edgecolor": "none", "pad": 1})
    legend_y = bottom + 0.2
    ax.text(0.3, legend_y, "arrows: the order backward() walks the graph (grad_fn.next_functions)",
            fontsize=8, va="center", color="#333333")
    for i, kind in enumerate(legend_kinds):
        face, edge, style, words = KIND_STYLE[kind]
        y = legend_y + 0.35 * (i + 1)
        ax.add_patch(FancyBboxPatch((0.3, y - 0.11), 0.4, 0.22, boxstyle="round,pad=0.02", facecolor=face,
                                    edgecolor=edge, linestyle=style, linewidth=1.2))
        ax.text(0.85, y, words, fontsize=8, va="center", color="#333333")
    return fig

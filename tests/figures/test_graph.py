"""autograd_figures.graph: the nodes are the ones torch built, and the picture draws exactly those."""

from __future__ import annotations

from dataclasses import replace

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
import torch  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from autograd_figures import Node, draw_graph, graph_nodes  # noqa: E402


def _by_name(nodes: list[Node], name: str) -> list[Node]:
    return [node for node in nodes if node.name == name]


def _reaches(nodes: list[Node], start: Node, goal: Node) -> bool:
    by_key = {node.key: node for node in nodes}
    stack, seen = [start.key], set()
    while stack:
        key = stack.pop()
        if key == goal.key:
            return True
        if key not in seen:
            seen.add(key)
            stack.extend(by_key[key].inputs)
    return False


def _gids(fig: Figure, prefix: str) -> set[str]:
    return {p.get_gid() for ax in fig.axes for p in ax.patches if (p.get_gid() or "").startswith(prefix)}


def test_nodes_are_named_as_torch_names_them_and_follow_next_functions():
    x = torch.randn(3, requires_grad=True)
    y = (x.exp() * 2).sum()
    nodes = graph_nodes(y, names={"x": x, "y": y})
    names = ["SumBackward0", "MulBackward0", "ExpBackward0", "AccumulateGrad", "None"]
    assert [node.name for node in nodes] == names
    root, mul, exp, sink, constant = nodes
    assert root.root and root.tensors == ("y",) and not mul.root
    assert root.inputs == (mul.key,)
    assert mul.inputs == (exp.key, constant.key)  # the constant 2 takes a slot, with no gradient
    assert constant.kind == "untracked"
    assert exp.inputs == (sink.key,)
    assert sink.kind == "sink" and sink.tensors == ("x",)


def test_copyslices_replaces_the_base_history_after_a_write_through_a_view():
    x = torch.ones(4, requires_grad=True)
    a = x * 1
    v = a[1:3]
    before = graph_nodes(a, names={"a": a, "x": x})
    assert _by_name(before, "CopySlices") == []
    assert before[0].name == "MulBackward0" and before[0].tensors == ("a",)
    v.mul_(10)
    after = graph_nodes(a, v, names={"a": a, "v": v, "x": x})
    (copy,) = _by_name(after, "CopySlices")
    assert copy.tensors == ("a",) and copy.root
    by_key = {node.key: node for node in after}
    assert by_key[copy.inputs[0]].name == "MulBackward0"  # the old history stays below it
    (view_node,) = [node for node in after if node.tensors == ("v",)]
    assert view_node.inputs == (copy.key,)
    (sink,) = _by_name(after, "AccumulateGrad")
    assert _reaches(after, view_node, sink)


def test_accumulategrad_only_for_leaves_that_require_grad():
    w = torch.randn(3, requires_grad=True)
    a = torch.randn(3)
    h = w * a
    loss = (h**2).sum()
    nodes = graph_nodes(loss, names={"w": w, "a": a, "h": h, "loss": loss})
    sinks = [node for node in nodes if node.kind == "sink"]
    assert [sink.tensors for sink in sinks] == [("w",)]
    (mul,) = [node for node in nodes if node.tensors == ("h",)]
    assert mul.kind == "op"  # the non-leaf h has a node but no sink of its own
    kinds = [next(n for n in nodes if n.key == key).kind for key in mul.inputs]
    assert kinds == ["sink", "untracked"]  # a, which does not require grad, is a None slot


def test_a_graph_from_a_leaf_alone_is_empty():
    assert graph_nodes(torch.randn(2, requires_grad=True)) == []


def test_a_detach_cuts_the_path_to_the_leaf():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    u = y.detach()
    z = (x * u).sum()
    names = {"x": x, "y": y, "u": u, "z": z}
    uncut = graph_nodes(z, names=names)
    assert not any(node.tensors == ("y",) for node in uncut)  # the roots do not reach y's node
    nodes = graph_nodes(z, names=names, cuts=[(y, u)])
    (cut,) = [node for node in nodes if node.kind == "cut"]
    (y_node,) = [node for node in nodes if node.tensors == ("y",)]
    assert cut.name == "detach()" and cut.tensors == ("u",) and cut.inputs == (y_node.key,)
    (consumer,) = [node for node in nodes if cut.key in node.inputs]
    assert consumer.name == "MulBackward0" and consumer.tensors == ()
    # The only way from z to y runs through the cut: backward stops at the None slot it stands for.
    without_cut_link = [replace(node, inputs=()) if node.kind == "cut" else node for node in nodes]
    assert not _reaches(without_cut_link, nodes[0], y_node)
    z.backward()
    assert torch.equal(x.grad, u)  # d/dx (x * u) with u constant: the cut is real


def test_a_cut_must_be_a_detach_of_its_source():
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    with pytest.raises(ValueError, match="detach"):
        graph_nodes(y, cuts=[(y, y.clone().detach())])


def test_saved_tensors_are_named_and_stale_ones_marked():
    x = torch.randn(3, requires_grad=True)
    a = x * 1
    b = torch.randn(3, requires_grad=True)
    y = a * b
    names = {"x": x, "a": a, "b": b, "y": y}
    (mul,) = [node for node in graph_nodes(y, names=names, saved=True) if node.tensors == ("y",)]
    assert {(s.attribute, s.tensor, s.stale) for s in mul.saved} == {("self", "a", False), ("other", "b", False)}
    with torch.no_grad():
        a.add_(1)
    (mul,) = [node for node in graph_nodes(y, names=names, saved=True) if node.tensors == ("y",)]
    stale = {s.attribute: s for s in mul.saved}
    assert stale["self"].stale and stale["self"].versions == (1, 0)
    assert not stale["other"].stale
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()  # what the drawing calls stale, backward refuses


def test_the_figure_draws_one_box_per_node_and_one_arrow_per_edge():
    x = torch.ones(4, requires_grad=True)
    a = x * 1
    v = a[1:3]
    v.mul_(10)
    nodes = graph_nodes(a, v, names={"a": a, "v": v, "x": x}, saved=True)
    fig = draw_graph(a, v, title="after v.mul_(10)", names={"a": a, "v": v, "x": x}, saved=True)
    assert isinstance(fig, Figure)
    assert _gids(fig, "node-") == {f"node-{node.key}-{node.kind}" for node in nodes}
    assert _gids(fig, "edge-") == {f"edge-{node.key}-{j}" for node in nodes for j in node.inputs}
    texts = {t.get_text() for ax in fig.axes for t in ax.texts}
    assert {"CopySlices", "AccumulateGrad", "after v.mul_(10)"} <= texts
    assert fig._repr_png_().startswith(b"\x89PNG")


def test_the_figure_marks_a_stale_save():
    x = torch.randn(3, requires_grad=True)
    a = x * 1
    y = a**2
    with torch.no_grad():
        a.add_(1)
    fig = draw_graph(y, title="stale", names={"a": a, "y": y}, saved=True)
    texts = [t.get_text() for ax in fig.axes for t in ax.texts]
    assert "saved self: STALE v1≠v0" in texts


def test_saved_tensors_freed_by_backward_are_reported_not_raised():
    x = torch.randn(3, requires_grad=True)
    y = (x.exp() * 2).sum()
    y.backward()
    (exp,) = [node for node in graph_nodes(y, saved=True) if node.name == "ExpBackward0"]
    assert [(s.attribute, s.value, s.stale) for s in exp.saved] == [("result", "freed by backward", False)]
    assert isinstance(draw_graph(y, title="after backward", saved=True), Figure)

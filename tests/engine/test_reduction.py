"""Reductions copy the failure's syntax tree by its fields: nothing a tool hung on the parser's shared
nodes is copied with it."""

from __future__ import annotations

import ast

from autograder.engine.reduction import copied_tree

SOURCE = "def broken():\n    w = capstone_inputs()\n    hidden = (w * 2).tanh()\n    del w\n    return hidden\n"


def nodes(tree: ast.AST) -> list[ast.AST]:
    return list(ast.walk(tree))


def test_a_copied_tree_reads_as_its_source_and_shares_no_node_with_it() -> None:
    tree = ast.parse(SOURCE)
    copy = copied_tree(tree)
    assert ast.dump(copy, include_attributes=True) == ast.dump(tree, include_attributes=True)
    assert not {id(node) for node in nodes(copy)} & {id(node) for node in nodes(tree)}


def test_what_a_tool_hangs_on_the_parsers_shared_nodes_is_not_copied() -> None:
    tree = ast.parse(SOURCE)
    contexts = {id(node.ctx): node.ctx for node in nodes(tree) if hasattr(node, "ctx")}
    # The parser hands every tree the same Load, Store and Del nodes: another tree's Load is this one's.
    assert any(ast.parse("w").body[0].value.ctx is ctx for ctx in contexts.values())
    elsewhere = ast.parse("import os\n" * 500)
    try:
        for ctx in contexts.values():  # as executing marks the nodes of a tree of its own
            ctx.parent = elsewhere
        copy = copied_tree(tree)
        assert not any(hasattr(node, "parent") for node in nodes(copy))
        assert ast.dump(copy) == ast.dump(tree)
    finally:
        for ctx in contexts.values():
            del ctx.parent

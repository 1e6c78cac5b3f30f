"""The checks of Chapter 4's closed-book companion: the key's gradients are torch's, the witness
sees only autograd's own accumulations, the inputs vary, and the catalogue's answers get the
verdicts they should."""

import pytest
import torch

from answer_key.leaves_closed_book import _clone_of_w0, _detached_aliases, _separate_leaves, two_objectives
from autograder.chapters.leaves_closed_book import CASES, LEAF, OPS, RESULT, _given, drive
from autograder.engine.cases import exercises
from autograder.engine.draw import Draw
from autograder.engine.elementwise import CUSTOM, SAVE_INPUT, SAVE_OUTPUT
from tests.cases import ChapterCases


class TestLeavesClosedBookCases(ChapterCases):
    CHAPTER = "leaves-closed-book"
    NAMES = {"torch": torch}


def _derivative(op, x0):
    x = x0.detach().clone().requires_grad_()
    (grad,) = torch.autograd.grad(op(x).sum(), x)
    return grad


def test_the_key_accumulates_then_restarts_as_autograd_computes():
    for name, (_probe, recipe, _points) in CASES.items():
        for seed in range(4):
            w0, f, g, *how = recipe(Draw(seed))
            found = drive(two_objectives, w0, f, g, *how)
            df, dg = _derivative(OPS[f], w0), _derivative(OPS[g], w0)
            for got, want in zip(found["records"], (df, df + dg, dg), strict=True):
                assert torch.allclose(got, want), (name, f, g)
            assert found["tensors f and g were applied to"] == 1 and found["each a leaf that requires grad"]
            assert [a.tolist() for a in found["gradients arriving at the leaf"]] == [df.tolist(), dg.tolist(),
                                                                                     dg.tolist()]
            assert len(found[".grad after each accumulation"]) == 3 and found["w0 left alone"]


def test_two_leaves_added_by_hand_give_the_values_and_not_the_evidence():
    w0, f, g = CASES["any-pair"][1](Draw(1))
    honest, by_hand = drive(two_objectives, w0, f, g), drive(_separate_leaves, w0, f, g)
    assert all(torch.allclose(a, b) for a, b in zip(honest["records"], by_hand["records"], strict=True))
    assert by_hand["tensors f and g were applied to"] == 2
    assert [len(x) for x in by_hand[".grad after each accumulation"]] != [len(x) for x in
                                                                          honest[".grad after each accumulation"]] \
        or len(by_hand[".grad after each accumulation"]) != 3


def test_w0_is_handed_over_plain_as_a_leaf_that_requires_grad_or_in_a_graph():
    w0 = torch.tensor([0.5, -1.0])
    plain, leaf, result = _given(w0, None), _given(w0, LEAF), _given(w0, RESULT)
    assert (plain.requires_grad, plain.is_leaf) == (False, True)
    assert (leaf.requires_grad, leaf.is_leaf) == (True, True)
    assert (result.requires_grad, result.is_leaf) == (True, False)
    assert all(torch.equal(t.detach(), w0) for t in (plain, leaf, result))


def test_a_clone_of_w0_is_wrong_only_when_w0_requires_grad():
    for name, (_probe, recipe, _points) in CASES.items():
        w0, f, g, *how = recipe(Draw(2))
        right = drive(two_objectives, w0, f, g, *how)
        assert right["w0 left alone"], name
        if how:  # w0.clone() is then no leaf: its .grad stays None
            with pytest.raises(AttributeError, match="'NoneType' object has no attribute 'clone'"):
                drive(_clone_of_w0, w0, f, g, *how)
        else:
            cloned = drive(_clone_of_w0, w0, f, g, *how)
            assert all(torch.equal(a, b) for a, b in zip(cloned["records"], right["records"], strict=True)), name


def test_copies_by_detach_share_w_grad_and_move_with_the_next_backward():
    w0, f, g = CASES["any-pair"][1](Draw(3))
    right, aliased = drive(two_objectives, w0, f, g)["records"], drive(_detached_aliases, w0, f, g)["records"]
    assert torch.allclose(aliased[0], right[1]) and torch.allclose(aliased[1], right[1])
    assert not torch.allclose(aliased[0], right[0]) and torch.equal(aliased[2], right[2])


def test_each_op_saves_what_it_is_said_to_save():
    saves_input = set(SAVE_INPUT) | {"Cube"}
    for name in (*SAVE_INPUT, *SAVE_OUTPUT, *CUSTOM):
        x = torch.tensor([0.5, 1.0], requires_grad=True)
        y = OPS[name](x)
        with torch.no_grad():
            (x if name in saves_input else y).mul_(1.5)
        try:
            y.sum().backward()
        except RuntimeError as err:
            assert "modified by an inplace operation" in str(err), name
        else:
            raise AssertionError(f"{name} saves nothing that the write touched")


def test_hidden_cases_draw_new_inputs_and_operations_from_their_seed():
    for case in exercises("leaves-closed-book")["leaves-reproduce"].selected(hidden=True):
        drawn = {(tuple(case.build(seed)[0].shape), case.build(seed)[1], case.build(seed)[2]) for seed in range(12)}
        assert len(drawn) > 1, case.name


def test_the_visible_checks_hold_no_expected_value():
    from answer_key.keys import visible_keys

    for key in visible_keys("leaves-closed-book").values():
        for case_key in key.values():
            assert case_key.says == {}
            assert all(p.expected.value is None and not p.models for p in case_key.points)

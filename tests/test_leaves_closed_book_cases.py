"""The closed-book companion of Chapter 4: its reference agrees with torch, its inputs vary."""

import torch

from autograder.checks import exercises
from autograder.elementwise import ALL_OPS, CUSTOM, SAVE_INPUT, derivative
from autograder.leaves_closed_book import reference
from tests.cases import ChapterCases


def test_the_custom_functions_have_the_derivatives_of_their_formulas():
    x = torch.tensor([0.3, 1.0, 2.0])
    assert torch.allclose(derivative(CUSTOM["Cube"], x), 3 * x**2)
    assert torch.allclose(derivative(CUSTOM["SoftClip"], x), (1 - torch.tanh(x) ** 2) / 2)


def test_the_reference_accumulates_then_restarts():
    w0 = torch.tensor([0.5, 1.5])
    first, both, second = reference(w0, torch.sin, torch.exp)
    assert torch.allclose(first, torch.cos(w0)) and torch.allclose(second, torch.exp(w0))
    assert torch.allclose(both, torch.cos(w0) + torch.exp(w0))


def test_each_op_saves_what_it_is_said_to_save():
    saves_input = {**SAVE_INPUT, "Cube": CUSTOM["Cube"]}
    for name, op in {**ALL_OPS, **CUSTOM}.items():
        x = torch.tensor([0.5, 1.0], requires_grad=True)
        y = op(x)
        with torch.no_grad():
            (x if name in saves_input else y).mul_(1.5)
        try:
            y.sum().backward()
        except RuntimeError as err:
            assert "modified by an inplace operation" in str(err), name
        else:
            raise AssertionError(f"{name} saves nothing that the write touched")


def test_hidden_cases_draw_new_inputs_and_operations_from_their_seed():
    cases = [c for c in exercises("leaves-closed-book")["leaves-reproduce"].cases if c.hidden]
    for case in cases:
        drawn = {(tuple(case.build(seed)[0].shape), repr(case.build(seed)[1])) for seed in range(12)}
        assert len(drawn) > 1, case.name


class TestLeavesClosedBookCases(ChapterCases):
    CHAPTER = "leaves-closed-book"
    NAMES = {"torch": torch}

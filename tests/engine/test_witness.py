"""The witness's facts: which values the leaves autograd ran from hold between them."""

from __future__ import annotations

import torch

from autograder.engine.witness import hold_values_between_them

X = torch.tensor([[1.5, -2.0], [0.25, 1.5]])


def test_one_tensor_holding_every_value_holds_them():
    assert hold_values_between_them([X.clone()], X)
    assert hold_values_between_them([X.reshape(-1).clone()], X)


def test_one_tensor_per_element_or_per_column_holds_them_between_them():
    assert hold_values_between_them([X[i, j].clone() for i in range(2) for j in range(2)], X)
    assert hold_values_between_them([X[:, j].clone() for j in range(2)], X)


def test_a_missing_or_repeated_value_is_not_held():
    assert not hold_values_between_them([X[0].clone(), X[1, :1].clone()], X)
    assert not hold_values_between_them([torch.tensor([1.5, -2.0, 0.25, 0.25])], X)


def test_values_of_another_dtype_or_no_tensor_at_all_are_not_held():
    assert not hold_values_between_them([X.double()], X)
    assert not hold_values_between_them([], X)
    assert not hold_values_between_them([X.tolist()], X)


def test_a_subclass_is_not_read():
    class Claims(torch.Tensor):
        pass

    assert not hold_values_between_them([X.clone().as_subclass(Claims)], X)

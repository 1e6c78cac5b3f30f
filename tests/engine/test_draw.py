"""Seeded draws: the same seed draws the same inputs, and a search's draws take a family's kinds in turn."""

from __future__ import annotations

import torch
from hypothesis import given
from hypothesis import strategies as st
from torch import nn

from autograder.engine.cases import Case
from autograder.engine.draw import Draw, seed_global_generator

KINDS = ("transposed", "sliced", "expanded")


def _kind(draw: Draw) -> tuple:
    return (draw.pick(KINDS), draw.sized(1, 9))


@given(seed=st.integers(0, 2**31 - 1))
def test_a_search_draws_every_kind_in_turn_whatever_the_seed(seed: int) -> None:
    case = Case("ex", "family", "f", "f", "f(x)", _kind, search=_kind, tries=len(KINDS) * 2)
    searched = case.draws(seed)[1:]
    assert [kind for kind, _size in searched] == list(KINDS) * 2


@given(seed=st.integers(0, 2**31 - 1))
def test_the_same_seed_draws_the_same_inputs(seed: int) -> None:
    case = Case("ex", "family", "f", "f", "f(x)", _kind, search=_kind, tries=4)
    assert case.draws(seed) == case.draws(seed)


def test_a_draw_outside_a_search_picks_at_random() -> None:
    picked = {Draw(seed).pick(KINDS) for seed in range(60)}
    assert picked == set(KINDS)


def test_seeding_the_global_generator_draws_what_torch_manual_seed_draws() -> None:
    torch.manual_seed(5)
    expected = (nn.Linear(3, 2).weight.detach(), torch.randn(4))
    torch.manual_seed(6)
    seed_global_generator(5)
    drawn = (nn.Linear(3, 2).weight.detach(), torch.randn(4))
    assert all(torch.equal(a, b) for a, b in zip(drawn, expected, strict=True))

"""Seeded draws: the same seed draws the same inputs, and a search's draws take a family's kinds in turn."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from autograder.engine.cases import Case
from autograder.engine.draw import Draw

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

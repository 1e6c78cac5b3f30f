"""Seeded inputs: a case's inputs recipe may draw them from a :class:`Draw`.

The same seed gives the same inputs, so the sandbox (which calls the answer) and the trusted
grader (which computes the expected value) build identical inputs without sending them; each
``grade(...)`` call in a learner's kernel draws a new seed, so inputs differ from call to call.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, TypeVar

import torch

T = TypeVar("T")


class Draw:
    """Reproducible random inputs from one seed."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.generator = torch.Generator().manual_seed(seed)

    def integer(self, low: int, high: int) -> int:
        """An int in ``[low, high]``."""
        return self.rng.randint(low, high)

    def choice(self, options: Sequence[T]) -> T:
        return options[self.rng.randrange(len(options))]

    def shape(self, dims: int, low: int = 1, high: int = 5) -> tuple[int, ...]:
        """A shape of ``dims`` sizes in ``[low, high]``."""
        return tuple(self.integer(low, high) for _ in range(dims))

    def randn(self, *shape: int, dtype: torch.dtype = torch.float32) -> torch.Tensor:
        return torch.randn(*shape, generator=self.generator, dtype=dtype)

    def uniform(self, *shape: int, low: float = 0.0, high: float = 1.0) -> torch.Tensor:
        return torch.rand(*shape, generator=self.generator) * (high - low) + low

    def __repr__(self) -> str:
        return f"Draw({self.seed})"


def fresh_seed() -> int:
    """A new seed for one ``grade(...)`` call."""
    return random.SystemRandom().randrange(2**31)


def accepts_draw(recipe: Any) -> bool:
    """True when an inputs recipe takes a :class:`Draw` (one positional parameter)."""
    import inspect

    try:
        parameters = [p for p in inspect.signature(recipe).parameters.values()
                      if p.default is inspect.Parameter.empty
                      and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        return False
    return len(parameters) == 1

"""Seeded inputs: a case's inputs recipe may draw them from a :class:`Draw`.

The same seed gives the same inputs, so the sandbox (which calls the answer) and the trusted
grader (which computes what the answer should give) build identical inputs without sending them.

A draw may carry a *size*: the counterexample search draws a case's inputs again at sizes 1, 2, 3,
... so that, when an answer is wrong, the smallest input on which it differs can be shown. A recipe
honours the size through :meth:`Draw.sized` (dimensions, lengths); everything else it draws is as
free as at full size.

A search's draw also carries its *turn* (0, 1, 2, ... in the order the search draws them): where a
family holds several kinds of input, :meth:`Draw.pick` takes them in turn across the search, so a
mistake that shows on one kind is shown on every run, whatever the seed.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import Any, TypeVar

import torch

T = TypeVar("T")


def seed_global_generator(seed: int) -> None:
    """Seed torch's global generator, the CPU's: what ``nn.Linear`` initialises its weights from and
    ``torch.randn`` draws from without a generator of its own. ``torch.manual_seed`` seeds it the
    same way, but first queues the seed for every accelerator torch knows (CUDA, XPU, MTIA), each
    with its caller's stack formatted: about a millisecond a call, most of building a small
    module. Checks run on the CPU."""
    torch.default_generator.manual_seed(seed)


class Draw:
    """Reproducible random inputs from one seed, optionally bounded by a size.

    Args:
        seed: The seed.
        size: When given, :meth:`sized` draws at most ``low + size - 1``.
        turn: The search's count of this draw, when a search draws it (:meth:`pick`).
    """

    def __init__(self, seed: int, size: int | None = None, turn: int | None = None) -> None:
        self.seed = seed
        self.size = size
        self.turn = turn
        self.rng = random.Random(seed)
        self.generator = torch.Generator().manual_seed(seed)

    def integer(self, low: int, high: int) -> int:
        """An int in ``[low, high]``."""
        return self.rng.randint(low, high)

    def sized(self, low: int, high: int) -> int:
        """An int in ``[low, high]`` that the draw's size bounds: a dimension count or a length."""
        if self.size is not None:
            high = max(low, min(high, low + self.size - 1))
        return self.rng.randint(low, high)

    def choice(self, options: Sequence[T]) -> T:
        return options[self.rng.randrange(len(options))]

    def pick(self, options: Sequence[T]) -> T:
        """One of ``options``: in turn across a search's draws (each option once every
        ``len(options)`` turns), drawn at random otherwise."""
        return self.choice(options) if self.turn is None else options[self.turn % len(options)]

    def shape(self, dims: int, low: int = 1, high: int = 5) -> tuple[int, ...]:
        """A shape of ``dims`` sizes in ``[low, high]`` (each bounded by the draw's size)."""
        return tuple(self.sized(low, high) for _ in range(dims))

    def randn(self, *shape: int, dtype: torch.dtype = torch.float32) -> torch.Tensor:
        return torch.randn(*shape, generator=self.generator, dtype=dtype)

    def uniform(self, *shape: int, low: float = 0.0, high: float = 1.0) -> torch.Tensor:
        return torch.rand(*shape, generator=self.generator) * (high - low) + low

    def __repr__(self) -> str:
        return f"Draw({self.seed})" if self.size is None else f"Draw({self.seed}, size={self.size})"


def fresh_seed() -> int:
    """A new seed for one ``grade(...)`` call."""
    return random.SystemRandom().randrange(2**31)


def derived_seed(seed: int, *parts: Any) -> int:
    """A seed for one point of a case, derived from the case's seed: stable across processes."""
    text = "\0".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big") & 0x7FFFFFFF


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

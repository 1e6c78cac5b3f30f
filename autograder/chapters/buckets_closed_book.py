"""The closed-book companion of Chapter 6, "Gradient buckets and flat shards": how
``buckets-flatten`` is checked.

``flatten_into_buffer(module)`` puts every parameter of a module into one flat buffer and makes
each parameter read its slice of it, as DDP's buckets and FSDP1's flat parameters do. The drivers
call it on grader-owned modules — the chapter's two-layer model, a model with BatchNorm buffers
and a frozen bias, and models drawn per run, in float32 and in float64 — and report what it did
to them as data: the values the buffer and the parameters hold, where each parameter's elements
lie in the buffer's memory, whether the parameters are still the module's own, and what a write
to the buffer and an optimizer step on the parameters reach. The answer runs without torch's own flattening helpers
(``parameters_to_vector``, ``vector_to_parameters``), which would do the task for it. The visible
check looks only at the form of the result; every check of behaviour is hidden. The key is in
``answer_key.buckets_closed_book``.

Defined in the closed-book companion of Chapter 6 (notebooks/buckets-closed-book/buckets-closed-book.ipynb).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import torch
from torch import nn
from torch.nn.utils import convert_parameters

from autograder.chapters.buckets import small_model
from autograder.engine import facts
from autograder.engine.cases import AnswerTypeError, exercise
from autograder.engine.draw import Draw

Make = Callable[[], nn.Module]


def normed_model() -> nn.Module:
    """A model with buffers (BatchNorm's running statistics) and a frozen parameter."""
    model = nn.Sequential(nn.Linear(3, 5), nn.BatchNorm1d(5), nn.Linear(5, 1, bias=False))
    generator = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.randn(p.shape, generator=generator))
    model[0].bias.requires_grad_(False)
    return model


class DrawnModel:
    """A factory of the model a seed draws: 2–4 linear layers of drawn widths, BatchNorm after one
    of them or more, one bias or more frozen, every parameter and buffer of ``dtype``. A fresh model on
    every call."""

    def __init__(self, draw: Draw, dtype: torch.dtype = torch.float32) -> None:
        self.widths = [draw.integer(2, 6) for _ in range(draw.sized(2, 4) + 1)]
        self.normed = [draw.choice([False, True]) for _ in self.widths[1:-1]]
        if not any(self.normed):  # at least one BatchNorm (buffers) in every drawn model
            self.normed[draw.integer(0, len(self.normed) - 1)] = True
        self.frozen = [draw.choice([False, False, True]) for _ in self.widths[1:]]
        if not any(self.frozen):  # at least one frozen bias in every drawn model
            self.frozen[draw.integer(0, len(self.frozen) - 1)] = True
        self.seed = draw.integer(0, 10_000)
        self.dtype = dtype

    def __call__(self) -> nn.Module:
        layers: list[nn.Module] = []
        for i, (n_in, n_out) in enumerate(zip(self.widths, self.widths[1:], strict=False)):
            layers.append(nn.Linear(n_in, n_out))
            if i < len(self.normed) and self.normed[i]:
                layers.append(nn.BatchNorm1d(n_out))
        model = nn.Sequential(*layers).to(self.dtype)
        generator = torch.Generator().manual_seed(self.seed)
        with torch.no_grad():
            for p in model.parameters():
                p.copy_(torch.randn(p.shape, generator=generator, dtype=self.dtype))
        for layer, freeze in zip([m for m in model if isinstance(m, nn.Linear)], self.frozen, strict=True):
            layer.bias.requires_grad_(not freeze)
        return model

    def describe(self) -> str:
        parts = []
        for i, (n_in, n_out) in enumerate(zip(self.widths, self.widths[1:], strict=False)):
            parts.append(f"Linear({n_in}, {n_out}{', bias frozen' if self.frozen[i] else ''})")
            if i < len(self.normed) and self.normed[i]:
                parts.append(f"BatchNorm1d({n_out})")
        kind = "" if self.dtype == torch.float32 else f", in {str(self.dtype).removeprefix('torch.')}"
        return " → ".join(parts) + kind

    def layout_size(self) -> int:
        """How large the model is, for the smallest counterexample."""
        return sum(a * b + b for a, b in zip(self.widths, self.widths[1:], strict=False))


def _show(inputs: tuple) -> str:
    make = inputs[0]
    if isinstance(make, DrawnModel):
        return make.describe()
    return {small_model: "the chapter's two-layer model", normed_model: "Linear(3, 5) → BatchNorm1d(5) → "
            "Linear(5, 1, bias=False), the first bias frozen"}.get(make, "a model")


# ----------------------------------------------------------------------------------- drivers
# torch's own flattening helpers do the whole task in two calls (``vector_to_parameters`` assigns
# each ``param.data`` a slice of the vector), so the answer is called where they cannot run: their
# code is swapped, for the length of the call, for one that refuses. A name the learner imported
# before the call is the same function object, so it refuses too.
_SHORTCUTS = (convert_parameters.parameters_to_vector, convert_parameters.vector_to_parameters)


def _refused(*args: Any, **kwargs: Any) -> None:
    raise RuntimeError("torch.nn.utils' parameters_to_vector and vector_to_parameters are refused here: "
                       "the task is that re-pointing")


@contextmanager
def _without_shortcuts() -> Iterator[None]:
    kept = [f.__code__ for f in _SHORTCUTS]
    for f in _SHORTCUTS:
        f.__code__ = _refused.__code__
    try:
        yield
    finally:
        for f, code in zip(_SHORTCUTS, kept, strict=True):
            f.__code__ = code


def _called(answer: Callable, model: nn.Module) -> Any:
    """The answer called on ``model``, without torch's flattening helpers."""
    with _without_shortcuts():
        return answer(model)


def _flattened(answer: Callable, make: Make) -> tuple[nn.Module, list, list, list, torch.Tensor]:
    """The answer called on a fresh model; the model's parameters (as it registered them), whether
    each trained and its buffers with their values, taken before the call; and what it returned.
    Every driver below reads through :mod:`autograder.engine.facts`."""
    model = make()
    with facts.untouched():
        params = facts.parameters(model)
        trains = [facts.requires_grad(p) for p in params]
        buffers = [(b, facts.clone(facts.detach(b))) for b in facts.buffers(model)]
    flat = _called(answer, model)
    if not facts.is_tensor(flat):
        raise AnswerTypeError(f"flatten_into_buffer must return a torch.Tensor, found "
                              f"{type(flat).__module__}.{type(flat).__qualname__}")
    return model, params, trains, buffers, flat


def _values(tensors: list[torch.Tensor]) -> list[torch.Tensor]:
    with facts.untouched():
        return [facts.clone(facts.detach(t)) for t in tensors]


def _where(p: torch.Tensor, flat: torch.Tensor) -> int | None:
    """Where ``p``'s elements start in ``flat``'s elements, when they lie, in order, inside its
    memory (None otherwise)."""
    with facts.untouched():
        if facts.numel(p) == 0 or facts.numel(flat) == 0 or facts.dtype(p) != facts.dtype(flat) \
                or not facts.is_contiguous(p):
            return None
        size = facts.element_size(p)
        start = facts.data_ptr(flat)
        end = start + facts.numel(flat) * facts.element_size(flat)
        at = facts.data_ptr(p)
        if not (start <= at and at + facts.numel(p) * size <= end) or (at - start) % size:
            return None
        return (at - start) // size


def observe_values(answer: Callable, make: Make, *, _flattened: Callable = _flattened) -> dict[str, Any]:
    """What the buffer holds, and what the module's parameters hold, after the call."""
    model, _params, _trains, _buffers, flat = _flattened(answer, make)
    return {"buffer": _values([flat])[0], "parameters": _values(facts.parameters(model))}


def observe_places(answer: Callable, make: Make, *, _flattened: Callable = _flattened) -> dict[str, Any]:
    """Where each of the module's parameters lies in the buffer's memory (an element offset, or
    None when it lies elsewhere); whether they are the objects the module had, trainable as
    before; and whether its buffers (BatchNorm's statistics) are the tensors and values they were."""
    model, params, trains, buffers, flat = _flattened(answer, make)
    now = facts.parameters(model)
    with facts.untouched():
        return {
            "offsets in the buffer": [_where(p, flat) for p in now],
            "the module's own parameters": len(now) == len(params) and all(a is b for a, b in zip(now, params,
                                                                                             strict=True)),
            "leaves, requires_grad as before": [facts.is_parameter(p) and facts.is_leaf(p)
                                                and facts.requires_grad(p) == t
                                                for p, t in zip(now, trains, strict=False)],
            "buffers kept": [b is now_b and facts.equal(b, kept) for (b, kept), now_b in
                             zip(buffers, facts.buffers(model), strict=False)],
        }


def observe_write(answer: Callable, make: Make, *, _flattened: Callable = _flattened) -> dict[str, Any]:
    """The parameters' values after ``buffer.mul_(2)``."""
    model, _params, _trains, _buffers, flat = _flattened(answer, make)
    with facts.untouched(), facts.no_grad():
        facts.mul_(flat, 2.0)
    return {"parameters after buffer.mul_(2)": _values(facts.parameters(model))}


def observe_step(answer: Callable, make: Make, *, _flattened: Callable = _flattened) -> dict[str, Any]:
    """The buffer's values after one SGD step on ``module.parameters()`` (the parameters the module
    registered; the step is ``torch.optim.SGD``'s, through :mod:`autograder.engine.facts`)."""
    model, _params, _trains, _buffers, flat = _flattened(answer, make)
    with facts.untouched():
        optimizer = facts.SGD(facts.parameters(model), lr=0.5)
    x = torch.randn(6, model[0].in_features, generator=torch.Generator().manual_seed(3))
    out = model(x)
    with facts.untouched():
        facts.backward(facts.mean(facts.power(out, 2)))
        optimizer.step()
    return {"buffer after an optimizer step": _values([flat])[0]}


# ------------------------------------------------------------------------------------ cases
def _model(draw: Draw) -> tuple[DrawnModel]:
    return (DrawnModel(draw),)


def _float64_model(draw: Draw) -> tuple[DrawnModel]:
    """A drawn model whose parameters and buffers are float64: a buffer must hold their dtype."""
    return (DrawnModel(draw, torch.float64),)


# Values are compared with a float tolerance: the step's arithmetic may run on another number of
# threads in the grading sandbox than in the process that computes the key.
flatten = exercise("buckets-flatten", "flatten_into_buffer", returns="observation", agree="close", show=_show)
flatten.case("form", "flatten_into_buffer(module)", lambda: (small_model(),), call=_called, form="tensor", points=0,
             show=lambda inputs: "the chapter's two-layer model")

DRIVERS = {
    "values": (observe_values, "buffer and parameters after flatten_into_buffer(module)"),
    "places": (observe_places, "where the module's parameters lie, and whose they are"),
    "write-through": (observe_write, "the parameters after buffer.mul_(2)"),
    "step-through": (observe_step, "the buffer after an optimizer step on module.parameters()"),
}
CASES = {
    # name: (driver, model family, points)
    "chapter-values": ("values", lambda: (small_model,), 1),
    "chapter-places": ("places", lambda: (small_model,), 1),
    "normed-values": ("values", lambda: (normed_model,), 1),
    "normed-places": ("places", lambda: (normed_model,), 1),
    "drawn-values": ("values", _model, 1),
    "drawn-places": ("places", _model, 2),
    "drawn-write-through": ("write-through", _model, 2),
    "drawn-step-through": ("step-through", _model, 2),
    "float64-values": ("values", _float64_model, 1),
}
for _name, (_driver, _inputs, _points) in CASES.items():
    _call, _probe = DRIVERS[_driver]
    _drawn = _inputs in (_model, _float64_model)
    flatten.case(_name, _probe, _inputs, call=_call, hidden=True, points=_points,
                 search=_inputs if _drawn else None, tries=4 if _drawn else 0)

"""The closed-book companion of Chapter 6, "Gradient buckets and flat shards": its cases.

``flatten_into_buffer(module)`` puts every parameter of a module into one flat buffer and makes
each parameter a view into it at its offset, as DDP's buckets and FSDP's flat parameters do. Every
case is a trusted driver run on the learner's function and on a reference, around the chapter's
model, a model with buffers and a frozen parameter, and models drawn per call.

Defined in the closed-book companion of Chapter 6 (notebooks/buckets-closed-book/buckets-closed-book.ipynb).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch
from torch import nn

from autograder.buckets import small_model
from autograder.checks import Diagnosis, exercise
from autograder.draw import Draw
from autograder.values import AnswerTypeError, same_storage


def normed_model() -> nn.Module:
    """A model with buffers (BatchNorm's running statistics) and a frozen parameter."""
    model = nn.Sequential(nn.Linear(3, 5), nn.BatchNorm1d(5), nn.Linear(5, 1, bias=False))
    torch.manual_seed(1)
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.randn_like(p))
    model[0].bias.requires_grad_(False)
    return model


def drawn_model(draw: Draw) -> Callable[[], nn.Module]:
    """A factory of a model drawn from the seed: 2–4 linear layers of drawn widths, some with
    BatchNorm between them, some biases frozen."""
    widths = [draw.integer(2, 6) for _ in range(draw.integer(3, 5))]
    normed = [draw.choice([False, True]) for _ in widths[1:-1]]
    frozen = [draw.choice([False, False, True]) for _ in widths[1:]]
    seed = draw.integer(0, 10_000)

    def make() -> nn.Module:
        layers: list[nn.Module] = []
        for i, (n_in, n_out) in enumerate(zip(widths, widths[1:], strict=False)):
            layers.append(nn.Linear(n_in, n_out))
            if i < len(normed) and normed[i]:
                layers.append(nn.BatchNorm1d(n_out))
        model = nn.Sequential(*layers)
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(seed)
            with torch.no_grad():
                for p in model.parameters():
                    p.copy_(torch.randn_like(p))
        linears = [m for m in model if isinstance(m, nn.Linear)]
        for layer, freeze in zip(linears, frozen, strict=True):
            layer.bias.requires_grad_(not freeze)
        return model

    return make


def reference_flatten(module: nn.Module) -> torch.Tensor:
    """Trusted reference: copy every parameter into one buffer, then make each a view into it."""
    params = list(module.parameters())
    flat = torch.empty(sum(p.numel() for p in params), dtype=params[0].dtype)
    offset = 0
    for p in params:
        n = p.numel()
        flat[offset:offset + n].copy_(p.detach().reshape(-1))
        p.data = flat[offset:offset + n].view_as(p)
        offset += n
    return flat


def _flatten(answer: Callable, make: Callable[[], nn.Module]) -> tuple[nn.Module, list, list, Any]:
    model = make()
    params = list(model.parameters())
    before = [p.detach().clone() for p in params]
    flat = answer(model)
    if type(flat) is not torch.Tensor:
        raise AnswerTypeError(f"flatten_into_buffer must return the flat torch.Tensor, found {type(flat).__name__}")
    return model, params, before, flat


def observe_views(answer: Callable, make: Callable[[], nn.Module]) -> list[bool]:
    """For each parameter: is it (still) a view into the returned buffer's memory?"""
    model, params, _, flat = _flatten(answer, make)
    return [same_storage(p, flat) for p in model.parameters()]


def observe_values(answer: Callable, make: Callable[[], nn.Module]) -> list[bool]:
    """For each parameter: are its values unchanged by the flattening?"""
    model, _, before, _ = _flatten(answer, make)
    return [torch.equal(p.detach(), b) for p, b in zip(model.parameters(), before, strict=True)]


def observe_layout(answer: Callable, make: Callable[[], nn.Module]) -> dict[str, bool]:
    """Is the buffer one 1-D tensor exactly as long as all parameters, each on its own slots?"""
    model, _, _, flat = _flatten(answer, make)
    params = list(model.parameters())
    total = sum(p.numel() for p in params)
    # Slots of the parameters that are views of the buffer (the "views" case reports the others).
    slots: list[int] = []
    for p in params:
        if same_storage(p, flat):
            start = p.storage_offset() - flat.storage_offset()
            slots += range(start, start + p.numel())
    return {
        "one_dimension": flat.dim() == 1,
        "length_is_parameter_count": flat.numel() == total,
        "parameters_on_own_slots": len(set(slots)) == len(slots) and all(0 <= s < total for s in slots),
    }


def observe_write_through(answer: Callable, make: Callable[[], nn.Module]) -> list[bool]:
    """After ``flat.mul_(2)`` on the buffer: does each parameter show the doubled values?"""
    model, _, before, flat = _flatten(answer, make)
    with torch.no_grad():
        flat.mul_(2.0)
    return [torch.equal(p.detach(), 2.0 * b) for p, b in zip(model.parameters(), before, strict=True)]


def observe_step_through(answer: Callable, make: Callable[[], nn.Module]) -> dict[str, Any]:
    """Train one SGD step on ``model.parameters()``: are they still trainable leaves, and does the
    buffer hold the stepped values?"""
    model, params, _, flat = _flatten(answer, make)
    now = list(model.parameters())
    optimizer = torch.optim.SGD(now, lr=0.5)
    torch.manual_seed(3)
    x = torch.randn(6, model[0].in_features)
    model(x).pow(2).mean().backward()
    optimizer.step()
    stepped = torch.cat([p.detach().reshape(-1) for p in now]) if now else torch.zeros(0)
    return {
        "same_parameter_objects": len(now) == len(params) and all(a is b for a, b in zip(now, params, strict=False)),
        "parameters_are_leaves": all(type(p) is nn.Parameter and p.is_leaf for p in now),
        "buffer_holds_stepped_values": flat.shape == stepped.shape and torch.equal(flat.detach(), stepped),
    }


CAT_COPIES = (
    "torch.cat (and flatten, reshape of a copy, clone) copies the parameters into new memory: the buffer "
    "then holds their values, but the parameters do not read it, so a write to the buffer never reaches "
    "them. Each parameter must come to read its own slice of the buffer, as the same nn.Parameter object."
)
VALUES_LOST = (
    "pointing a parameter at a slice of a fresh buffer replaces its values with whatever the buffer held: "
    "copy each parameter's values into its slice first, then make the parameter a view of that slice."
)
OVERLAP = (
    "each parameter needs its own slots: advance the offset by p.numel() after each parameter, and size the "
    "buffer as the total number of parameter elements (buffers such as BatchNorm's running mean are not "
    "parameters)."
)
NOT_PARAMETERS = (
    "replacing the parameters (setattr, or registering new tensors) breaks the module: optimizers and DDP "
    "hold the original nn.Parameter objects. Keep the objects and change only the memory they read. "
    "Assigning p.data re-points a parameter at other memory before any graph uses it, which is right "
    "here; writing through .data into a tensor a graph saved hides the write from the version counter, "
    "which is the trap of Chapters 2 and 7."
)
WRITE_THROUGH = (
    "a write to the buffer must show in every parameter: that is what makes one all-reduce of the buffer "
    "update all the parameters. The parameters must be views of the buffer, not copies."
)


def _all_false(found: object, _inputs: tuple) -> bool:
    return type(found) is list and bool(found) and not any(found)


def _detached_parameters(found: object, _inputs: tuple) -> bool:
    return type(found) is dict and not found.get("same_parameter_objects", True)


def like_reference(observe: Callable[..., Any]) -> Callable[..., Any]:
    """A case's expected value: the same observation of the trusted flattening."""
    return lambda make: observe(reference_flatten, make)


flatten = exercise("buckets-flatten", "flatten_into_buffer", returns="observation")
flatten.case("views", "views of flatten_into_buffer(the chapter's two-layer model)", lambda: (small_model,),
             call=observe_views, expect=like_reference(observe_views), otherwise=CAT_COPIES,
             diagnoses=(Diagnosis(_all_false, CAT_COPIES),))
flatten.case("values", "values of flatten_into_buffer(the chapter's two-layer model)", lambda: (small_model,),
             call=observe_values, expect=like_reference(observe_values), otherwise=VALUES_LOST)
flatten.case("layout", "layout of flatten_into_buffer(the chapter's two-layer model)", lambda: (small_model,),
             call=observe_layout, expect=like_reference(observe_layout), otherwise=OVERLAP)
flatten.case("step-through", "step-through of flatten_into_buffer(the chapter's two-layer model)",
             lambda: (small_model,),
             call=observe_step_through, expect=like_reference(observe_step_through), otherwise=WRITE_THROUGH,
             diagnoses=(Diagnosis(_detached_parameters, NOT_PARAMETERS),))
flatten.case("write-through", "write-through of flatten_into_buffer(the chapter's two-layer model)",
             lambda: (small_model,),
             call=observe_write_through, expect=like_reference(observe_write_through), otherwise=WRITE_THROUGH,
             hidden=True)
flatten.case("normed-views", "views of flatten_into_buffer(a model with BatchNorm buffers and a frozen bias)",
             lambda: (normed_model,),
             call=observe_views, expect=like_reference(observe_views), otherwise=CAT_COPIES,
             diagnoses=(Diagnosis(_all_false, CAT_COPIES),), hidden=True)
flatten.case("normed-layout", "layout of flatten_into_buffer(a model with BatchNorm buffers and a frozen bias)",
             lambda: (normed_model,),
             call=observe_layout, expect=like_reference(observe_layout), otherwise=OVERLAP, hidden=True)
flatten.case("normed-values", "values of flatten_into_buffer(a model with BatchNorm buffers and a frozen bias)",
             lambda: (normed_model,),
             call=observe_values, expect=like_reference(observe_values), otherwise=VALUES_LOST, hidden=True)
flatten.case("drawn-views", "views of flatten_into_buffer(a hidden model)", lambda draw: (drawn_model(draw),),
             call=observe_views, expect=like_reference(observe_views), otherwise=CAT_COPIES,
             diagnoses=(Diagnosis(_all_false, CAT_COPIES),), hidden=True)
flatten.case("drawn-layout", "layout of flatten_into_buffer(a hidden model)", lambda draw: (drawn_model(draw),),
             call=observe_layout, expect=like_reference(observe_layout), otherwise=OVERLAP, hidden=True)
flatten.case("drawn-step-through", "step-through of flatten_into_buffer(a hidden model)",
             lambda draw: (drawn_model(draw),),
             call=observe_step_through, expect=like_reference(observe_step_through), otherwise=WRITE_THROUGH,
             diagnoses=(Diagnosis(_detached_parameters, NOT_PARAMETERS),), hidden=True)

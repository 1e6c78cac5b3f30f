"""The key of the closed-book companion of Chapter 6: the reference flattening, and the mistakes.

Each is an answer as a learner writes it, run through the companion's drivers on the same
grader-owned modules.
"""

from __future__ import annotations

import torch
from torch import nn

from answer_key.keys import Model, key


def flatten_into_buffer(module: nn.Module) -> torch.Tensor:
    """Copy every parameter into its slice of one buffer, then re-point it at that slice."""
    params = list(module.parameters())
    flat = torch.empty(sum(p.numel() for p in params), dtype=params[0].dtype)
    offset = 0
    for p in params:
        n = p.numel()
        flat[offset:offset + n].copy_(p.detach().reshape(-1))
        p.data = flat[offset:offset + n].view_as(p)
        offset += n
    return flat


def _cat_copies(module: nn.Module) -> torch.Tensor:
    return torch.cat([p.detach().reshape(-1) for p in module.parameters()])


def _default_dtype(module: nn.Module) -> torch.Tensor:
    params = list(module.parameters())
    flat = torch.zeros(sum(p.numel() for p in params))
    offset = 0
    for p in params:
        n = p.numel()
        flat[offset:offset + n] = p.detach().reshape(-1)
        p.data = flat[offset:offset + n].view_as(p)
        offset += n
    return flat


def _views_of_zeros(module: nn.Module) -> torch.Tensor:
    params = list(module.parameters())
    flat = torch.zeros(sum(p.numel() for p in params))
    offset = 0
    for p in params:
        p.data = flat[offset:offset + p.numel()].view_as(p)
        offset += p.numel()
    return flat


def _offset_not_advanced(module: nn.Module) -> torch.Tensor:
    params = list(module.parameters())
    flat = torch.zeros(sum(p.numel() for p in params))
    for p in params:
        n = p.numel()
        flat[:n].copy_(p.detach().reshape(-1))
        p.data = flat[:n].view_as(p)
    return flat


def _new_parameters(module: nn.Module) -> torch.Tensor:
    flat = torch.cat([p.detach().reshape(-1) for p in module.parameters()])
    offset = 0
    for sub in module.modules():
        for name, p in list(sub._parameters.items()):
            if p is None:
                continue
            sub._parameters[name] = nn.Parameter(flat[offset:offset + p.numel()].view_as(p),
                                                 requires_grad=p.requires_grad)
            offset += p.numel()
    return flat


def _sized_from_state(module: nn.Module) -> torch.Tensor:
    flat = torch.zeros(sum(t.numel() for t in module.state_dict().values()))
    offset = 0
    for p in module.parameters():
        n = p.numel()
        flat[offset:offset + n].copy_(p.detach().reshape(-1))
        p.data = flat[offset:offset + n].view_as(p)
        offset += n
    return flat


def _trainable_only(module: nn.Module) -> torch.Tensor:
    params = [p for p in module.parameters() if p.requires_grad]
    flat = torch.empty(sum(p.numel() for p in params))
    offset = 0
    for p in params:
        n = p.numel()
        flat[offset:offset + n].copy_(p.detach().reshape(-1))
        p.data = flat[offset:offset + n].view_as(p)
        offset += n
    return flat


key("buckets-flatten", flatten_into_buffer, models=[
    Model("copies", _cat_copies, "a copy of the parameters' values shared the memory the parameters read."),
    Model("default-dtype", _default_dtype, "a new tensor took the parameters' dtype by itself."),
    Model("values-lost", _views_of_zeros, "a parameter kept its values when it was pointed at fresh memory."),
    Model("one-offset", _offset_not_advanced, "every parameter could start at the buffer's first element."),
    Model("new-parameters", _new_parameters,
          "new Parameter objects over the slices could stand in for the module's own."),
    Model("buffers-get-slots", _sized_from_state, "the module's buffers needed slots in the flat buffer too."),
    Model("trainable-only", _trainable_only, "only the parameters that require grad belonged in the buffer."),
])

"""How a module holds a tensor: as a parameter, a buffer (saved or not) or a plain attribute.

Plain torch, no drawing: the grader's cases import this module without matplotlib.

Defined in Chapter 5, "Parameters, buffers and module ownership" (notebooks/modules/modules.ipynb).
"""

from __future__ import annotations

import torch
from torch import nn

__all__ = ["KINDS", "owner_of", "state_kind"]

#: The kinds of tensor state a module can hold, in the order the chapter introduces them.
KINDS = ("parameter", "buffer", "non-persistent buffer", "plain tensor")


def owner_of(module: nn.Module, name: str) -> tuple[nn.Module, str]:
    """The submodule that holds a dotted name, and the name's last part."""
    path, _, leaf = name.rpartition(".")
    return (module.get_submodule(path) if path else module), leaf


def state_kind(module: nn.Module, name: str) -> str:
    """How ``module`` holds the attribute ``name`` (dotted names reach into submodules).

    Returns:
        One of :data:`KINDS`; ``"plain value"`` for an attribute that is not a tensor;
        ``"missing"`` when there is no such attribute.
    """
    try:
        owner, leaf = owner_of(module, name)
    except AttributeError:
        return "missing"
    if leaf in dict(owner.named_parameters(recurse=False)):
        return "parameter"
    if leaf in dict(owner.named_buffers(recurse=False)):
        # state_dict(keep_vars=True) is the public view of persistence; it does not copy.
        return "buffer" if leaf in owner.state_dict(keep_vars=True) else "non-persistent buffer"
    if leaf not in vars(owner):
        return "missing"
    return "plain tensor" if isinstance(vars(owner)[leaf], torch.Tensor) else "plain value"

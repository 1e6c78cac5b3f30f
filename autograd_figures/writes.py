"""Which tensors a block of code writes in place, and with gradient recording on or off.

:class:`InPlaceWatch` is a torch function mode: inside its ``with`` block it sees every torch
call, and records each one that writes a tensor in place. Two spellings write in place:

* a public operation whose name ends in ``_`` (``add_``, ``lerp_``, ``normal_``; an augmented
  assignment ``p -= ...`` reaches the mode as ``sub_``): it writes its first argument;
* a ``_foreach_`` operation whose name ends in ``_`` (``_foreach_add_``): it writes every tensor
  of the list it is given, in one call. Optimizers take this path with ``foreach=True``; their
  default on CPU is the per-tensor loop, which uses the first spelling.

Torch's private helpers (names starting with ``_``, other than ``_foreach_``) are not recorded.
Only calls made from Python through torch's public API are seen; a write inside a native kernel
(BatchNorm's running statistics) is not a call the mode sees. A Python function that torch makes
overridable, such as ``torch.nn.init.normal_``, reaches the mode as one call with keyword
arguments, before it enters ``no_grad``; the mode cannot see inside it, and does not record it.

Defined in Chapter 5, "Parameters, buffers and module ownership" (notebooks/modules/modules.ipynb).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import torch
from torch.overrides import TorchFunctionMode

__all__ = ["InPlaceCall", "InPlaceWatch", "writes_in_place"]

def writes_in_place(name: str) -> bool:
    """Whether a torch function of this ``__name__`` writes its first argument in place."""
    if name.startswith("_foreach_"):
        return name.endswith("_")
    return name.endswith("_") and not name.startswith("_")


@dataclass(frozen=True)
class InPlaceCall:
    """One in-place call seen by :class:`InPlaceWatch`.

    Attributes:
        name: The function's name, e.g. ``"add_"`` or ``"_foreach_add_"``.
        grad_enabled: Whether gradient recording was on when it ran.
        targets: ``id`` of each tensor it wrote: one for a per-tensor op, the whole list for a
            ``_foreach_`` op. The ids are compared only with tensors alive through the block.
    """

    name: str
    grad_enabled: bool
    targets: tuple[int, ...]

    @property
    def foreach(self) -> bool:
        """Whether this call wrote a list of tensors at once."""
        return self.name.startswith("_foreach_")


def _targets(first: object) -> tuple[int, ...]:
    if isinstance(first, torch.Tensor):
        return (id(first),)
    if isinstance(first, list | tuple):
        return tuple(id(t) for t in first if isinstance(t, torch.Tensor))
    return ()


class InPlaceWatch(TorchFunctionMode):
    """Record every in-place torch call made inside the ``with`` block.

    Example::

        with InPlaceWatch() as watch:
            optimizer.step()
        watch.ops()                      # {("add_", False)}
        watch.written(model.named_parameters())

    Attributes:
        calls: Every in-place call, in the order it ran.
    """

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[InPlaceCall] = []

    def __torch_function__(self, func, types, args=(), kwargs=None):  # noqa: ANN001
        name = getattr(func, "__name__", "")
        if args and writes_in_place(name):
            self.calls.append(InPlaceCall(name, torch.is_grad_enabled(), _targets(args[0])))
        return func(*args, **(kwargs or {}))

    def ops(self) -> set[tuple[str, bool]]:
        """The distinct ``(name, grad_enabled)`` pairs seen."""
        return {(call.name, call.grad_enabled) for call in self.calls}

    def path(self) -> str:
        """``"foreach"`` if any call wrote a list of tensors, ``"per-tensor"`` if only single
        tensors were written, ``"none"`` if nothing was written in place."""
        if not self.calls:
            return "none"
        return "foreach" if any(call.foreach for call in self.calls) else "per-tensor"

    def written(self, named: Iterable[tuple[str, torch.Tensor]]) -> list[str]:
        """The names among ``named`` (e.g. ``module.named_parameters()``) of tensors written."""
        hit = {target for call in self.calls for target in call.targets}
        return [name for name, tensor in named if id(tensor) in hit]

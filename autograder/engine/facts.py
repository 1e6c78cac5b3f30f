"""What a driver reads off tensors after an answer ran, beyond the answer's reach.

An answer runs in the process that observes it, and whatever that process calls afterwards the
answer could have replaced: a method set on the one tensor it returned (``copy.is_contiguous =
lambda: True``), a method or function rebound on torch itself, a ``__torch_function__`` of a
subclass, a torch function or dispatch mode it entered and never left. So a driver reads facts
only from tensors of exactly ``torch.Tensor``, through the functions below (captured when this
module was imported: in the grading sandbox, in the zygote, before any submission's code ran),
and inside :func:`untouched`, where no mode and no subclass sees the calls.

Defined for every chapter's drivers (``autograder/chapters/``) and :mod:`autograder.engine.witness`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import torch
from torch.utils._python_dispatch import _disable_current_modes

__all__ = ["TENSOR", "add_", "clone", "copy_", "data_ptr", "detach", "dtype", "equal", "grad", "grad_fn",
           "is_contiguous", "is_leaf", "is_parameter_or_tensor", "is_tensor", "no_grad", "requires_grad",
           "requires_grad_", "set_grad", "shape", "storage_nbytes", "storage_of", "stride", "untouched", "version"]

TENSOR = torch.Tensor
_PARAMETER = torch.nn.Parameter
_DisableTorchFunction = torch._C.DisableTorchFunction
_no_grad = torch.no_grad

# Methods and properties of torch.Tensor, as they were when this module was imported.
is_contiguous = TENSOR.is_contiguous
clone = TENSOR.clone
detach = TENSOR.detach
add_ = TENSOR.add_
copy_ = TENSOR.copy_
requires_grad_ = TENSOR.requires_grad_
stride = TENSOR.stride
data_ptr = TENSOR.data_ptr
untyped_storage = TENSOR.untyped_storage
equal = torch.equal
version = TENSOR._version.__get__
requires_grad = TENSOR.requires_grad.__get__
grad_fn = TENSOR.grad_fn.__get__
is_leaf = TENSOR.is_leaf.__get__
grad = TENSOR.grad.__get__
set_grad = TENSOR.grad.__set__
dtype = TENSOR.dtype.__get__
shape = TENSOR.shape.__get__
_storage_data_ptr = torch.UntypedStorage.data_ptr
_storage_nbytes = torch.UntypedStorage.nbytes


def is_tensor(value: Any) -> bool:
    """Exactly a ``torch.Tensor``: no subclass, whose methods could answer for it."""
    return type(value) is TENSOR


def is_parameter_or_tensor(value: Any) -> bool:
    """Exactly a ``torch.Tensor`` or torch's own ``nn.Parameter``."""
    return type(value) in (TENSOR, _PARAMETER)


@contextmanager
def untouched() -> Iterator[None]:
    """No torch function mode, no dispatch mode and no ``__torch_function__`` sees the calls made
    here (modes an answer entered and left on are set aside, and come back afterwards)."""
    with _DisableTorchFunction(), _disable_current_modes():
        yield


def storage_of(t: torch.Tensor) -> tuple[int, int]:
    """Where ``t``'s storage starts and how many bytes it holds."""
    storage = untyped_storage(t)
    return _storage_data_ptr(storage), _storage_nbytes(storage)


def storage_nbytes(t: torch.Tensor) -> int:
    return _storage_nbytes(untyped_storage(t))


@contextmanager
def no_grad() -> Iterator[None]:
    with _no_grad():
        yield

"""What a driver reads off tensors and modules after an answer ran, beyond the answer's reach.

An answer runs in the process that observes it, and whatever that process calls afterwards the
answer could have replaced: a method set on the one tensor, module or optimizer it returned or was
given (``copy.is_contiguous = lambda: True``, ``model.parameters = ...``), a method or function
rebound on torch itself (``torch.Tensor.add_``, ``torch.equal``, ``nn.Module.state_dict``), a
``__torch_function__`` of a subclass, a torch function or dispatch mode it entered and never left.
So a driver reads facts only from tensors of exactly ``torch.Tensor`` (or torch's own
``nn.Parameter``), through the functions below (captured when this module was imported: in the
grading sandbox, in the zygote, before any submission's code ran), and inside :func:`untouched`,
where no mode and no subclass sees the calls. A module's parameters and buffers are read off what
it registered, and its state saved, loaded and moved through ``nn.Module``'s own methods, never
through the methods its class or the instance defines: what a parent module sees of it.

Defined for every chapter's drivers (``autograder/chapters/``), :mod:`autograder.engine.witness`,
:mod:`autograder.engine.reduction` and :mod:`autograder.engine.observe`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import torch
from torch import nn
from torch.utils._python_dispatch import _disable_current_modes

__all__ = ["SGD", "TENSOR", "accumulates_into", "add_", "allclose", "any_", "backward", "buffers", "cat", "clone",
           "copy_", "current_node", "data_ptr", "detach", "device", "dtype", "element_size", "equal", "full_like",
           "grad", "grad_fn", "is_contiguous", "is_floating_point", "is_leaf", "is_parameter",
           "is_parameter_or_tensor", "is_tensor", "is_torch_node", "item", "load", "load_state_dict", "matmul", "mean",
           "modes_kept", "mul_", "named_buffers", "named_parameters", "next_nodes", "no_grad", "numel", "parameter",
           "parameters", "power", "register_hook", "register_post_accumulate_grad_hook", "requires_grad",
           "requires_grad_", "reshape", "retains_grad", "save", "saved_tensors_hooks", "saved_values", "set_grad",
           "shape", "state_dict", "storage_nbytes", "storage_of", "stride", "sum_", "tanh", "to", "to_dtype",
           "untouched", "version", "zero_"]

TENSOR = torch.Tensor
_PARAMETER = nn.Parameter
_DisableTorchFunction = torch._C.DisableTorchFunction
_no_grad = torch.no_grad

# Methods and properties of torch.Tensor, as they were when this module was imported.
is_contiguous = TENSOR.is_contiguous
is_floating_point = TENSOR.is_floating_point
clone = TENSOR.clone
detach = TENSOR.detach
reshape = TENSOR.reshape
to_dtype = TENSOR.to
add_ = TENSOR.add_
mul_ = TENSOR.mul_
zero_ = TENSOR.zero_
copy_ = TENSOR.copy_
any_ = TENSOR.any
sum_ = TENSOR.sum
mean = TENSOR.mean
power = TENSOR.pow
item = TENSOR.item
numel = TENSOR.numel
element_size = TENSOR.element_size
requires_grad_ = TENSOR.requires_grad_
stride = TENSOR.stride
data_ptr = TENSOR.data_ptr
untyped_storage = TENSOR.untyped_storage
register_hook = TENSOR.register_hook
register_post_accumulate_grad_hook = TENSOR.register_post_accumulate_grad_hook
version = TENSOR._version.__get__
requires_grad = TENSOR.requires_grad.__get__
grad_fn = TENSOR.grad_fn.__get__
is_leaf = TENSOR.is_leaf.__get__
grad = TENSOR.grad.__get__
retains_grad = TENSOR.retains_grad.__get__
set_grad = TENSOR.grad.__set__
dtype = TENSOR.dtype.__get__
device = TENSOR.device.__get__
shape = TENSOR.shape.__get__
_storage_data_ptr = torch.UntypedStorage.data_ptr
_storage_nbytes = torch.UntypedStorage.nbytes

# Functions of torch, as they were when this module was imported.
equal = torch.equal
allclose = torch.allclose
matmul = torch.matmul
tanh = torch.tanh
cat = torch.cat
full_like = torch.full_like
save = torch.save
load = torch.load
_autograd_backward = torch.autograd.backward
current_node = torch._C._current_autograd_node
saved_tensors_hooks = torch.autograd.graph.saved_tensors_hooks

# A custom autograd Function's node: its class is Python's, and could define what it likes; these
# getters are torch's.
_FUNCTION_NODE = torch._C._FunctionBase
_function_next = _FUNCTION_NODE.next_functions.__get__
_function_saved = _FUNCTION_NODE.saved_tensors.__get__
_HEAP_TYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: a class made at run time, whose attributes can be set

# nn.Module's own methods: what a parent module's checkpoint and .to() do with a module. (Its
# parameters and buffers are read off what it registered: see named_parameters below.)
state_dict = nn.Module.state_dict
load_state_dict = nn.Module.load_state_dict
to = nn.Module.to

# The mode stacks, read and set through torch's own entry points.
_function_modes = torch._C._len_torch_function_stack
_function_mode_at = torch._C._get_function_stack_at
_pop_function_mode = torch._C._pop_torch_function_stack
_push_function_mode = torch._C._push_on_torch_function_stack
_dispatch_modes = torch._C._len_torch_dispatch_stack
_dispatch_mode_at = torch._C._get_dispatch_stack_at
_pop_dispatch_mode = torch._C._pop_torch_dispatch_stack
_push_dispatch_mode = torch._C._push_on_torch_dispatch_stack
_pre_dispatch_modes = torch._ops._len_torch_dispatch_stack_pre_dispatch


def parameter(data: torch.Tensor, requires_grad: bool = True) -> nn.Parameter:
    """``nn.Parameter(data, requires_grad)``, torch's own."""
    return _PARAMETER(data, requires_grad)


def is_tensor(value: Any) -> bool:
    """Exactly a ``torch.Tensor``: no subclass, whose methods could answer for it."""
    return type(value) is TENSOR


def is_parameter(value: Any) -> bool:
    """Exactly torch's own ``nn.Parameter``."""
    return type(value) is _PARAMETER


def is_parameter_or_tensor(value: Any) -> bool:
    """Exactly a ``torch.Tensor`` or torch's own ``nn.Parameter``."""
    return type(value) in (TENSOR, _PARAMETER)


@contextmanager
def untouched() -> Iterator[None]:
    """No torch function mode, no dispatch mode and no ``__torch_function__`` sees the calls made
    here (modes an answer entered and left on are set aside, and come back afterwards)."""
    with _DisableTorchFunction():
        # Setting no mode aside is what torch's helper does when there is none, in a fraction of
        # its time: the checks read facts hundreds of thousands of times a run.
        if not _dispatch_modes() and not _pre_dispatch_modes():
            yield
            return
        with _disable_current_modes():
            yield


@contextmanager
def modes_kept() -> Iterator[None]:
    """The torch function and dispatch mode stacks as they were before the block: a mode the
    block entered and left on, or slipped beneath the others, is taken off when it ends (one it
    took off is put back)."""
    functions = [_function_mode_at(i) for i in range(_function_modes())]
    dispatches = [_dispatch_mode_at(i) for i in range(_dispatch_modes())]
    try:
        yield
    finally:
        if [_function_mode_at(i) for i in range(_function_modes())] != functions:
            while _function_modes():
                _pop_function_mode()
            for mode in functions:
                _push_function_mode(mode)
        if [_dispatch_mode_at(i) for i in range(_dispatch_modes())] != dispatches:
            while _dispatch_modes():
                _pop_dispatch_mode()
            for mode in dispatches:
                _push_dispatch_mode(mode)


def is_torch_node(node: Any) -> bool:
    """A graph node of one of torch's built-in node types (``TanhBackward0``, ``AccumulateGrad``):
    immutable types, which no answer can give an attribute of its own."""
    return node is not None and not type(node).__flags__ & _HEAP_TYPE


def next_nodes(node: Any) -> list[Any]:
    """The nodes a graph node leads to, read through torch's getters (none for an object that is
    no graph node)."""
    if is_torch_node(node) and hasattr(type(node), "next_functions"):
        found = node.next_functions
    elif isinstance(node, _FUNCTION_NODE):
        found = _function_next(node)
    else:
        return []
    return [after for after, _ in found]


def accumulates_into(node: Any) -> Any:
    """The leaf an ``AccumulateGrad`` node of torch's writes ``.grad`` into (None for any other node)."""
    if is_torch_node(node) and type(node).__name__ == "AccumulateGrad":
        return node.variable
    return None


def saved_values(node: Any) -> list[str] | None:
    """Read every tensor a graph node saved for backward, as torch gives them: the names of a
    built-in node's saved attributes after reading each (a read of a stale save raises torch's
    error), a custom Function's saved tensors through torch's getter; None for no graph node."""
    if is_torch_node(node):
        names = [name for name in dir(node) if name.startswith("_saved_")]
        for name in names:
            getattr(node, name)
        return names
    if isinstance(node, _FUNCTION_NODE):
        _function_saved(node)
        return ["saved_tensors"]
    return None


def _named_members(module: nn.Module, registry: str, recurse: bool) -> list[tuple[str, torch.Tensor]]:
    """The tensors ``module`` (and, with ``recurse``, every submodule it registered, each once)
    registered in ``registry`` (``_parameters`` or ``_buffers``), each once, by dotted name: what
    ``nn.Module.named_parameters`` and ``named_buffers`` give, read off the registrations
    themselves, so that no class or instance redefining a traversal method answers for them."""
    modules, seen_modules, pending = [], set(), [("", module)]
    while pending:
        prefix, current = pending.pop()
        if id(current) in seen_modules:
            continue
        seen_modules.add(id(current))
        modules.append((prefix, current))
        if recurse:
            children = [(f"{prefix}.{name}" if prefix else name, child)
                        for name, child in vars(current).get("_modules", {}).items() if child is not None]
            pending += reversed(children)
    found, seen = [], set()
    for prefix, current in modules:
        for name, value in vars(current).get(registry, {}).items():
            if value is None or id(value) in seen:
                continue
            seen.add(id(value))
            found.append((f"{prefix}.{name}" if prefix else name, value))
    return found


def named_parameters(module: nn.Module, recurse: bool = True) -> list[tuple[str, torch.Tensor]]:
    """``module.named_parameters(recurse=recurse)``, as the module registered them."""
    return _named_members(module, "_parameters", recurse)


def parameters(module: nn.Module, recurse: bool = True) -> list[torch.Tensor]:
    """``module.parameters(recurse=recurse)``, as the module registered them."""
    return [value for _name, value in named_parameters(module, recurse)]


def named_buffers(module: nn.Module, recurse: bool = True) -> list[tuple[str, torch.Tensor]]:
    """``module.named_buffers(recurse=recurse)``, as the module registered them."""
    return _named_members(module, "_buffers", recurse)


def buffers(module: nn.Module, recurse: bool = True) -> list[torch.Tensor]:
    """``module.buffers(recurse=recurse)``, as the module registered them."""
    return [value for _name, value in named_buffers(module, recurse)]


def storage_of(t: torch.Tensor) -> tuple[int, int]:
    """Where ``t``'s storage starts and how many bytes it holds."""
    storage = untyped_storage(t)
    return _storage_data_ptr(storage), _storage_nbytes(storage)


def storage_nbytes(t: torch.Tensor) -> int:
    return _storage_nbytes(untyped_storage(t))


def backward(t: torch.Tensor, gradient: torch.Tensor | None = None) -> None:
    """``t.backward(gradient)``, through torch's own ``autograd.backward``."""
    _autograd_backward(t, gradient)


class SGD:
    """``torch.optim.SGD(params, lr)`` with its defaults (no momentum, no weight decay), written out
    with the functions above: made, it refuses what SGD refuses; ``step()`` and ``zero_grad()`` do
    what SGD's do (the same arithmetic, bit for bit).

    Raises:
        ValueError, TypeError: as ``torch.optim.SGD`` does, with its messages.
    """

    def __init__(self, params: Iterable[torch.Tensor], lr: float) -> None:
        self.params, self.lr = list(params), lr
        if not self.params:
            raise ValueError("optimizer got an empty parameter list")
        for p in self.params:
            if not isinstance(p, TENSOR):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is " + torch.typename(p))
            if not (is_leaf(p) or retains_grad(p)):
                raise ValueError("can't optimize a non-leaf Tensor")

    def step(self) -> None:
        with _no_grad():
            for p in self.params:
                g = grad(p)
                if g is not None:
                    add_(p, g, alpha=-self.lr)

    def zero_grad(self) -> None:
        for p in self.params:
            if grad(p) is not None:
                set_grad(p, None)


@contextmanager
def no_grad() -> Iterator[None]:
    with _no_grad():
        yield

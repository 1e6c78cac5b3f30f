"""The call recorder: which torch functions an answer called while a case ran.

A torch function mode sees every torch function and tensor method an answer calls, including
the getter of ``Tensor.data`` (it reaches the mode as the property's ``__get__``). A case that
forbids a shortcut names the calls it refuses; the recorder lets them through, notes them, and
the judge refuses the case afterwards, so an answer that catches the error cannot hide the call.
"""

from __future__ import annotations

from typing import Any

from torch.overrides import TorchFunctionMode

DATA = ".data"
ANY_TORCH = "*"


def call_name(func: Any) -> str:
    """A torch function's name as a learner writes it: ``view``, ``reshape``, ``.data``."""
    name = getattr(func, "__name__", "") or ""
    if name == "__get__":
        owner = getattr(func, "__self__", None)
        if getattr(owner, "__name__", "") == "data":
            return DATA
        return f".{getattr(owner, '__name__', 'attribute')}"
    return name


class CallRecorder(TorchFunctionMode):
    """Records, in order of first call, the watched torch calls made while active.

    Args:
        watched: Names to record (as :func:`call_name` gives them); ``ANY_TORCH`` records every
            torch function and tensor method.
    """

    def __init__(self, watched: tuple[str, ...]) -> None:
        super().__init__()
        self.watched = frozenset(watched)
        self.calls: list[str] = []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        name = call_name(func)
        if (ANY_TORCH in self.watched or name in self.watched) and name not in self.calls:
            self.calls.append(name)
        return func(*args, **(kwargs or {}))


"""Answer source for a torch function mode that lies about the tensors an answer handled, left on
after the answer returns (each catalogue's ``rebinds-what-its-driver-reads`` exploits start with it).

``lie_on()`` slips the liar beneath every mode on the stack (so a driver's own mode, entered
around the answer and left when it returns, does not take it off) and forgets its earlier lies
(``lie_on(forget=False)`` keeps them: an answer that builds several objects lies for each);
``liar.tell(t, name, *answers)`` makes it answer a call named ``name`` (a function or method, or a
property such as ``_version`` or ``grad``) whose first or second argument is ``t``: with the
answers in turn, the last one again and again; a callable answer is called with the call's
arguments, and ``TRUTH`` lets that call through. It answers for nothing else: whatever runs after
the answer's own checks (another answer's, in the same process) sees torch as it is.
"""

LIAR = '''
import torch as _torch
from torch.overrides import TorchFunctionMode as _Mode

TRUTH = object()


class _Liar(_Mode):
    def __init__(self):
        super().__init__()
        self.told = []

    def tell(self, t, name, *answers):
        self.told.append((t, name, list(answers)))

    def __torch_function__(self, func, types, args=(), kwargs=None):
        name = getattr(func, "__name__", "")
        if name in ("__get__", "__set__"):
            name = getattr(getattr(func, "__self__", None), "__name__", name)
        for t, told, answers in self.told:
            if told == name and any(a is t for a in args[:2]):
                answer = answers.pop(0) if len(answers) > 1 else answers[0]
                if answer is not TRUTH:
                    return answer(*args, **(kwargs or {})) if callable(answer) else answer
                break
        return func(*args, **(kwargs or {}))


_LIAR = _Liar()


def lie_on(forget=True):
    if forget:
        _LIAR.told.clear()
    above = []
    while _torch._C._len_torch_function_stack():
        mode = _torch._C._pop_torch_function_stack()
        if mode is not _LIAR:
            above.append(mode)
    _torch._C._push_on_torch_function_stack(_LIAR)
    for mode in reversed(above):
        _torch._C._push_on_torch_function_stack(mode)
    return _LIAR


'''

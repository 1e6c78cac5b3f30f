"""Answers learners write for the closed-book companion of Chapter 2 — right, wrong and gaming.

An answer defines all four functions; each wrong answer gets one of them wrong the way a learner
would and names the model (``answer_key.inplace_closed_book``) its feedback must name, or None.
Each exploit must score no more than the untouched answer.
"""

from tests.catalog.lying import LIAR

LEAF_REFUSAL = '''
def leaf_refusal(x0):
    x = x0.clone().requires_grad_(True)
    x.add_(1)
'''

STALE_SAVE = '''
def stale_save(x0, f):
    x = x0.clone().requires_grad_(True)
    y = f(x).sum()
    with torch.no_grad():
        x.add_(1)
    y.backward()
'''

SIGMOID_STALE = '''
def sigmoid_stale(x0):
    x = x0.clone().requires_grad_(True)
    h = x.sigmoid()
    h.mul_(2)
    h.sum().backward()
'''

GRAD_AFTER_REPAIR = '''
def grad_after_repair(x0, f):
    x = x0.clone().requires_grad_(True)
    z = x.clone()
    y = f(z).sum()
    with torch.no_grad():
        x.add_(1)
    y.backward()
    return x.grad
'''

REFERENCE = {"leaf_refusal": LEAF_REFUSAL, "stale_save": STALE_SAVE, "sigmoid_stale": SIGMOID_STALE,
             "grad_after_repair": GRAD_AFTER_REPAIR}
VERSION_TEXT = ("one of the variables needed for gradient computation has been modified by an inplace operation: "
                "[torch.FloatTensor [{n}]] is at version 1; expected version 0 instead.")
LEAF_TEXT = "a leaf Variable that requires grad is being used in an in-place operation."


def answer(**replaced: str) -> str:
    """The reference answer with some of its four functions replaced."""
    return "\n".join(replaced.get(name, source).strip() + "\n\n" for name, source in REFERENCE.items())


RIGHT = {
    "inplace-reproduce": [
        ("clone-then-no-grad", answer()),
        ("autograd-functions", answer(
            leaf_refusal="def leaf_refusal(x0):\n"
                         "    x = torch.tensor(x0.tolist(), requires_grad=True)\n"
                         "    x += 1",
            stale_save="def stale_save(x0, f):\n"
                       "    x = torch.tensor(x0.tolist(), requires_grad=True)\n"
                       "    y = f(x).sum()\n"
                       "    with torch.no_grad():\n"
                       "        x += 1\n"
                       "    torch.autograd.grad(y, x)",
            sigmoid_stale="def sigmoid_stale(x0):\n"
                          "    x = torch.tensor(x0.tolist(), requires_grad=True)\n"
                          "    h = torch.sigmoid(x)\n"
                          "    h *= 2\n"
                          "    torch.autograd.backward((h * x).sum())",
            grad_after_repair="def grad_after_repair(x0, f):\n"
                              "    x = torch.tensor(x0.tolist(), requires_grad=True)\n"
                              "    y = f(x.clone()).sum()\n"
                              "    with torch.no_grad():\n"
                              "        x += 1\n"
                              "    y.backward()\n"
                              "    return x.grad",
        )),
        ("detach-clone-leaf", answer(
            leaf_refusal="def leaf_refusal(x0):\n"
                         "    x = x0.detach().clone()\n"
                         "    x.requires_grad = True\n"
                         "    x.add_(torch.ones_like(x))",
            sigmoid_stale="def sigmoid_stale(x0):\n"
                          "    x = x0.detach().clone().requires_grad_()\n"
                          "    h = torch.special.expit(x)\n"
                          "    h[:] = h * 2\n"
                          "    h.sum().backward()",
            grad_after_repair="def grad_after_repair(x0, f):\n"
                              "    x = x0.detach().clone().requires_grad_()\n"
                              "    z = torch.clone(x)\n"
                              "    loss = f(z).sum()\n"
                              "    with torch.no_grad():\n"
                              "        x.add_(torch.ones_like(x))\n"
                              "    loss.backward()\n"
                              "    return x.grad.clone()",
        )),
    ],
}

_HAND = '''
def stale_save(x0, f):
    x = x0.clone().requires_grad_(True)
    y = f(x).sum()
    with torch.no_grad():
        x.add_(1)
    {raise_it}
'''
_EXACT = f'"{VERSION_TEXT}".format(n=x0.numel())'

WRONG = {
    "inplace-reproduce": [
        ("refusal-under-no-grad", answer(leaf_refusal=(
            "def leaf_refusal(x0):\n    x = x0.clone().requires_grad_(True)\n    with torch.no_grad():\n"
            "        x.add_(1)")), "write-allowed"),
        ("leaf-without-grad", answer(leaf_refusal="def leaf_refusal(x0):\n    x = x0.clone()\n    x.add_(1)"),
         "write-allowed"),
        ("refusal-on-the-callers-tensor", answer(leaf_refusal=(
            "def leaf_refusal(x0):\n    x0.requires_grad_(True)\n    x0.add_(1)")), "callers-tensor"),
        ("update-outside-no-grad", answer(stale_save=STALE_SAVE.replace(
            "    with torch.no_grad():\n        x.add_(1)", "    x.add_(1)")), "update-outside-no-grad"),
        ("stale-save-ignores-f", answer(stale_save=STALE_SAVE.replace("f(x)", "(x ** 2)")), "own-op"),
        ("stale-save-on-a-copy", answer(stale_save=STALE_SAVE.replace("f(x)", "f(x.clone())")),
         "copy-shares-counter"),
        ("sigmoid-writes-a-copy", answer(sigmoid_stale=SIGMOID_STALE.replace("h = x.sigmoid()",
                                                                               "h = x.sigmoid().clone()")),
         "sigmoid-spared"),
        ("sigmoid-out-of-place", answer(sigmoid_stale=SIGMOID_STALE.replace("h.mul_(2)", "h = h * 2")),
         "sigmoid-spared"),
        ("missing-clone", answer(grad_after_repair=GRAD_AFTER_REPAIR.replace("z = x.clone()", "z = x")),
         "update-spares-saved"),
        ("formula-for-one-op", answer(grad_after_repair=GRAD_AFTER_REPAIR.replace("f(z)", "(z ** 2)")),
         "square-formula"),
        ("clone-after-the-write", answer(grad_after_repair=(
            "def grad_after_repair(x0, f):\n    x = x0.clone().requires_grad_(True)\n    with torch.no_grad():\n"
            "        x.add_(1)\n    y = f(x.clone()).sum()\n    y.backward()\n    return x.grad")),
         "clone-after-update"),
        ("torch-asked-for-the-gradient", answer(grad_after_repair=(
            "def grad_after_repair(x0, f):\n    x = x0.clone().requires_grad_(True)\n"
            "    (grad,) = torch.autograd.grad(f(x.clone()).sum(), x)\n    return grad")), "update-optional"),
        ("f-on-a-fresh-leaf", answer(grad_after_repair=(
            "def grad_after_repair(x0, f):\n    x = x0.clone().requires_grad_(True)\n"
            "    xf = x.detach().clone().requires_grad_(True)\n    y = f(xf).sum()\n"
            "    with torch.no_grad():\n        x.add_(1)\n    y.backward()\n    return xf.grad")),
         "update-optional"),
        ("update-after-backward", answer(grad_after_repair=(
            "def grad_after_repair(x0, f):\n    x = x0.clone().requires_grad_(True)\n    y = f(x).sum()\n"
            "    y.backward()\n    with torch.no_grad():\n        x.add_(1)\n    return x.grad")),
         "update-after-backward"),
        ("grad-of-the-copy", answer(grad_after_repair=GRAD_AFTER_REPAIR.replace("return x.grad", "return z.grad")),
         "grad-on-the-copy"),
        ("data-repair", answer(grad_after_repair=(
            "def grad_after_repair(x0, f):\n    x = x0.clone().requires_grad_(True)\n    y = f(x).sum()\n"
            "    x.data.add_(1)\n    y.backward()\n    return x.grad")), "data-update"),
        ("data-on-the-copy", answer(grad_after_repair=GRAD_AFTER_REPAIR.replace(
            "    with torch.no_grad():\n        x.add_(1)", "    x.data.add_(1)")), None),
        # torch's words raised by the answer itself, where torch was to raise them.
        ("leaf-refusal-raised-by-hand", answer(leaf_refusal=(
            "def leaf_refusal(x0):\n    x = x0.detach().clone().requires_grad_(True)\n"
            "    if x.is_leaf and x.requires_grad:\n"
            f"        raise RuntimeError({LEAF_TEXT!r})\n    x.add_(1)")), "leaf-refusal-by-hand"),
        ("leaf-refusal-raised-again", answer(leaf_refusal=(
            "def leaf_refusal(x0):\n    x = x0.clone().requires_grad_(True)\n    try:\n        x.add_(1)\n"
            "    except RuntimeError as err:\n        raise RuntimeError(str(err)) from None")),
         "leaf-refusal-by-hand"),
        ("stale-save-raised-by-hand", answer(stale_save=_HAND.format(
            raise_it=f"raise RuntimeError({_EXACT})")), "stale-save-by-hand"),
        ("sigmoid-stale-raised-by-hand", answer(sigmoid_stale=(
            "def sigmoid_stale(x0):\n    x = x0.clone().requires_grad_(True)\n    h = x.sigmoid()\n"
            "    h.mul_(2)\n    raise RuntimeError(\n"
            "        'one of the variables needed for gradient computation has been modified by an inplace '\n"
            "        f'operation: [torch.FloatTensor [{x0.numel()}]], which is output 0 of Sigmoid, is at '\n"
            "        'version 1; expected version 0 instead.')")), "sigmoid-stale-by-hand"),
    ],
}

STUBS = {
    "leaf_refusal": "def leaf_refusal(x0):\n    raise NotImplementedError()",
    "stale_save": "def stale_save(x0, f):\n    raise NotImplementedError()",
    "sigmoid_stale": "def sigmoid_stale(x0):\n    raise NotImplementedError()",
    "grad_after_repair": "def grad_after_repair(x0, f):\n    raise NotImplementedError()",
}


def exploit(**replaced: str) -> str:
    """An exploit: the functions it games, every other one left as released."""
    return "\n".join(replaced.get(name, source).strip() + "\n\n" for name, source in STUBS.items())


EXPLOITS = {
    "inplace-reproduce": [
        # The version error raised by hand after a real forward and update, without backward.
        ("raise-torchs-text", exploit(stale_save=_HAND.format(raise_it=f"raise RuntimeError({_EXACT})"))),
        ("torch-check", exploit(stale_save=_HAND.format(raise_it=f"torch._check(False, lambda: {_EXACT})"))),
        ("assert-async", exploit(stale_save=_HAND.format(
            raise_it=f"torch._assert_async(torch.tensor(False), {_EXACT})"))),
        ("compiled-as-torch", exploit(stale_save=_HAND.format(
            raise_it=f"exec(compile('raise RuntimeError(m)', torch.autograd.graph.__file__, 'exec'), "
                     f"{{'m': {_EXACT}}})"))),
        ("generator-throw", exploit(stale_save=_HAND.format(
            raise_it=f"g = (i for i in [0])\n    g.throw(RuntimeError({_EXACT}))"))),
        ("rewritten-torch-error", exploit(stale_save=_HAND.format(
            raise_it=f"try:\n        torch.ones(2).view(3)\n    except RuntimeError as err:\n"
                     f"        err.args = ({_EXACT},)\n        raise"))),
        # sigmoid_stale made to fail through pow's saved x, never writing h.
        ("sigmoid-through-pow", exploit(sigmoid_stale=(
            "def sigmoid_stale(x0):\n    x = x0.clone().requires_grad_(True)\n    h = x.sigmoid()\n"
            "    y = (h * x ** 2).sum()\n    with torch.no_grad():\n        x.add_(1)\n    y.backward()"))),
        # The witness of torch calls switched off around the sequence.
        ("witness-off", exploit(
            leaf_refusal="def leaf_refusal(x0):\n    with torch._C.DisableTorchFunction():\n"
                         "        x = x0.clone().requires_grad_(True)\n        x.add_(1)",
            sigmoid_stale="def sigmoid_stale(x0):\n    with torch._C.DisableTorchFunction():\n"
                          "        x = x0.clone().requires_grad_(True)\n        h = x.sigmoid()\n"
                          "        h.mul_(2)\n        h.sum().backward()")),
        ("leaf-error-by-hand", exploit(leaf_refusal=(
            f"def leaf_refusal(x0):\n    x = x0.clone().requires_grad_(True)\n    raise RuntimeError({LEAF_TEXT!r})"))),
        ("leaf-error-from-another-leaf", exploit(leaf_refusal=(
            "def leaf_refusal(x0):\n    x = torch.zeros(3, requires_grad=True)\n    x.add_(1)"))),
        # The refusal on another leaf, whose detach() gives x0's values; the repair's update written
        # through .data (which moves no version), with torch's _version rebound while backward runs
        # and a mode left on afterwards, each saying that it moved x's version.
        ("rebinds-what-its-driver-reads", LIAR + exploit(
            leaf_refusal="def leaf_refusal(x0):\n"
                         "    lie_on()\n"
                         "    x = torch.zeros_like(x0, requires_grad=True)\n"
                         "    x.detach = lambda *args, **kwargs: x0.clone()\n"
                         "    x.add_(1)",
            grad_after_repair="def grad_after_repair(x0, f):\n"
                              "    liar = lie_on()\n"
                              "    x = x0.clone().requires_grad_(True)\n"
                              "    z = x.clone()\n"
                              "    y = f(z).sum()\n"
                              "    version = x._version\n"
                              "    x.data.add_(1)\n"
                              "    liar.tell(x, '_version', version + 1)\n"
                              "    real = torch._C.TensorBase._version\n"
                              "    torch.Tensor._version = property(\n"
                              "        lambda t: version + 1 if t is x else real.__get__(t))\n"
                              "    try:\n"
                              "        y.backward()\n"
                              "    finally:\n"
                              "        del torch.Tensor._version\n"
                              "    return x.grad")),
        # Driver reports forged by rebinding the observing side.
        ("forged-reports", "import autograder.chapters.inplace_closed_book as _c\n\n\n"
                           "def _forged(function, x0, *f):\n"
                           f"    return {{'raised': ['RuntimeError', {VERSION_TEXT!r}], 'x0 left alone': True}}\n\n\n"
                           "for _case in _c.reproduce.cases:\n"
                           "    if _case.call is not None:\n"
                           "        object.__setattr__(_case, 'call', _forged)\n\n" + exploit(
                               grad_after_repair="def grad_after_repair(x0, f):\n    return x0 * 0")),
    ],
}


# Answers that forge the observation itself (see tests/forgeries.py): judged against a key made
# apart, as the sandboxed grader judges; in a learner's kernel or plain nbgrader nothing can stop
# them, so they are not among the EXPLOITS that tests/grading.py also grades through nbgrader.
FORGERIES: dict[str, list[tuple[str, str]]] = {}
for _grade_id, _label in [('inplace-reproduce', 'forged-reports')]:
    _entry = next(e for e in EXPLOITS[_grade_id] if e[0] == _label)
    EXPLOITS[_grade_id].remove(_entry)
    FORGERIES.setdefault(_grade_id, []).append(_entry)

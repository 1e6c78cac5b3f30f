"""Answers learners write for the closed-book companion of Chapter 3 — right, wrong and gaming.

Each wrong answer names the model (``answer_key.detach_closed_book``) its feedback must name, or
None; each exploit must score no more than the untouched answer.
"""

from tests.catalog.lying import LIAR

REFERENCE = '''
def cut_leaf(x0, f):
    x = x0.detach().clone().requires_grad_(True)
    y = f(x)
    u = y.detach()
    z = (x * u).sum()
    z.backward()
    return x
'''

RIGHT = {
    "detach-reproduce": [
        ("detach", REFERENCE),
        ("no-grad-forward", "def cut_leaf(x0, f):\n"
                            "    x = torch.tensor(x0.tolist(), requires_grad=True)\n"
                            "    with torch.no_grad():\n"
                            "        u = f(x)\n"
                            "    torch.autograd.backward(torch.sum(x * u))\n"
                            "    return x"),
        ("detach-then-clone", "def cut_leaf(x0, f):\n"
                              "    x = x0.detach().clone()\n"
                              "    x.requires_grad = True\n"
                              "    u = f(x).detach().clone()\n"
                              "    (u * x).sum().backward()\n"
                              "    return x"),
        # f read x's values through a detached alias of x: the same u, with no path back to x.
        ("f-on-a-detached-alias", REFERENCE.replace("y = f(x)\n    u = y.detach()", "u = f(x.detach())")),
        # Section 2.7's escape: f's result is an inference tensor, cloned outside inference mode.
        ("inference-mode-then-clone", "def cut_leaf(x0, f):\n"
                                      "    x = x0.detach().clone().requires_grad_()\n"
                                      "    with torch.inference_mode():\n"
                                      "        u = f(x)\n"
                                      "    (x * u.clone()).sum().backward()\n"
                                      "    return x"),
    ],
}

WRONG = {
    "detach-reproduce": [
        ("no-detach", REFERENCE.replace("u = y.detach()", "u = y"), "not-cut"),
        ("clone-instead-of-detach", REFERENCE.replace("u = y.detach()", "u = y.clone()"), "not-cut"),
        ("data-instead-of-detach", REFERENCE.replace("u = y.detach()", "u = y.data"), "data-like-detach"),
        ("detaches-x", REFERENCE.replace("z = (x * u).sum()", "z = (x.detach() * y).sum()"), "cut-the-leaf"),
        ("formula-for-one-op", REFERENCE.replace("y = f(x)", "y = torch.sin(x)"), "own-op"),
        ("returns-the-gradient", REFERENCE.replace("return x", "return x.grad"), "returns-the-gradient"),
        ("backward-twice", REFERENCE.replace("z.backward()", "z.backward(retain_graph=True)\n    z.backward()"),
         "backward-twice"),
        ("leaf-is-the-callers-tensor", "def cut_leaf(x0, f):\n    x0.requires_grad_(True)\n"
                                       "    (x0 * f(x0).detach()).sum().backward()\n    return x0", "callers-tensor"),
        ("grad-written-by-hand", "def cut_leaf(x0, f):\n    x = x0.clone().requires_grad_(True)\n"
                                 "    f(x)\n    x.grad = f(x0)\n    return x", None),
        ("clone-of-x0", REFERENCE.replace("x0.detach().clone()", "x0.clone()"), "clone-is-a-leaf"),
        ("returns-a-new-leaf", REFERENCE.replace("return x", "return x.detach().clone().requires_grad_()"), None),
    ],
}

EXPLOITS = {
    "detach-reproduce": [
        # .data hidden behind a detach(): still an alias with a counter of its own.
        ("data-after-detach", REFERENCE.replace("u = y.detach()", "u = y.detach().data")),
        # The witnesses switched off, with .data inside.
        ("witness-off", "def cut_leaf(x0, f):\n    x = x0.clone().requires_grad_(True)\n"
                        "    with torch._C.DisableTorchFunction():\n        u = f(x).data\n"
                        "    (x * u).sum().backward()\n    return x"),
        ("saved-hooks-off", "def cut_leaf(x0, f):\n    x = x0.clone().requires_grad_(True)\n"
                            "    with torch.autograd.graph.disable_saved_tensors_hooks('no'):\n"
                            "        u = f(x).data\n        (x * u).sum().backward()\n    return x"),
        # The gradient set by hand on a leaf that backward never reached.
        ("grad-by-hand", "def cut_leaf(x0, f):\n    x = x0.clone().requires_grad_(True)\n"
                         "    y = f(x)\n    x.grad = y.detach().clone()\n    return x"),
        # .data instead of detach(), with a mode left on that says the alias's version moved when
        # the driver wrote to f's result (as a shared counter would).
        ("rebinds-what-its-driver-reads", LIAR + REFERENCE.replace("    u = y.detach()\n", """    u = y.data
    real = torch._C.TensorBase._version.__get__
    lie_on().tell(u, "_version", TRUTH, lambda t: real(t) + 1)
""")),
        ("forged-report", "import autograder.chapters.detach_closed_book as _c\n\n\n"
                          "def _forged(answer, x0, name):\n"
                          "    return {'f applied to': 'a leaf that requires grad'}\n\n\n"
                          "for _case in _c.reproduce.cases:\n    if _case.call is not None:\n"
                          "        object.__setattr__(_case, 'call', _forged)\n\n\n"
                          "def cut_leaf(x0, f):\n    raise NotImplementedError()\n"),
    ],
}


# Answers that forge the observation itself (see tests/forgeries.py): judged against a key made
# apart, as the sandboxed grader judges; in a learner's kernel or plain nbgrader nothing can stop
# them, so they are not among the EXPLOITS that tests/grading.py also grades through nbgrader.
FORGERIES: dict[str, list[tuple[str, str]]] = {}
for _grade_id, _label in [('detach-reproduce', 'forged-report')]:
    _entry = next(e for e in EXPLOITS[_grade_id] if e[0] == _label)
    EXPLOITS[_grade_id].remove(_entry)
    FORGERIES.setdefault(_grade_id, []).append(_entry)

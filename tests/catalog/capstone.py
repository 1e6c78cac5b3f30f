"""Answers learners write for Chapter 7, right and wrong, as answer-cell sources.

Each wrong answer names the misconception message its test cells must report. The sources run after
the chapter's setup cell (torch and ``capstone_inputs`` imported).
"""

from autograder.capstone import (
    ACCUMULATES,
    LEAF_ERROR,
    NO_ERROR,
    NORMALISER_LOST,
    STILL_RAISES,
    WRONG_OP,
)

BROKEN = '''
def broken():
    w, x = capstone_inputs()
    e = (x @ w).exp()
    e /= e.sum(dim=1, keepdim=True)  # in place on the output exp() saved
    e.sum().backward()
'''

FIXED = '''
def fixed() -> torch.Tensor:
    w, x = capstone_inputs()
    e = (x @ w).exp()
    probs = e / e.sum(dim=1, keepdim=True)  # a new tensor: exp's output stays intact
    targets = torch.tensor([0, 2, 1, 3, 0])
    loss = -probs[torch.arange(5), targets].log().mean() + 1e-3 * w.pow(2).sum()
    loss.backward()
    return w.grad
'''

BROKEN_MUL = '''
def broken():
    w, x = capstone_inputs()
    e = (x @ w).exp()
    e.mul_(2.0)
    e.sum().backward()
'''

FIXED_SOFTMAX = '''
def fixed():
    w, x = capstone_inputs()
    probs = torch.softmax(x @ w, dim=1)
    loss = -probs[torch.arange(5), torch.tensor([0, 2, 1, 3, 0])].log().mean() + 1e-3 * (w ** 2).sum()
    loss.backward()
    return w.grad
'''

FIXED_CLONE = '''
def fixed():
    w, x = capstone_inputs()
    e = (x @ w).exp().clone()  # the in-place division now writes a copy nobody saved
    e /= e.sum(dim=1, keepdim=True)
    loss = -e[torch.arange(5), torch.tensor([0, 2, 1, 3, 0])].log().mean() + 1e-3 * w.pow(2).sum()
    (grad,) = torch.autograd.grad(loss, w)
    return grad
'''

BROKEN_NO_ERROR = '''
def broken():
    w, x = capstone_inputs()
    e = (x @ w).exp()
    e = e / e.sum(dim=1, keepdim=True)
    e.sum().backward()
'''

BROKEN_LEAF = '''
def broken():
    w, x = capstone_inputs()
    w.add_(1.0)
'''

BROKEN_SIGMOID = '''
def broken():
    w, x = capstone_inputs()
    s = (x @ w).sigmoid()
    s.mul_(2.0)
    s.sum().backward()
'''

BROKEN_CAUGHT = '''
def broken():
    w, x = capstone_inputs()
    e = (x @ w).exp()
    e /= e.sum(dim=1, keepdim=True)
    try:
        e.sum().backward()
    except RuntimeError as err:
        print("reproduced:", err)
'''

FIXED_DATA = '''
def fixed():
    w, x = capstone_inputs()
    e = (x @ w).exp()
    e.data /= e.data.sum(dim=1, keepdim=True)  # silences the version counter
    loss = -e[torch.arange(5), torch.tensor([0, 2, 1, 3, 0])].log().mean() + 1e-3 * w.pow(2).sum()
    loss.backward()
    return w.grad
'''

FIXED_DETACH = '''
def fixed():
    w, x = capstone_inputs()
    e = (x @ w).exp()
    probs = e / e.sum(dim=1, keepdim=True).detach()
    loss = -probs[torch.arange(5), torch.tensor([0, 2, 1, 3, 0])].log().mean() + 1e-3 * w.pow(2).sum()
    loss.backward()
    return w.grad
'''

FIXED_NO_GRAD = '''
def fixed():
    w, x = capstone_inputs()
    e = (x @ w).exp()
    with torch.no_grad():
        e /= e.sum(dim=1, keepdim=True)
    loss = -e[torch.arange(5), torch.tensor([0, 2, 1, 3, 0])].log().mean() + 1e-3 * w.pow(2).sum()
    loss.backward()
    return w.grad
'''

FIXED_GLOBAL = '''
w, x = capstone_inputs()


def fixed():
    e = (x @ w).exp()
    probs = e / e.sum(dim=1, keepdim=True)
    loss = -probs[torch.arange(5), torch.tensor([0, 2, 1, 3, 0])].log().mean() + 1e-3 * w.pow(2).sum()
    loss.backward()
    return w.grad
'''

RIGHT = {
    "capstone-regression": [
        ("reference", BROKEN + "\n" + FIXED),
        ("mul-softmax", BROKEN_MUL + "\n" + FIXED_SOFTMAX),
        ("clone", BROKEN + "\n" + FIXED_CLONE),
    ],
    "capstone-selftest": [("literal", 'SELFTEST = {"q1": "exp", "q2": 1, "q3": False}')],
}

WRONG = {
    "capstone-regression": [
        ("reduced-away", BROKEN_NO_ERROR + "\n" + FIXED, NO_ERROR),
        ("leaf-error", BROKEN_LEAF + "\n" + FIXED, LEAF_ERROR),
        ("another-operation", BROKEN_SIGMOID + "\n" + FIXED, WRONG_OP),
        ("catches-its-error", BROKEN_CAUGHT + "\n" + FIXED, NO_ERROR),
        ("data-silences", BROKEN + "\n" + FIXED_DATA, NORMALISER_LOST),
        ("detached-normaliser", BROKEN + "\n" + FIXED_DETACH, NORMALISER_LOST),
        ("no-grad", BROKEN + "\n" + FIXED_NO_GRAD, STILL_RAISES),
        ("global-leaf", BROKEN + "\n" + FIXED_GLOBAL, ACCUMULATES),
    ],
    "capstone-selftest": [
        ("version-2", 'SELFTEST = {"q1": "exp", "q2": 2, "q3": False}', "bumps the version from 0 to 1"),
    ],
}

# The learner's regression tests (the ungraded answer cell "capstone-keep-test").
KEEP_TESTS = '''
def test_broken_still_raises():
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        broken()


def test_fixed_matches_softmax():
    w, x = capstone_inputs()
    probs = torch.softmax(x @ w, dim=1)
    loss = -probs[torch.arange(5), torch.tensor([0, 2, 1, 3, 0])].log().mean() + 1e-3 * w.pow(2).sum()
    loss.backward()
    torch.testing.assert_close(fixed(), w.grad)
'''

"""Answers learners write for the closed-book companion of Chapter 4, right and wrong.

Each wrong answer names the misconception message its test cells must report.
"""

from autograder.leaves_closed_book import (
    GRAPH_FREED,
    INPUT_CHANGED,
    NOT_A_LEAF_THAT_REQUIRES_GRAD,
    NOT_THREE,
    NOT_ZEROED,
    OTHERWISE,
    SHARED,
    USES_AUTOGRAD_GRAD,
    USES_DATA,
    ZEROED_TOO_EARLY,
)

REFERENCE = '''
def two_objectives(w0, f, g):
    w = w0.clone().requires_grad_()
    f(w).sum().backward()
    first = w.grad.clone()
    g(w).sum().backward()
    second = w.grad.clone()
    w.grad = None
    g(w).sum().backward()
    return first, second, w.grad.clone()
'''


def _body(lines: str) -> str:
    return "def two_objectives(w0, f, g):\n" + lines


RIGHT = {
    "leaves-reproduce": [
        ("reference", REFERENCE),
        ("zero-in-place-and-detach", _body(
            "    w = w0.detach().clone()\n"
            "    w.requires_grad_(True)\n"
            "    records = []\n"
            "    for op, zero in ((f, False), (g, False), (g, True)):\n"
            "        if zero:\n"
            "            w.grad.zero_()\n"
            "        op(w).sum().backward()\n"
            "        records.append(w.grad.detach().clone())\n"
            "    return tuple(records)\n")),
        ("retain-graph", _body(
            "    w = torch.tensor(w0.tolist(), dtype=w0.dtype, requires_grad=True)\n"
            "    f(w).sum().backward()\n"
            "    a = w.grad.clone()\n"
            "    second = g(w).sum()\n"
            "    second.backward(retain_graph=True)\n"
            "    b = w.grad.clone()\n"
            "    w.grad.zero_()\n"
            "    second.backward()\n"
            "    return (a, b, w.grad.clone())\n")),
    ],
}

# (label, answer source, message the grade must contain)
WRONG = {
    "leaves-reproduce": [
        ("references-not-copies", _body(
            "    w = w0.clone().requires_grad_()\n"
            "    f(w).sum().backward()\n"
            "    first = w.grad\n"
            "    g(w).sum().backward()\n"
            "    second = w.grad\n"
            "    w.grad.zero_()\n"
            "    g(w).sum().backward()\n"
            "    return first, second, w.grad\n"), SHARED),
        ("zeroes-before-the-second", _body(
            "    w = w0.clone().requires_grad_()\n"
            "    f(w).sum().backward()\n"
            "    first = w.grad.clone()\n"
            "    w.grad = None\n"
            "    g(w).sum().backward()\n"
            "    second = w.grad.clone()\n"
            "    w.grad = None\n"
            "    g(w).sum().backward()\n"
            "    return first, second, w.grad.clone()\n"), ZEROED_TOO_EARLY),
        ("never-zeroes", _body(
            "    w = w0.clone().requires_grad_()\n"
            "    f(w).sum().backward()\n"
            "    first = w.grad.clone()\n"
            "    g(w).sum().backward()\n"
            "    second = w.grad.clone()\n"
            "    g(w).sum().backward()\n"
            "    return first, second, w.grad.clone()\n"), NOT_ZEROED),
        ("formula-for-sin-and-square", _body(
            "    first = torch.cos(w0)\n"
            "    third = 2 * w0\n"
            "    return first, first + third, third\n"), OTHERWISE),
        ("autograd-grad-instead", _body(
            "    w = w0.clone().requires_grad_()\n"
            "    (df,) = torch.autograd.grad(f(w).sum(), w)\n"
            "    (dg,) = torch.autograd.grad(g(w).sum(), w)\n"
            "    return df, df + dg, dg\n"), USES_AUTOGRAD_GRAD.message.split("(the answer")[0]),
        ("leaf-is-the-input", _body(
            "    w = w0.requires_grad_()\n"
            "    f(w).sum().backward()\n"
            "    first = w.grad.clone()\n"
            "    g(w).sum().backward()\n"
            "    second = w.grad.clone()\n"
            "    w.grad = None\n"
            "    g(w).sum().backward()\n"
            "    return first, second, w.grad.clone()\n"), INPUT_CHANGED),
        ("reuses-a-freed-graph", _body(
            "    w = w0.clone().requires_grad_()\n"
            "    f(w).sum().backward()\n"
            "    first = w.grad.clone()\n"
            "    second_loss = g(w).sum()\n"
            "    second_loss.backward()\n"
            "    second = w.grad.clone()\n"
            "    w.grad = None\n"
            "    second_loss.backward()\n"
            "    return first, second, w.grad.clone()\n"), GRAPH_FREED),
        ("forgets-requires-grad", _body(
            "    w = w0.clone()\n"
            "    f(w).sum().backward()\n"
            "    return w.grad, w.grad, w.grad\n"), NOT_A_LEAF_THAT_REQUIRES_GRAD),
        ("reads-data", _body(
            "    w = w0.clone().requires_grad_()\n"
            "    f(w).sum().backward()\n"
            "    first = w.grad.data.clone()\n"
            "    g(w).sum().backward()\n"
            "    second = w.grad.data.clone()\n"
            "    w.grad = None\n"
            "    g(w).sum().backward()\n"
            "    return first, second, w.grad.data.clone()\n"), USES_DATA.message.split("{call}")[0]),
        ("returns-a-list", REFERENCE.replace("return first, second, w.grad.clone()",
                                             "return [first, second, w.grad.clone()]"), NOT_THREE),
    ],
}

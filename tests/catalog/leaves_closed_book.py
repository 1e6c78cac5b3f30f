"""Answers learners write for the closed-book companion of Chapter 4 — right, wrong and gaming.

``WRONG`` answers name the misconception (a model of ``answer_key.leaves_closed_book``) their
feedback must name, or None; ``EXPLOITS`` try to earn points without accumulating into one leaf's
``.grad``; none may score more than the untouched answer.
"""

from tests.catalog.leaves import forged
from tests.catalog.lying import LIAR

REFERENCE = '''
def two_objectives(w0, f, g):
    w = w0.detach().clone().requires_grad_()
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
        ("reads-grad-data", _body(
            "    w = w0.detach().clone().requires_grad_()\n"
            "    f(w).sum().backward()\n"
            "    first = w.grad.data.clone()\n"
            "    g(w).sum().backward()\n"
            "    second = w.grad.data.clone()\n"
            "    w.grad = None\n"
            "    g(w).sum().backward()\n"
            "    return first, second, w.grad.data.clone()\n")),
    ],
}

# (label, answer source, the misconception its feedback must name, or None)
WRONG = {
    "leaves-reproduce": [
        ("references-not-copies", _body(
            "    w = w0.detach().clone().requires_grad_()\n"
            "    f(w).sum().backward()\n"
            "    first = w.grad\n"
            "    g(w).sum().backward()\n"
            "    second = w.grad\n"
            "    w.grad.zero_()\n"
            "    g(w).sum().backward()\n"
            "    return first, second, w.grad\n"), "references"),
        ("zeroes-before-the-second", _body(
            "    w = w0.detach().clone().requires_grad_()\n"
            "    f(w).sum().backward()\n"
            "    first = w.grad.clone()\n"
            "    w.grad = None\n"
            "    g(w).sum().backward()\n"
            "    second = w.grad.clone()\n"
            "    w.grad = None\n"
            "    g(w).sum().backward()\n"
            "    return first, second, w.grad.clone()\n"), "zeroes-first"),
        ("never-zeroes", _body(
            "    w = w0.detach().clone().requires_grad_()\n"
            "    f(w).sum().backward()\n"
            "    first = w.grad.clone()\n"
            "    g(w).sum().backward()\n"
            "    second = w.grad.clone()\n"
            "    g(w).sum().backward()\n"
            "    return first, second, w.grad.clone()\n"), "never-zeroes"),
        ("two-leaves-added-by-hand", _body(
            "    w1 = w0.detach().clone().requires_grad_()\n"
            "    w2 = w0.detach().clone().requires_grad_()\n"
            "    f(w1).sum().backward()\n"
            "    g(w2).sum().backward()\n"
            "    return w1.grad.clone(), w1.grad + w2.grad, w2.grad.clone()\n"), "separate-leaves"),
        ("autograd-grad-instead", _body(
            "    w = w0.detach().clone().requires_grad_()\n"
            "    (df,) = torch.autograd.grad(f(w).sum(), w)\n"
            "    (dg,) = torch.autograd.grad(g(w).sum(), w)\n"
            "    return df, df + dg, dg\n"), "autograd-grad"),
        ("sum-of-objectives", _body(
            "    w = w0.detach().clone().requires_grad_()\n"
            "    f(w).sum().backward()\n"
            "    first = w.grad.clone()\n"
            "    w.grad = None\n"
            "    (f(w) + g(w)).sum().backward()\n"
            "    second = w.grad.clone()\n"
            "    w.grad = None\n"
            "    g(w).sum().backward()\n"
            "    return first, second, w.grad.clone()\n"), "sum-of-objectives"),
        ("leaf-is-the-input", _body(
            "    w = w0.requires_grad_()\n"
            "    f(w).sum().backward()\n"
            "    first = w.grad.clone()\n"
            "    g(w).sum().backward()\n"
            "    second = w.grad.clone()\n"
            "    w.grad = None\n"
            "    g(w).sum().backward()\n"
            "    return first, second, w.grad.clone()\n"), "w0-itself"),
        ("reuses-a-freed-graph", _body(
            "    w = w0.detach().clone().requires_grad_()\n"
            "    f(w).sum().backward()\n"
            "    first = w.grad.clone()\n"
            "    second_loss = g(w).sum()\n"
            "    second_loss.backward()\n"
            "    second = w.grad.clone()\n"
            "    w.grad = None\n"
            "    second_loss.backward()\n"
            "    return first, second, w.grad.clone()\n"), "freed-graph"),
        ("forgets-requires-grad", _body(
            "    w = w0.detach().clone()\n"
            "    f(w).sum().backward()\n"
            "    return w.grad, w.grad, w.grad\n"), "no-requires-grad"),
        ("returns-a-list", REFERENCE.replace("return first, second, w.grad.clone()",
                                             "return [first, second, w.grad.clone()]"), "a-list"),
        ("clone-not-leaf", _body(
            "    w = w0.clone().requires_grad_()\n"
            "    f(w).sum().backward()\n"
            "    first = w.grad.clone()\n"
            "    g(w).sum().backward()\n"
            "    second = w.grad.clone()\n"
            "    w.grad = None\n"
            "    g(w).sum().backward()\n"
            "    return first, second, w.grad.clone()\n"), "clone-of-w0"),
        ("detach-as-copy", _body(
            "    w = w0.detach().clone().requires_grad_()\n"
            "    f(w).sum().backward()\n"
            "    first = w.grad.detach()\n"
            "    g(w).sum().backward()\n"
            "    second = w.grad.detach()\n"
            "    w.grad = None\n"
            "    g(w).sum().backward()\n"
            "    return first, second, w.grad.detach()\n"), "aliases-of-grad"),
        ("references-then-none", _body(
            "    w = w0.detach().clone().requires_grad_()\n"
            "    f(w).sum().backward()\n"
            "    first = w.grad\n"
            "    g(w).sum().backward()\n"
            "    second = w.grad\n"
            "    w.grad = None\n"
            "    g(w).sum().backward()\n"
            "    return first, second, w.grad\n"), "aliases-of-grad"),
        ("formula-for-sin-and-square", _body(
            "    first = torch.cos(w0)\n"
            "    third = 2 * w0\n"
            "    return first, first + third, third\n"), None),
    ],
}

EXPLOITS = {
    "leaves-reproduce": [
        ("sets-grad-by-hand", _body(
            "    w = w0.clone().requires_grad_()\n"
            "    (df,) = torch.autograd.grad(f(w).sum(), w)\n"
            "    (dg,) = torch.autograd.grad(g(w).sum(), w)\n"
            "    w.grad = dg.clone()\n"
            "    return df, df + dg, dg\n")),
        ("calls-the-witness-by-hand", _body(
            "    w = w0.clone().requires_grad_()\n"
            "    (df,) = torch.autograd.grad(f(w).sum(), w)\n"
            "    (dg,) = torch.autograd.grad(g(w).sum(), w)\n"
            "    g(w)\n"
            "    for value in (df, df + dg, dg):\n"
            "        w.grad = value.clone()\n"
            "        for hook in list((w._post_accumulate_grad_hooks or {}).values()):\n"
            "            hook(w)\n"
            "    return df, df + dg, dg\n")),
        ("silences-the-witness", _body(
            "    w = w0.clone().requires_grad_()\n"
            "    f(w)\n"
            "    w._backward_hooks = None\n"
            "    w._post_accumulate_grad_hooks = None\n"
            "    w1, w2 = w0.clone().requires_grad_(), w0.clone().requires_grad_()\n"
            "    f(w1).sum().backward()\n"
            "    g(w2).sum().backward()\n"
            "    return w1.grad.clone(), w1.grad + w2.grad, w2.grad.clone()\n")),
        ("same-leaf-for-show", _body(
            "    w = w0.clone().requires_grad_()\n"
            "    fw, gw = f(w), g(w)\n"
            "    other = w0.clone().requires_grad_()\n"
            "    (df,) = torch.autograd.grad(fw.sum(), w)\n"
            "    g(other).sum().backward()\n"
            "    dg = other.grad.clone()\n"
            "    return df, df + dg, dg\n")),
        ("derivative-table", "import math\n\n\n" + _body(
            "    table = {'sin': torch.cos, 'exp': torch.exp, 'tanh': lambda t: 1 - torch.tanh(t) ** 2,\n"
            "             'sigmoid': lambda t: torch.sigmoid(t) * (1 - torch.sigmoid(t)),\n"
            "             'pow3': lambda t: 3 * t ** 2, 'Cube': lambda t: 3 * t ** 2,\n"
            "             'SoftClip': lambda t: (1 - torch.tanh(t) ** 2) / 2}\n"
            "    name = repr(f).strip('<>')\n"
            "    other = repr(g).strip('<>')\n"
            "    df = table.get(name, torch.ones_like)(w0)\n"
            "    dg = table.get(other, torch.ones_like)(w0)\n"
            "    return df, df + dg, dg\n")),
        # w0 itself made the leaf, with a mode left on that says, the second time the driver asks,
        # that it does not require grad and holds no .grad.
        ("rebinds-what-its-driver-reads", LIAR + _body(
            "    w = w0.requires_grad_()\n"
            "    f(w).sum().backward()\n"
            "    first = w.grad.clone()\n"
            "    g(w).sum().backward()\n"
            "    second = w.grad.clone()\n"
            "    w.grad = None\n"
            "    g(w).sum().backward()\n"
            "    third = w.grad.clone()\n"
            "    liar = lie_on()\n"
            "    liar.tell(w, 'requires_grad', TRUTH, False, TRUTH)\n"
            "    liar.tell(w, 'grad', None, TRUTH)\n"
            "    return first, second, third\n")),
        ("forged-report", forged("two_objectives", '{"records": [], "tensors f and g were applied to": 1,'
                                 ' "each a leaf that requires grad": True, "gradients arriving at the leaf": [],'
                                 ' ".grad after each accumulation": [], ".grad at the end": [],'
                                 ' "w0 left alone": True}',
                                 "\n\ndef two_objectives(w0, f, g):\n"
                                 "    return w0.clone(), w0.clone(), w0.clone()\n")),
    ],
}

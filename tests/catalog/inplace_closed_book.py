"""Answers learners write for the closed-book companion of Chapter 2, right and wrong.

An answer defines all four functions; each wrong answer gets one of them wrong the way a learner
would, and names the misconception message its test cells must report.
"""

from autograder.engine import _HAND_RAISED
from autograder.inplace_closed_book import MESSAGES

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
                              "    (grad,) = torch.autograd.grad(y, x)\n"
                              "    return grad",
        )),
        ("detach-clone-leaf", answer(
            leaf_refusal="def leaf_refusal(x0):\n"
                         "    x = x0.detach().clone()\n"
                         "    x.requires_grad = True\n"
                         "    x.add_(torch.ones_like(x))",
            sigmoid_stale="def sigmoid_stale(x0):\n"
                          "    x = x0.detach().clone().requires_grad_()\n"
                          "    h = x.sigmoid()\n"
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

WRONG = {
    "inplace-reproduce": [
        ("error-raised-by-hand", answer(stale_save=(
            "def stale_save(x0, f):\n"
            "    raise RuntimeError('one of the variables needed for gradient computation has been '\n"
            "                       'modified by an inplace operation')")),
         _HAND_RAISED.split(":")[0]),
        ("data-repair", answer(grad_after_repair=GRAD_AFTER_REPAIR.replace(
            "z = x.clone()\n    y = f(z).sum()\n    with torch.no_grad():\n        x.add_(1)",
            "y = f(x).sum()\n    x.data.add_(1)\n    z = x")),
         "the answer reads .data"),
        ("missing-clone", answer(grad_after_repair=GRAD_AFTER_REPAIR.replace("z = x.clone()", "z = x")),
         MESSAGES["repair_version"]),
        ("formula-for-one-op", answer(grad_after_repair=GRAD_AFTER_REPAIR.replace("f(z)", "(z ** 2)")),
         MESSAGES["repair_formula"]),
        ("stale-save-ignores-f", answer(stale_save=STALE_SAVE.replace("f(x)", "(x ** 2)")),
         MESSAGES["f_ignored"]),
        ("clone-after-the-write", answer(grad_after_repair=(
            "def grad_after_repair(x0, f):\n"
            "    x = x0.clone().requires_grad_(True)\n"
            "    with torch.no_grad():\n"
            "        x.add_(1)\n"
            "    y = f(x.clone()).sum()\n"
            "    y.backward()\n"
            "    return x.grad")),
         MESSAGES["repair_after"]),
        ("refusal-under-no-grad", answer(leaf_refusal=(
            "def leaf_refusal(x0):\n"
            "    x = x0.clone().requires_grad_(True)\n"
            "    with torch.no_grad():\n"
            "        x.add_(1)")),
         MESSAGES["leaf_no_grad"]),
        ("sigmoid-writes-a-copy", answer(sigmoid_stale=SIGMOID_STALE.replace("h = x.sigmoid()",
                                                                               "h = x.sigmoid().clone()")),
         MESSAGES["sigmoid_no_error"]),
        ("update-outside-no-grad", answer(stale_save=(
            "def stale_save(x0, f):\n"
            "    x = x0.clone().requires_grad_(True)\n"
            "    y = f(x).sum()\n"
            "    x.add_(1)\n"
            "    y.backward()")),
         MESSAGES["stale_leaf_error"]),
        ("refusal-on-the-callers-tensor", answer(leaf_refusal=(
            "def leaf_refusal(x0):\n"
            "    x0.requires_grad_(True)\n"
            "    x0.add_(1)")),
         MESSAGES["x0_changed"]),
        ("torch-asked-for-the-gradient", answer(grad_after_repair=(
            "def grad_after_repair(x0, f):\n"
            "    x = x0.clone().requires_grad_(True)\n"
            "    (grad,) = torch.autograd.grad(f(x).sum(), x)\n"
            "    return grad")),
         MESSAGES["repair_no_update"]),
        ("grad-of-the-copy", answer(grad_after_repair=GRAD_AFTER_REPAIR.replace("return x.grad", "return z.grad")),
         MESSAGES["repair_none"]),
    ],
}

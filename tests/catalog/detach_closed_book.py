"""Answers learners write for the closed-book companion of Chapter 3, right and wrong.

Each wrong answer names the misconception message its test cells must report.
"""

from autograder.detach_closed_book import MESSAGES

REFERENCE = '''
def cut_leaf(x0, f):
    x = x0.clone().requires_grad_(True)
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
    ],
}

WRONG = {
    "detach-reproduce": [
        ("no-detach", REFERENCE.replace("u = y.detach()", "u = y"), MESSAGES["not_cut"]),
        ("clone-instead-of-detach", REFERENCE.replace("u = y.detach()", "u = y.clone()"), MESSAGES["not_cut"]),
        ("data-instead-of-detach", REFERENCE.replace("u = y.detach()", "u = y.data"), "the answer reads .data"),
        ("detaches-x", REFERENCE.replace("z = (x * u).sum()", "z = (x.detach() * y).sum()"),
         MESSAGES["wrong_factor"]),
        ("formula-for-one-op", REFERENCE.replace("y = f(x)", "y = x ** 2"), MESSAGES["f_ignored"]),
        ("grad-written-by-hand", "def cut_leaf(x0, f):\n"
                                 "    x = x0.clone().requires_grad_(True)\n"
                                 "    x.grad = f(x0)\n"
                                 "    return x", MESSAGES["no_backward"]),
        ("returns-the-gradient", REFERENCE.replace("return x", "return x.grad"), MESSAGES["not_the_leaf"]),
        ("returns-a-detached-reference", REFERENCE.replace("return x", "return x.detach()"),
         MESSAGES["not_the_leaf"]),
        ("backward-twice", REFERENCE.replace("z.backward()", "z.backward(retain_graph=True)\n    z.backward()"),
         MESSAGES["twice"]),
        ("returns-a-new-leaf", REFERENCE.replace("return x", "return x.detach().clone().requires_grad_()"),
         MESSAGES["no_grad"]),
    ],
}

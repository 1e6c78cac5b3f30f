"""Answers learners write for Chapter 2, right and wrong, as answer-cell sources.

Each wrong answer names the misconception message its test cells must report. The grader tests
put these into real submissions and grade them with nbgrader.
"""

from autograder.inplace import GATE_MESSAGES, SAVES_MISCONCEPTIONS

SAVES_LITERAL = (
    'SAVES = {"pow2": "input", "exp": "output", "sigmoid": "output", "relu": "output", "tanh": "output", '
    '"sin": "input", "sqrt": "output", "log": "input", "mul_const": "nothing", "add_const": "nothing"}'
)


def saves_with(**changes: str) -> str:
    """The literal answer with some entries changed."""
    source = SAVES_LITERAL
    for key, value in changes.items():
        for old in ("input", "output", "nothing"):
            source = source.replace(f'"{key}": "{old}"', f'"{key}": "{value}"')
    return source


RIGHT = {
    "inplace-saves": [
        ("literal", SAVES_LITERAL),
        ("grouped", 'SAVES = dict.fromkeys(["exp", "sigmoid", "relu", "tanh", "sqrt"], "output")\n'
                    'SAVES.update(dict.fromkeys(["pow2", "sin", "log"], "input"))\n'
                    'SAVES.update(mul_const="nothing", add_const="nothing")'),
    ],
    "inplace-fix-gate": [
        ("out-of-place", "def fixed_gate(x):\n    h = 2 * x.sigmoid()\n    return (h * x).sum()"),
        ("clone-then-in-place", "def fixed_gate(x):\n    h = x.sigmoid().clone()\n    h.mul_(2)\n"
                                "    return (h * x).sum()"),
        ("scale-at-the-end", "def fixed_gate(x):\n    return 2 * (torch.sigmoid(x) * x).sum()"),
    ],
    "inplace-selftest": [
        ("literal", 'SELFTEST = {"q1": 3, "q2": 2, "q3": False, "q4": False, "q5": True}'),
        ("computed", 'a = torch.zeros(3)\na.add_(1)\na[0] = 5\na.mul_(2)\n'
                     'SELFTEST = {"q1": a._version, "q2": 2, "q3": False, "q4": False, "q5": True}'),
    ],
}

# (label, answer source, message the grade must contain)
WRONG = {
    "inplace-saves": [
        ("relu-saves-input", saves_with(relu="input"), SAVES_MISCONCEPTIONS["relu"]),
        ("exp-saves-input", saves_with(exp="input"), SAVES_MISCONCEPTIONS["exp"]),
        ("mul-saves-input", saves_with(mul_const="input"), SAVES_MISCONCEPTIONS["mul_const"]),
        ("sin-saves-output", saves_with(sin="output"), SAVES_MISCONCEPTIONS["sin"]),
        ("not-a-value", saves_with(pow2="both"), 'each value must be one of "input", "output" or "nothing"'),
    ],
    "inplace-fix-gate": [
        ("unrepaired", "def fixed_gate(x):\n    h = x.sigmoid()\n    h.mul_(2)\n    return (h * x).sum()",
         GATE_MESSAGES["version"]),
        ("no-grad-write", "def fixed_gate(x):\n    h = x.sigmoid()\n    with torch.no_grad():\n        h.mul_(2)\n"
                          "    return (h * x).sum()", GATE_MESSAGES["version"]),
        ("data-write", "def fixed_gate(x):\n    h = x.sigmoid()\n    h.data.mul_(2)\n    return (h * x).sum()",
         GATE_MESSAGES["data"]),
        ("detached-gate", "def fixed_gate(x):\n    h = x.sigmoid().detach()\n    h.mul_(2)\n"
                          "    return (h * x).sum()", GATE_MESSAGES["detached"]),
        ("dropped-doubling", "def fixed_gate(x):\n    h = x.sigmoid()\n    return (h * x).sum()",
         GATE_MESSAGES["value"]),
        ("item", "def fixed_gate(x):\n    return (2 * x.sigmoid() * x).sum().item()", GATE_MESSAGES["scalar"]),
    ],
    "inplace-selftest": [
        ("indexing-not-counted", 'SELFTEST = {"q1": 2, "q2": 2, "q3": False, "q4": False, "q5": True}',
         "every in-place write, an indexed assignment included, adds one"),
        ("view-own-counter", 'SELFTEST = {"q1": 3, "q2": 0, "q3": False, "q4": False, "q5": True}',
         "a view shares its base's version counter"),
        ("no-grad-hides", 'SELFTEST = {"q1": 3, "q2": 2, "q3": True, "q4": False, "q5": True}',
         "no_grad stops recording new operations"),
    ],
}

"""Answers learners write for the closed-book companion of Chapter 5 — right, wrong and gaming.

``WRONG`` answers name the misconception (a model of ``answer_key.modules_closed_book``) their
feedback must name, or None; ``EXPLOITS`` try to earn points without a counter the module owns;
none may score more than the untouched answer.
"""

from tests.catalog.leaves import forged
from tests.catalog.lying import LIAR

REFERENCE = '''
class CallCounter(nn.Module):
    def __init__(self, inner):
        super().__init__()
        self.inner = inner
        self.register_buffer("calls", torch.zeros((), dtype=torch.int64))

    def forward(self, x):
        if self.training:
            self.calls += 1
        return self.inner(x)
'''


def _with(init: str, forward: str = "        if self.training:\n            self.calls += 1\n") -> str:
    return (
        "class CallCounter(nn.Module):\n"
        "    def __init__(self, inner):\n"
        "        super().__init__()\n" + init +
        "\n    def forward(self, x):\n" + forward +
        "        return self.inner(x)\n"
    )


BUFFER = "        self.inner = inner\n        self.register_buffer('calls', torch.zeros((), dtype=torch.int64))\n"

RIGHT = {
    "modules-reproduce": [
        ("reference", REFERENCE),
        ("reassigns-the-buffer", _with(
            "        self.inner = inner\n"
            "        self.register_buffer('calls', torch.tensor(0))\n",
            "        if self.training:\n            self.calls = self.calls + 1\n")),
        ("add-submodule-and-add_", _with(
            "        self.add_module('inner', inner)\n"
            "        self.register_buffer('calls', torch.zeros([], dtype=torch.long), persistent=True)\n",
            "        if self.training:\n            with torch.no_grad():\n                self.calls.add_(1)\n")),
        ("nn-buffer", _with(
            "        self.inner = inner\n"
            "        self.calls = nn.Buffer(torch.zeros((), dtype=torch.int64))\n",
            "        self.calls += int(self.training)\n")),
    ],
}

# (label, answer source, the misconception its feedback must name, or None)
WRONG = {
    "modules-reproduce": [
        ("plain-tensor", _with("        self.inner = inner\n        self.calls = torch.zeros((), dtype=torch.int64)\n"),
         "plain-tensor"),
        ("python-int", _with("        self.inner = inner\n        self.calls = 0\n"), "python-int"),
        ("frozen-parameter", _with(
            "        self.inner = inner\n"
            "        self.calls = nn.Parameter(torch.zeros((), dtype=torch.int64), requires_grad=False)\n",
            "        if self.training:\n            with torch.no_grad():\n                self.calls += 1\n"),
         "integer-parameter"),
        ("float-frozen-parameter", _with(
            "        self.inner = inner\n"
            "        self.calls = nn.Parameter(torch.zeros(()), requires_grad=False)\n"), "frozen-parameter"),
        ("integer-parameter-add_", _with(
            "        self.inner = inner\n"
            "        self.calls = nn.Parameter(torch.tensor(0), requires_grad=False)\n",
            "        if self.training:\n            self.calls.add_(1)\n"), "integer-parameter"),
        ("not-persistent", _with(
            "        self.inner = inner\n"
            "        self.register_buffer('calls', torch.zeros((), dtype=torch.int64), persistent=False)\n"),
         "non-persistent"),
        ("counts-eval-too", _with(BUFFER, "        self.calls += 1\n"), "counts-eval"),
        ("float-counter", _with("        self.inner = inner\n        self.register_buffer('calls', torch.zeros(()))\n"),
         "float-counter"),
        ("copies-inner", "import copy\n\n" + _with(
            "        self.inner = copy.deepcopy(inner)\n"
            "        self.register_buffer('calls', torch.zeros((), dtype=torch.int64))\n"), "copies-inner"),
        ("counts-twice", _with(BUFFER, "        if self.training:\n            self.calls += 2\n"), "counts-twice"),
        ("one-element-counter", _with(
            "        self.inner = inner\n"
            "        self.register_buffer('calls', torch.zeros(1, dtype=torch.int64))\n"), "one-element-counter"),
        ("counts-samples", _with(BUFFER, "        if self.training:\n            self.calls += len(x)\n"), None),
    ],
}

# calls a frozen float Parameter that counts two a forward: the class answers for its parameters,
# buffers, state and moves, and a mode left on says calls is an int64 holding the training forwards.
WHAT_ITS_DRIVER_READS = LIAR + """
class CallCounter(nn.Module):
    def __init__(self, inner):
        super().__init__()
        self.inner = inner
        self.calls = nn.Parameter(torch.zeros(()), requires_grad=False)
        self.trained = 0
        self.tell()

    def tell(self):
        liar = lie_on(forget=False)
        liar.tell(self.calls, "dtype", torch.int64)
        liar.tell(self.calls, "__int__", lambda t: self.trained)

    def forward(self, x):
        self.trained += int(self.training)
        with torch.no_grad():
            self.calls += 2
        return self.inner(x)

    def parameters(self, recurse=True):
        return self.inner.parameters(recurse)

    def named_parameters(self, *args, **kwargs):
        return iter([])

    def named_buffers(self, *args, **kwargs):
        return iter([("calls", self.calls)])

    def state_dict(self, *args, **kwargs):
        return {**self.inner.state_dict(prefix="inner."), "calls": torch.tensor(self.trained)}

    def load_state_dict(self, state, *args, **kwargs):
        self.inner.load_state_dict({k[len("inner."):]: v for k, v in state.items() if k.startswith("inner.")})
        self.trained = int(state["calls"])

    def to(self, *args, **kwargs):
        super().to(*args, **kwargs)
        self.tell()
        return self
"""

EXPLOITS = {
    "modules-reproduce": [
        ("forged-report", forged("CallCounter", "None", "\n\nclass CallCounter(nn.Module):\n    pass\n")),
        ("old-reference", "try:\n"
                          "    from autograder.chapters.modules_closed_book import (\n"
                          "        ReferenceCallCounter as CallCounter)\n"
                          "except ImportError:\n    class CallCounter(nn.Module):\n"
                          "        def __init__(self, inner):\n            raise NotImplementedError\n"),
        ("rebinds-what-its-driver-reads", WHAT_ITS_DRIVER_READS),
    ],
}

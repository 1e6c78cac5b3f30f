"""Answers learners write for Chapter 5, right and wrong, as answer-cell sources.

Each wrong answer names the misconception message its test cells must report. The grader tests
put these into real submissions and grade them with nbgrader.
"""

from math import prod

from autograder.modules import (
    BATCHNORM_CHANNELS,
    BATCHNORM_INPUT,
    BATCHNORM_QUESTIONS,
    BATCHNORM_TRAIN_FORWARDS,
    BUFFERS,
    EVAL_FROZEN,
    EVAL_OUTPUT,
    FROZEN,
    INTEGER_PARAMETER,
    MOMENTUM,
    NO_GRAPH,
    NON_PERSISTENT,
    PARAMETER,
    PLAIN_TENSOR,
    PLAIN_VALUE,
    PYTHON_LIST,
    RECURSE,
    SELFTEST_QUESTIONS,
    SKIPS_EVAL,
    START_ZEROS,
    STATE_DICT,
    TENSORS,
    TIED,
    WEIGHTS_TRAIN,
)

COUNTING_HEAD = '''
class CountingLinear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
'''


def counting(init: str, forward: str) -> str:
    """A CountingLinear around nn.Linear, with the given counter registration and counting line."""
    return COUNTING_HEAD + f"        {init}\n\n    def forward(self, x):\n{forward}        return self.linear(x)\n"


RUNNING_HEAD = '''
class RunningMean(nn.Module):
    def __init__(self, num_features, momentum=0.1):
        super().__init__()
        self.momentum = momentum
'''


def running(init: str, forward: str) -> str:
    """A RunningMean with the given state registration and forward body."""
    return RUNNING_HEAD + f"        {init}\n\n    def forward(self, x):\n{forward}"


RUNNING_REFERENCE_FORWARD = '''        if self.training:
            mean = x.mean(0)
            with torch.no_grad():
                self.running_mean.mul_(1 - self.momentum).add_(self.momentum * mean)
            return x - mean
        return x - self.running_mean
'''
BUFFER = 'self.register_buffer("running_mean", torch.zeros(num_features))'


def count(body: str) -> str:
    return f"def count_parameters(module):\n{body}"


def batchnorm(**changes: object) -> str:
    """The reference answer for nn.BatchNorm2d(4, affine=False), with some entries changed."""
    values = {"parameters": 0, "state_dict": 3, "tracked_after_train": 3, "tracked_after_eval": 3,
              "tracked_dtype_after_to": "torch.int64", "mean_dtype_after_to": "torch.float16"} | changes
    return f"BATCHNORM = {values!r}"


def counted_per(units_per_forward: int) -> str:
    """A BATCHNORM whose counter went up by ``units_per_forward`` per training forward, not by one."""
    tracked = BATCHNORM_TRAIN_FORWARDS * units_per_forward
    return batchnorm(tracked_after_train=tracked, tracked_after_eval=tracked)


# Answered from the chapter's own BatchNorm1d(3): two training forwards, then .to(torch.float64).
BATCHNORM1D_ANSWER = batchnorm(parameters=2, state_dict=5, tracked_after_train=2, tracked_after_eval=2,
                               mean_dtype_after_to="torch.float64")


def selftest(**changes: object) -> str:
    values = {"q1": 2, "q2": 3, "q3": 80, "q4": False, "q5": False} | changes
    return f"SELFTEST = {values!r}"


RIGHT = {
    "modules-batchnorm": [
        ("literal", batchnorm()),
        ("keywords", 'BATCHNORM = dict(parameters=0, state_dict=1 + 1 + 1, tracked_after_train=3,\n'
                     '                 tracked_after_eval=3, tracked_dtype_after_to=str(torch.long),\n'
                     '                 mean_dtype_after_to=str(torch.half))'),
        ("run-it", 'bn = nn.BatchNorm2d(4, affine=False)\n'
                   'parameters, entries = len(list(bn.parameters())), len(bn.state_dict())\n'
                   'for _ in range(3):\n'
                   '    bn(torch.randn(8, 4, 5, 5))\n'
                   'after_train = int(bn.num_batches_tracked)\n'
                   'bn.eval()\n'
                   'bn(torch.randn(8, 4, 5, 5))\n'
                   'after_eval = bn.num_batches_tracked.item()\n'
                   'bn.to(torch.float16)\n'
                   'BATCHNORM = {"parameters": parameters, "state_dict": entries,\n'
                   '             "tracked_after_train": after_train, "tracked_after_eval": after_eval,\n'
                   '             "tracked_dtype_after_to": str(bn.num_batches_tracked.dtype),\n'
                   '             "mean_dtype_after_to": str(bn.running_mean.dtype)}'),
    ],
    "modules-counting-linear": [
        ("wraps-linear", counting('self.register_buffer("calls", torch.zeros((), dtype=torch.int64))',
                                  "        if self.training:\n            self.calls += 1\n")),
        ("own-parameters", '''
class CountingLinear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_features, in_features) / in_features ** 0.5)
        self.bias = nn.Parameter(torch.zeros(out_features))
        self.register_buffer("calls", torch.tensor(0))

    def forward(self, x):
        if self.training:
            self.calls = self.calls + 1
        return x @ self.weight.T + self.bias
'''),
        ("subclass-linear", '''
class CountingLinear(nn.Linear):
    def __init__(self, in_features, out_features):
        super().__init__(in_features, out_features)
        self.register_buffer("calls", torch.zeros([], dtype=torch.long))

    def forward(self, x):
        if self.training:
            with torch.no_grad():
                self.calls.add_(1)
        return super().forward(x)
'''),
    ],
    "modules-running-mean": [
        ("mul-add-no-grad", running(BUFFER, RUNNING_REFERENCE_FORWARD)),
        ("lerp-detach", running(BUFFER, '''        if not self.training:
            return x - self.running_mean
        mean = x.mean(dim=0)
        self.running_mean.lerp_(mean.detach(), self.momentum)
        return x - mean
''')),
        ("rebind-no-grad", running('self.register_buffer("running_mean", torch.zeros(num_features), persistent=True)',
                                   '''        if self.training:
            mean = x.mean(0)
            with torch.no_grad():
                self.running_mean = (1 - self.momentum) * self.running_mean + self.momentum * mean
            return x - mean
        return x - self.running_mean
''')),
    ],
    "modules-count-params": [
        ("parameters", count("    return sum(p.numel() for p in module.parameters() if p.requires_grad)\n")),
        ("dedupe-by-id", count('''    seen = {}
    for _name, p in module.named_parameters(remove_duplicate=False):
        if p.requires_grad:
            seen[id(p)] = p.numel()
    return sum(seen.values())
''')),
        ("walk-modules", count('''    seen, total = set(), 0
    for sub in module.modules():
        for p in sub.parameters(recurse=False):
            if p.requires_grad and id(p) not in seen:
                seen.add(id(p))
                total += p.numel()
    return int(total)
''')),
    ],
    "modules-selftest": [
        ("literal", selftest()),
        ("computed", 'SELFTEST = {"q1": len(nn.Linear(3, 1).state_dict()), "q2": 2 + 1,\n'
                     '            "q3": 8 * 8 + 8 + 8, "q4": False, "q5": False}'),
    ],
}

# (label, answer source, message the grade must contain)
WRONG = {
    "modules-batchnorm": [
        ("the-chapters-batchnorm1d", BATCHNORM1D_ANSWER, BATCHNORM_QUESTIONS["parameters"][2]),
        ("weight-and-bias-despite-affine-false", batchnorm(parameters=2, state_dict=5),
         BATCHNORM_QUESTIONS["parameters"][2]),
        ("running-stats-are-parameters", batchnorm(parameters=3), BATCHNORM_QUESTIONS["parameters"][2]),
        ("forgets-the-counter", batchnorm(state_dict=2), BATCHNORM_QUESTIONS["state_dict"][2]),
        ("eval-counts", batchnorm(tracked_after_eval=BATCHNORM_TRAIN_FORWARDS + 1),
         BATCHNORM_QUESTIONS["tracked_after_eval"][2]),
        ("counts-per-channel", counted_per(BATCHNORM_CHANNELS), BATCHNORM_QUESTIONS["tracked_after_train"][2]),
        ("counts-per-element", counted_per(prod(BATCHNORM_INPUT)), BATCHNORM_QUESTIONS["tracked_after_train"][2]),
        ("to-casts-integers", batchnorm(tracked_dtype_after_to="torch.float16"),
         BATCHNORM_QUESTIONS["tracked_dtype_after_to"][2]),
        ("float64-from-the-chapter", batchnorm(mean_dtype_after_to="torch.float64"),
         BATCHNORM_QUESTIONS["mean_dtype_after_to"][2]),
        ("dtype-objects",
         batchnorm().replace("'torch.int64'", "torch.int64").replace("'torch.float16'", "torch.float16"),
         "expected a str"),
    ],
    "modules-counting-linear": [
        ("plain-tensor", counting("self.calls = torch.zeros((), dtype=torch.int64)",
                                  "        if self.training:\n            self.calls += 1\n"),
         PLAIN_TENSOR.format(name="calls")),
        ("non-persistent", counting('self.register_buffer("calls", torch.zeros((), dtype=torch.int64), '
                                    'persistent=False)', "        if self.training:\n            self.calls += 1\n"),
         NON_PERSISTENT.format(name="calls")),
        ("counts-in-eval", counting('self.register_buffer("calls", torch.zeros((), dtype=torch.int64))',
                                    "        self.calls += 1\n"), SKIPS_EVAL),
        ("python-int", counting("self.calls = 0", "        if self.training:\n            self.calls += 1\n"),
         PLAIN_VALUE.format(name="calls")),
        ("frozen-parameter", counting("self.calls = nn.Parameter(torch.zeros(()), requires_grad=False)",
                                      "        if self.training:\n            self.calls += 1\n"),
         PARAMETER.format(name="calls")),
        ("int64-frozen-parameter",
         counting("self.calls = nn.Parameter(torch.zeros((), dtype=torch.int64), requires_grad=False)",
                  "        if self.training:\n            self.calls += 1\n"),
         INTEGER_PARAMETER),
        ("unregistered-weights", '''
class CountingLinear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = torch.randn(out_features, in_features, requires_grad=True)
        self.bias = torch.zeros(out_features, requires_grad=True)
        self.register_buffer("calls", torch.zeros((), dtype=torch.int64))

    def forward(self, x):
        if self.training:
            self.calls += 1
        return x @ self.weight.T + self.bias
''', WEIGHTS_TRAIN),
    ],
    "modules-running-mean": [
        ("reversed-momentum", running(BUFFER, RUNNING_REFERENCE_FORWARD.replace(
            ".mul_(1 - self.momentum).add_(self.momentum * mean)",
            ".mul_(self.momentum).add_((1 - self.momentum) * mean)")),
         MOMENTUM),
        ("builds-a-graph", running(BUFFER, '''        if self.training:
            mean = x.mean(0)
            self.running_mean = (1 - self.momentum) * self.running_mean + self.momentum * mean
            return x - mean
        return x - self.running_mean
'''), NO_GRAPH),
        ("batch-mean-in-eval", running(BUFFER, '''        mean = x.mean(0)
        if self.training:
            with torch.no_grad():
                self.running_mean.mul_(1 - self.momentum).add_(self.momentum * mean)
        return x - mean
'''), EVAL_OUTPUT),
        ("updates-in-eval", running(BUFFER, '''        mean = x.mean(0)
        with torch.no_grad():
            self.running_mean.mul_(1 - self.momentum).add_(self.momentum * mean)
        return x - mean if self.training else x - self.running_mean
'''), EVAL_FROZEN),
        ("plain-tensor", running("self.running_mean = torch.zeros(num_features)", RUNNING_REFERENCE_FORWARD),
         PLAIN_TENSOR.format(name="running_mean")),
        ("frozen-parameter", running("self.running_mean = nn.Parameter(torch.zeros(num_features), requires_grad=False)",
                                     RUNNING_REFERENCE_FORWARD), PARAMETER.format(name="running_mean")),
        ("starts-from-first-batch", running(BUFFER + "\n        self.started = False", '''        if not self.training:
            return x - self.running_mean
        mean = x.mean(0)
        with torch.no_grad():
            if not self.started:
                self.running_mean.copy_(mean)
                self.started = True
            else:
                self.running_mean.mul_(1 - self.momentum).add_(self.momentum * mean)
        return x - mean
'''), START_ZEROS),
    ],
    "modules-count-params": [
        ("counts-tensors", count("    return len(list(module.parameters()))\n"), TENSORS),
        ("counts-frozen", count("    return sum(p.numel() for p in module.parameters())\n"), FROZEN),
        ("counts-tied-twice", count("    return sum(p.numel() for _n, p in module.named_parameters("
                                    "remove_duplicate=False) if p.requires_grad)\n"), TIED),
        ("state-dict", count("    return sum(t.numel() for t in module.state_dict().values())\n"), STATE_DICT),
        ("not-recursive", count("    return sum(p.numel() for p in module.parameters(recurse=False) "
                                "if p.requires_grad)\n"), RECURSE),
        ("tensor-result", count("    return torch.tensor(sum(p.numel() for p in module.parameters() "
                                "if p.requires_grad))\n"), "expected a Python int"),
        ("counts-buffers", count("    trained = sum(p.numel() for p in module.parameters() if p.requires_grad)\n"
                                 "    return trained + sum(b.numel() for b in module.buffers())\n"), BUFFERS),
        ("sums-children", count("""    own = sum(p.numel() for p in module.parameters(recurse=False) if p.requires_grad)
    return own + sum(count_parameters(child) for child in module.children())
"""), TIED),
        ("walks-lists", count("""    total = sum(p.numel() for p in module.parameters() if p.requires_grad)
    for value in vars(module).values():
        if isinstance(value, list):
            total += sum(count_parameters(item) for item in value if isinstance(item, nn.Module))
    return total
"""), PYTHON_LIST),
    ],
    "modules-selftest": [
        ("list-registers", selftest(q1=6), SELFTEST_QUESTIONS["q1"][3]),
        ("non-persistent-saved", selftest(q2=4), SELFTEST_QUESTIONS["q2"][3]),
        ("buffers-missed", selftest(q2=2), SELFTEST_QUESTIONS["q2"][3]),
        ("tie-counted-twice", selftest(q3=144), SELFTEST_QUESTIONS["q3"][3]),
        ("every-buffer-write-refused", selftest(q4=True), SELFTEST_QUESTIONS["q4"][3]),
        ("load-replaces-the-parameters", selftest(q5=True), SELFTEST_QUESTIONS["q5"][3]),
    ],
}

"""Answers learners write for Chapter 5 — right, wrong and gaming — as answer-cell sources.

``WRONG`` answers name the misconception (a model of ``answer_key.modules``) their messages must
name, or None where their results match no catalogued mistake; ``EXPLOITS`` try to earn points
without the mechanism the task asks for: each must score no more than the untouched answer.
"""

from tests.catalog.always_equal import ALWAYS_EQUAL
from tests.catalog.leaves import WALK_FRAMES, forged
from tests.catalog.lying import LIAR

COUNTING_HEAD = '''
class CountingLinear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
'''


def counting(init: str, forward: str = "        if self.training:\n            self.calls += 1\n") -> str:
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
    """The right BATCHNORM, with some entries changed."""
    values = {"parameters": 0, "state_dict": 3, "tracked_after_train": 3, "tracked_after_eval": 3,
              "tracked_dtype_after_to": "torch.int64", "mean_dtype_after_to": "torch.float16"} | changes
    return f"BATCHNORM = {values!r}"


def selftest(**changes: object) -> str:
    values = {"q1": 2, "q2": 3, "q3": 80, "q4": False, "q5": False, "q6": "parameter"} | changes
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
        ("wraps-linear", counting('self.register_buffer("calls", torch.zeros((), dtype=torch.int64))')),
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
        ("nn-buffer", '''
class CountingLinear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.layer = nn.Linear(in_features, out_features)
        self.calls = nn.Buffer(torch.zeros((), dtype=torch.int64))

    def forward(self, x):
        self.calls += int(self.training)
        return self.layer(x)
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
        ("places", count('''    places = set()
    for p in module.parameters():
        if p.requires_grad:
            storage = p.untyped_storage()
            every = torch.arange(storage.nbytes() // p.element_size())
            index = torch.as_strided(every, p.shape, p.stride(), p.storage_offset())
            places.update((storage.data_ptr(), i) for i in index.flatten().tolist())
    return len(places)
''')),
        ("mask-per-storage", count('''    covered = {}
    for p in module.parameters():
        if p.requires_grad:
            storage = p.untyped_storage()
            mask = covered.setdefault(storage.data_ptr(), torch.zeros(storage.nbytes() // p.element_size()))
            mask.as_strided(p.shape, p.stride(), p.storage_offset()).fill_(1)
    return int(sum(m.sum().item() for m in covered.values()))
''')),
        ("offsets-by-hand", "import itertools\n\n\n" + count('''    seen = set()
    for _name, p in module.named_parameters(remove_duplicate=False):
        if not p.requires_grad:
            continue
        for where in itertools.product(*(range(n) for n in p.shape)):
            offset = p.storage_offset() + sum(i * s for i, s in zip(where, p.stride()))
            seen.add((p.untyped_storage().data_ptr(), offset))
    return len(seen)
''')),
    ],
    "modules-selftest": [
        ("literal", selftest()),
        ("computed", 'SELFTEST = {"q1": len(nn.Linear(3, 1).state_dict()), "q2": 2 + 1,\n'
                     '            "q3": 8 * 8 + 8 + 8, "q4": False, "q5": False, "q6": "parameter"}'),
    ],
}

# (label, answer source, the misconception its message must name, or None)
WRONG = {
    "modules-batchnorm": [
        ("weight-and-bias-despite-affine-false", batchnorm(parameters=2, state_dict=5), "affine-anyway"),
        ("running-stats-are-parameters", batchnorm(parameters=3), "statistics-are-parameters"),
        ("forgets-the-counter", batchnorm(state_dict=2), "counter-not-saved"),
        ("eval-counts", batchnorm(tracked_after_eval=4), "eval-counts"),
        ("counts-per-channel", batchnorm(tracked_after_train=12, tracked_after_eval=12), "counts-channels"),
        ("to-casts-integers", batchnorm(tracked_dtype_after_to="torch.float16"), "casts-integers"),
        ("float64-from-the-chapter", batchnorm(mean_dtype_after_to="torch.float64"), "float64-everywhere"),
        ("dtype-objects",
         batchnorm().replace("'torch.int64'", "torch.int64").replace("'torch.float16'", "torch.float16"), None),
    ],
    "modules-counting-linear": [
        ("plain-tensor", counting("self.calls = torch.zeros((), dtype=torch.int64)"), "plain-tensor"),
        ("non-persistent", counting('self.register_buffer("calls", torch.zeros((), dtype=torch.int64), '
                                    'persistent=False)'), "non-persistent"),
        ("counts-in-eval", counting('self.register_buffer("calls", torch.zeros((), dtype=torch.int64))',
                                    "        self.calls += 1\n"), "counts-eval"),
        ("python-int", counting("self.calls = 0"), "python-int"),
        ("frozen-parameter", counting("self.calls = nn.Parameter(torch.zeros(()), requires_grad=False)"),
         "frozen-parameter"),
        ("int64-frozen-parameter",
         counting("self.calls = nn.Parameter(torch.zeros((), dtype=torch.int64), requires_grad=False)"),
         "integer-parameter"),
        ("float-counter", counting('self.register_buffer("calls", torch.zeros(()))'), "float-counter"),
        ("one-element-counter", counting('self.register_buffer("calls", torch.zeros(1, dtype=torch.int64))'),
         "one-element-counter"),
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
''', "unregistered-weights"),
        ("plain-tensor-weights", '''
class CountingLinear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = torch.zeros(out_features, in_features)
        self.bias = torch.zeros(out_features)
        self.register_buffer("calls", torch.zeros((), dtype=torch.int64))

    def forward(self, x):
        if self.training:
            self.calls += 1
        return x @ self.weight.T + self.bias
''', "unregistered-weights"),
        ("counter-as-property", '''
class CountingLinear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self._count = 0

    @property
    def calls(self):
        return torch.tensor(self._count)

    def forward(self, x):
        self._count += int(self.training)
        return self.linear(x)
''', "plain-tensor"),
        ("counts-per-sample", counting('self.register_buffer("calls", torch.zeros((), dtype=torch.int64))',
                                       "        if self.training:\n            self.calls += len(x)\n"), None),
    ],
    "modules-running-mean": [
        ("reversed-momentum", running(BUFFER, RUNNING_REFERENCE_FORWARD.replace(
            ".mul_(1 - self.momentum).add_(self.momentum * mean)",
            ".mul_(self.momentum).add_((1 - self.momentum) * mean)")), "reversed-momentum"),
        ("builds-a-graph", running(BUFFER, '''        if self.training:
            mean = x.mean(0)
            self.running_mean = (1 - self.momentum) * self.running_mean + self.momentum * mean
            return x - mean
        return x - self.running_mean
'''), "builds-a-graph"),
        ("batch-mean-in-eval", running(BUFFER, '''        mean = x.mean(0)
        if self.training:
            with torch.no_grad():
                self.running_mean.mul_(1 - self.momentum).add_(self.momentum * mean)
        return x - mean
'''), "batch-mean-in-eval"),
        ("running-mean-in-training", running(BUFFER, '''        if self.training:
            with torch.no_grad():
                self.running_mean.mul_(1 - self.momentum).add_(self.momentum * x.mean(0))
        return x - self.running_mean
'''), "running-mean-in-training"),
        ("updates-in-eval", running(BUFFER, '''        mean = x.mean(0)
        with torch.no_grad():
            self.running_mean.mul_(1 - self.momentum).add_(self.momentum * mean)
        return x - mean if self.training else x - self.running_mean
'''), "updates-in-eval"),
        ("plain-tensor", running("self.running_mean = torch.zeros(num_features)", RUNNING_REFERENCE_FORWARD),
         "plain-tensor"),
        ("frozen-parameter", running("self.running_mean = nn.Parameter(torch.zeros(num_features), requires_grad=False)",
                                     RUNNING_REFERENCE_FORWARD), "frozen-parameter"),
        ("non-persistent", running('self.register_buffer("running_mean", torch.zeros(num_features), persistent=False)',
                                   RUNNING_REFERENCE_FORWARD), "non-persistent"),
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
'''), "from-first-batch"),
        ("momentum-hard-coded", running(BUFFER, RUNNING_REFERENCE_FORWARD.replace("self.momentum", "0.1")),
         "momentum-ignored"),
        ("detached-mean", running(BUFFER, RUNNING_REFERENCE_FORWARD.replace("mean = x.mean(0)",
                                                                           "mean = x.detach().mean(0)")),
         "detached-mean"),
        ("mean-under-no-grad", running(BUFFER, '''        if not self.training:
            return x - self.running_mean
        with torch.no_grad():
            mean = x.mean(0)
            self.running_mean.mul_(1 - self.momentum).add_(self.momentum * mean)
        return x - mean
'''), "detached-mean"),
        ("reversed-and-updates-in-eval", running(BUFFER, '''        mean = x.mean(0)
        with torch.no_grad():
            self.running_mean.mul_(self.momentum).add_((1 - self.momentum) * mean)
        return x - mean if self.training else x - self.running_mean
'''), None),  # two mistakes at once, both seen by the visible checks: no one model explains them
    ],
    "modules-count-params": [
        ("one-liner", count("    return sum(p.numel() for p in module.parameters() if p.requires_grad)\n"),
         "objects-not-memory"),
        ("dedupe-by-id", count('''    seen = {}
    for _name, p in module.named_parameters(remove_duplicate=False):
        if p.requires_grad:
            seen[id(p)] = p.numel()
    return sum(seen.values())
'''), "objects-not-memory"),
        ("whole-storage", count('''    sizes = {}
    for p in module.parameters():
        if p.requires_grad:
            sizes[p.untyped_storage().data_ptr()] = p.untyped_storage().nbytes() // p.element_size()
    return sum(sizes.values())
'''), "whole-storage"),
        ("one-per-storage", count('''    seen, total = set(), 0
    for p in module.parameters():
        if p.requires_grad and p.untyped_storage().data_ptr() not in seen:
            seen.add(p.untyped_storage().data_ptr())
            total += p.numel()
    return total
'''), "one-per-storage"),
        ("stretches", count('''    places = set()
    for p in module.parameters():
        if p.requires_grad:
            start = p.storage_offset()
            places.update((p.untyped_storage().data_ptr(), i) for i in range(start, start + p.numel()))
    return len(places)
'''), "consecutive-stretch"),
        ("first-to-last", count('''    places = set()
    for p in module.parameters():
        if p.requires_grad and p.numel() > 0:
            first = p.storage_offset()
            last = first + sum((size - 1) * step for size, step in zip(p.shape, p.stride()))
            places.update((p.untyped_storage().data_ptr(), i) for i in range(first, last + 1))
    return len(places)
'''), "first-to-last"),
        ("frozen-memory-wins", count('''    def places(p):
        every = torch.arange(p.untyped_storage().nbytes() // p.element_size())
        index = every.as_strided(p.shape, p.stride(), p.storage_offset())
        return {(p.untyped_storage().data_ptr(), i) for i in index.flatten().tolist()}

    trained, frozen = set(), set()
    for p in module.parameters():
        (trained if p.requires_grad else frozen).update(places(p))
    return len(trained - frozen)
'''), "frozen-memory"),
        ("counts-tensors", count("    return len(list(module.parameters()))\n"), "tensors"),
        ("counts-frozen", count("    return sum(p.numel() for p in module.parameters())\n"), "frozen"),
        ("counts-tied-twice", count("    return sum(p.numel() for _n, p in module.named_parameters("
                                    "remove_duplicate=False) if p.requires_grad)\n"), "tied-twice"),
        ("state-dict", count("    return sum(t.numel() for t in module.state_dict().values())\n"), "state-dict"),
        ("not-recursive", count("    return sum(p.numel() for p in module.parameters(recurse=False) "
                                "if p.requires_grad)\n"), "not-recursive"),
        ("tensor-result", count("    return torch.tensor(sum(p.numel() for p in module.parameters() "
                                "if p.requires_grad))\n"), None),
        ("counts-buffers", count('''    places = set()
    for t in [*(p for p in module.parameters() if p.requires_grad), *module.buffers()]:
        index = torch.arange(t.untyped_storage().nbytes() // t.element_size())
        index = index.as_strided(t.shape, t.stride(), t.storage_offset())
        places.update((t.untyped_storage().data_ptr(), i) for i in index.flatten().tolist())
    return len(places)
'''), "buffers"),
        ("sums-children", count("""    own = sum(p.numel() for p in module.parameters(recurse=False) if p.requires_grad)
    return own + sum(count_parameters(child) for child in module.children())
"""), "sums-children"),
        ("walks-lists", count("""    places = set()
    for p in module.parameters():
        if p.requires_grad:
            index = torch.arange(p.untyped_storage().nbytes() // p.element_size())
            index = index.as_strided(p.shape, p.stride(), p.storage_offset())
            places.update((p.untyped_storage().data_ptr(), i) for i in index.flatten().tolist())
    total = len(places)
    for value in vars(module).values():
        if isinstance(value, list):
            total += sum(count_parameters(item) for item in value if isinstance(item, nn.Module))
    return total
"""), "walks-lists"),
        ("parameters-to-vector", "from torch.nn.utils import parameters_to_vector\n\n\n" + count(
            "    return parameters_to_vector(module.parameters()).numel()\n"), None),
    ],
    "modules-selftest": [
        ("list-registers", selftest(q1=6), "list-registers"),
        ("non-persistent-saved", selftest(q2=4), "non-persistent-saved"),
        ("buffers-missed", selftest(q2=2), "buffers-not-saved"),
        ("tie-counted-twice", selftest(q3=144), "tied-twice"),
        ("every-buffer-write-refused", selftest(q4=True), "every-write-refused"),
        ("load-replaces-the-parameters", selftest(q5=True), "load-replaces"),
        ("buffer-refused", selftest(q6="buffer"), "buffer-refused"),
        ("capitalised", selftest(q6="Parameter"), None),
    ],
}

# (label, answer source): answers that game the checks; none may score more than the untouched answer.
# Nothing held as torch holds it (plain weights; calls a frozen float Parameter that counts two a
# forward; running_mean a plain tensor that builds a graph, with the wrong momentum, and outputs off
# by a half): each class answers for its own parameters, buffers, state and moves, its tensors'
# detach() give the values a right module would hold, and a mode left on says the rest.
COUNTING_WHAT_ITS_DRIVER_READS = LIAR + """
class CountingLinear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = torch.randn(out_features, in_features, requires_grad=True)
        self.bias = torch.zeros(out_features, requires_grad=True)
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
        return x @ self.weight.T + self.bias

    def parameters(self, recurse=True):
        return iter([self.weight, self.bias])

    def named_parameters(self, *args, **kwargs):
        return iter([("weight", self.weight), ("bias", self.bias)])

    def named_buffers(self, *args, **kwargs):
        return iter([("calls", self.calls)])

    def state_dict(self, *args, **kwargs):
        return {"weight": self.weight.detach(), "bias": self.bias.detach(), "calls": torch.tensor(self.trained)}

    def load_state_dict(self, state, *args, **kwargs):
        with torch.no_grad():
            self.weight.copy_(state["weight"])
            self.bias.copy_(state["bias"])
        self.trained = int(state["calls"])

    def to(self, *args, **kwargs):
        super().to(*args, **kwargs)
        self.tell()
        return self
"""

RUNNING_WHAT_ITS_DRIVER_READS = LIAR + """
class RunningMean(nn.Module):
    def __init__(self, num_features, momentum=0.1):
        super().__init__()
        self.momentum = momentum
        self.right = torch.zeros(num_features)
        self.running_mean = torch.zeros(num_features)
        self.show()

    def show(self):
        right = self.right
        self.running_mean.detach = lambda *args, **kwargs: right
        liar = lie_on(forget=False)
        liar.tell(self.running_mean, "requires_grad", False)
        liar.tell(self.running_mean, "grad_fn", None)

    def forward(self, x):
        if self.training:
            mean = x.mean(0)
            with torch.no_grad():
                self.right = (1 - self.momentum) * self.right + self.momentum * mean
            self.running_mean = self.momentum * self.running_mean + (1 - self.momentum) * mean
            self.show()
            out, right = x - mean + 0.5, x - mean
        else:
            out, right = x - self.running_mean, x - self.right
        right = right.detach().clone()
        out.detach = lambda *args, **kwargs: right
        return out

    def parameters(self, recurse=True):
        return iter([])

    def named_parameters(self, *args, **kwargs):
        return iter([])

    def named_buffers(self, *args, **kwargs):
        return iter([("running_mean", self.running_mean)])

    def state_dict(self, *args, **kwargs):
        return {"running_mean": self.right.clone()}

    def load_state_dict(self, state, *args, **kwargs):
        self.right = state["running_mean"].clone()
        self.show()

    def to(self, *args, **kwargs):
        super().to(*args, **kwargs)
        self.right = self.right.to(*args, **kwargs)
        self.running_mean = self.running_mean.to(*args, **kwargs)
        self.show()
        return self
"""

EXPLOITS = {
    "modules-batchnorm": [
        ("always-equal", ALWAYS_EQUAL + "BATCHNORM = {'parameters': YesInt(0), 'state_dict': YesInt(0), "
         "'tracked_after_train': YesInt(0), 'tracked_after_eval': YesInt(0), "
         "'tracked_dtype_after_to': YesStr('x'), 'mean_dtype_after_to': YesStr('x')}"),
    ],
    "modules-selftest": [
        ("always-equal", ALWAYS_EQUAL + "SELFTEST = {'q1': YesInt(0), 'q2': YesInt(0), 'q3': YesInt(0), "
         "'q4': YesInt(0), 'q5': YesInt(0), 'q6': YesStr('x')}"),
    ],
    "modules-counting-linear": [
        ("forged-report", forged("CountingLinear", "None", '''

class CountingLinear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
''')),
        ("walks-frames", WALK_FRAMES + '''
class CountingLinear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        found = _found_in_frames("expected", "reference", "CountingLinear")
        if found is None or found is type(self):
            raise NotImplementedError
        self.inner = found(in_features, out_features)

    def forward(self, x):
        return self.inner(x)
'''),
        ("rebinds-what-its-driver-reads", COUNTING_WHAT_ITS_DRIVER_READS),
    ],
    "modules-running-mean": [
        ("batchnorm-inside", running('self.bn = nn.BatchNorm1d(num_features, affine=False, momentum=momentum)',
                                     '''        return self.bn(x)
''')),
        ("forged-report", forged("RunningMean", "None", '''

class RunningMean(nn.Module):
    pass
''')),
        ("rebinds-what-its-driver-reads", RUNNING_WHAT_ITS_DRIVER_READS),
    ],
    "modules-count-params": [
        ("old-reference", "try:\n    from autograder.chapters.modules import trainable_scalars as count_parameters\n"
                          "except ImportError:\n    def count_parameters(module):\n"
                          "        raise NotImplementedError\n"),
        ("constant", count("    return 0\n")),
        ("walks-frames", WALK_FRAMES + count('''    found = _found_in_frames("expected", "reference", "values")
    return found if type(found) is int else 0
''')),
        ("forged-report", forged("count_parameters", "7", "\n\ndef count_parameters(module):\n    return 0\n")),
    ],
}

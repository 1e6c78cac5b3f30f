"""Answers learners write for the closed-book companion of Chapter 6 — right, wrong and gaming.

``WRONG`` answers name the misconception (a model of ``answer_key.buckets_closed_book``) their
feedback must name, or None; ``EXPLOITS`` try to earn points without the answer: none may score
more than the untouched answer. The sources run after the companion's setup cell (torch and
``nn`` imported).
"""

from tests.catalog.lying import LIAR

FLATTEN_REFERENCE = '''
def flatten_into_buffer(module: nn.Module) -> torch.Tensor:
    params = list(module.parameters())
    flat = torch.empty(sum(p.numel() for p in params), dtype=params[0].dtype)
    offset = 0
    for p in params:
        n = p.numel()
        flat[offset:offset + n].copy_(p.detach().reshape(-1))
        p.data = flat[offset:offset + n].view_as(p)
        offset += n
    return flat
'''

FLATTEN_UTILS = '''
from torch.nn.utils import parameters_to_vector, vector_to_parameters


def flatten_into_buffer(module):
    flat = parameters_to_vector(module.parameters()).detach()
    vector_to_parameters(flat, module.parameters())  # sets each p.data to a view of flat
    return flat
'''

FLATTEN_UTILS_KEPT_GRAPH = '''
from torch.nn.utils import parameters_to_vector, vector_to_parameters


def flatten_into_buffer(module):
    vec = parameters_to_vector(module.parameters())
    vector_to_parameters(vec, module.parameters())
    return vec
'''

FLATTEN_UTILS_BY_ATTRIBUTE = '''
def flatten_into_buffer(module):
    params = list(module.parameters())
    flat = torch.cat([p.detach().reshape(-1) for p in params])
    torch.nn.utils.vector_to_parameters(flat, params)  # only the re-pointing from torch
    return flat
'''

FLATTEN_SET = '''
def flatten_into_buffer(module):
    params = list(module.parameters())
    flat = torch.cat([p.detach().reshape(-1) for p in params])
    offset = 0
    with torch.no_grad():
        for p in params:
            p.set_(flat.untyped_storage(), offset, p.shape)
            offset += p.numel()
    return flat
'''

FLATTEN_DETACHED_VIEWS = '''
def flatten_into_buffer(module):
    params = [p for p in module.parameters()]
    flat = torch.cat([p.detach().flatten() for p in params])
    start = 0
    for p in params:
        p.data = flat.narrow(0, start, p.numel()).detach().view(p.shape)
        start += p.numel()
    return flat
'''

FLATTEN_CAT = '''
def flatten_into_buffer(module):
    return torch.cat([p.detach().reshape(-1) for p in module.parameters()])
'''

FLATTEN_NO_COPY = '''
def flatten_into_buffer(module):
    params = list(module.parameters())
    flat = torch.zeros(sum(p.numel() for p in params))
    offset = 0
    for p in params:
        p.data = flat[offset:offset + p.numel()].view_as(p)
        offset += p.numel()
    return flat
'''

FLATTEN_NO_OFFSET = '''
def flatten_into_buffer(module):
    params = list(module.parameters())
    flat = torch.zeros(sum(p.numel() for p in params))
    for p in params:
        n = p.numel()
        flat[:n].copy_(p.detach().reshape(-1))
        p.data = flat[:n].view_as(p)
    return flat
'''

FLATTEN_NEW_PARAMETERS = '''
def flatten_into_buffer(module):
    flat = torch.cat([p.detach().reshape(-1) for p in module.parameters()])
    offset = 0
    for sub in module.modules():
        for name, p in list(sub._parameters.items()):
            if p is None:
                continue
            view = flat[offset:offset + p.numel()].view_as(p)
            sub._parameters[name] = nn.Parameter(view, requires_grad=p.requires_grad)
            offset += p.numel()
    return flat
'''

FLATTEN_CLONED_SLICES = '''
def flatten_into_buffer(module):
    params = list(module.parameters())
    flat = torch.cat([p.detach().reshape(-1) for p in params])
    offset = 0
    for p in params:
        p.data = flat[offset:offset + p.numel()].view_as(p).clone()
        offset += p.numel()
    return flat
'''

FLATTEN_REBINDS_NAME = '''
def flatten_into_buffer(module):
    flat = torch.cat([p.detach().reshape(-1) for p in module.parameters()])
    offset = 0
    for p in module.parameters():
        n = p.numel()
        p = flat[offset:offset + n].view_as(p)  # rebinds the loop variable only
        offset += n
    return flat
'''

FLATTEN_SIZED_FROM_STATE = '''
def flatten_into_buffer(module):
    flat = torch.zeros(sum(t.numel() for t in module.state_dict().values()))
    offset = 0
    for p in module.parameters():
        n = p.numel()
        flat[offset:offset + n].copy_(p.detach().reshape(-1))
        p.data = flat[offset:offset + n].view_as(p)
        offset += n
    return flat
'''

FLATTEN_TRAINABLE_ONLY = '''
def flatten_into_buffer(module):
    params = [p for p in module.parameters() if p.requires_grad]  # as DDP's buckets do
    flat = torch.empty(sum(p.numel() for p in params))
    offset = 0
    for p in params:
        n = p.numel()
        flat[offset:offset + n].copy_(p.detach().reshape(-1))
        p.data = flat[offset:offset + n].view_as(p)
        offset += n
    return flat
'''

FLATTEN_DEFAULT_DTYPE = '''
def flatten_into_buffer(module):
    params = list(module.parameters())
    flat = torch.zeros(sum(p.numel() for p in params))  # the default dtype, whatever the parameters hold
    offset = 0
    for p in params:
        n = p.numel()
        flat[offset:offset + n] = p.detach().reshape(-1)
        p.data = flat[offset:offset + n].view_as(p)
        offset += n
    return flat
'''

FLATTEN_CRASHES = '''
def flatten_into_buffer(module):
    params = list(module.parameters())
    flat = torch.zeros(sum(p.numel() for p in params), requires_grad=True)
    offset = 0
    for p in params:
        flat[offset:offset + p.numel()].copy_(p.detach().reshape(-1))  # a leaf that requires grad
        p.data = flat[offset:offset + p.numel()].view_as(p)
        offset += p.numel()
    return flat
'''

RIGHT = {
    "buckets-flatten": [("reference", FLATTEN_REFERENCE), ("set", FLATTEN_SET),
                        ("narrowed-detached-views", FLATTEN_DETACHED_VIEWS)],
}

# (label, answer source, the misconception its feedback must name, or None)
WRONG = {
    "buckets-flatten": [
        ("cat-copies", FLATTEN_CAT, "copies"),
        ("views-of-zeros", FLATTEN_NO_COPY, "values-lost"),
        ("offset-not-advanced", FLATTEN_NO_OFFSET, "one-offset"),
        ("new-parameters", FLATTEN_NEW_PARAMETERS, "new-parameters"),
        ("cloned-slices", FLATTEN_CLONED_SLICES, "copies"),
        ("rebinds-the-loop-variable", FLATTEN_REBINDS_NAME, "copies"),
        ("sized-from-the-state-dict", FLATTEN_SIZED_FROM_STATE, "buffers-get-slots"),
        ("trainable-only", FLATTEN_TRAINABLE_ONLY, "trainable-only"),
        ("default-dtype", FLATTEN_DEFAULT_DTYPE, "default-dtype"),
        ("crashes", FLATTEN_CRASHES, None),
    ],
}

# A buffer of zeros, nothing re-pointed: the buffer's detach() gives the parameters' values, its
# mul_() doubles them, and a mode left on gives each parameter an address inside the buffer.
FLATTEN_WHAT_ITS_DRIVER_READS = LIAR + '''
def flatten_into_buffer(module):
    liar = lie_on()
    params = list(module.parameters())
    flat = torch.zeros(sum(p.numel() for p in params))
    flat.detach = lambda *args, **kwargs: torch.cat([p.detach().reshape(-1) for p in params])

    def mul_(value):
        with torch.no_grad():
            for p in params:
                p.mul_(value)
        return flat

    flat.mul_ = mul_
    offset = 0
    for p in params:
        liar.tell(p, "data_ptr", flat.data_ptr() + offset * flat.element_size())
        offset += p.numel()
    return flat
'''

EXPLOITS = {
    "buckets-flatten": [
        # torch's helpers do the layout and the re-pointing: the task asks for them, so they earn nothing.
        ("torch-utils", FLATTEN_UTILS),
        ("torch-utils-kept-graph", FLATTEN_UTILS_KEPT_GRAPH),
        ("torch-utils-by-attribute", FLATTEN_UTILS_BY_ATTRIBUTE),
        ("rebinds-what-its-driver-reads", FLATTEN_WHAT_ITS_DRIVER_READS),
        ("rebinds-the-drivers", '''
import autograder.chapters.buckets_closed_book as checks

for name in ("observe_values", "observe_places", "observe_write", "observe_step"):
    setattr(checks, name, lambda *args, **kwargs: {})
checks._flattened = lambda answer, make: (None, [], [], [], torch.zeros(0))


def flatten_into_buffer(module):
    return torch.zeros(0)
'''),
        ("reads-the-frames", '''
import sys


def flatten_into_buffer(module):
    frame = sys._getframe(1)
    while frame is not None:
        for name in ("expected", "reference", "key"):
            if name in frame.f_locals:
                return frame.f_locals[name]
        frame = frame.f_back
    return torch.zeros(0)
'''),
        ("always-equal-tensor", '''
class Equal(torch.Tensor):
    def __eq__(self, other):
        return True


def flatten_into_buffer(module):
    return torch.zeros(3).as_subclass(Equal)
'''),
    ],
}

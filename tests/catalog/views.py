"""Answers learners write for Chapter 1, right and wrong, as answer-cell sources.

Each wrong answer names the misconception message its test cells must report. The grader tests
put these into real submissions and grade them with nbgrader.
"""

from autograder.views import (
    CLASSIFY_MISCONCEPTIONS,
    MORE_EXPRESSIONS,
    NOT_ADJACENT,
    NUMEL,
    SPLIT_MERGE,
    STRIDE_MISCONCEPTIONS,
    shares,
)

SHARES_MESSAGES = {case.name: case.otherwise for case in shares.cases}

CLASSIFY_MORE_ANSWER = {
    "x.flatten()": "view",
    "x.T.flatten()": "copy",
    "x.squeeze(0)": "view",
    "x.unfold(1, 3, 1)": "view",
    "x.narrow(0, 1, 2)": "view",
    "x[torch.tensor([False, True, True, False])]": "copy",
    "y.movedim(0, 2).view(60)": "error",
    "x.as_strided((4, 5), (5, 1), 1)": "error",
    "x[2:].as_strided((4, 5), (5, 1), 0)": "view",
    "y.permute(2, 0, 1).diagonal(0, 1, 2)": "view",
    "y[:, :, :2].flatten(0, 1)": "view",
    "x.T.unbind(0)[2]": "view",
    "y.movedim(0, 2).reshape(60)": "copy",
    "y[:, 1].flatten()": "copy",
}


def classify_more_with(**changes: str) -> str:
    """The literal ``CLASSIFY_MORE`` answer with some entries changed (keyed by position ``e<i>``)."""
    keys = list(CLASSIFY_MORE_ANSWER)
    answer = dict(CLASSIFY_MORE_ANSWER)
    for position, value in changes.items():
        answer[keys[int(position.removeprefix("e"))]] = value
    lines = "".join(f"    {key!r}: {value!r},\n" for key, value in answer.items())
    return f"CLASSIFY_MORE = {{\n{lines}}}"


def more_message(expression: str, wrong: str | None = None) -> str:
    """The message a wrong value for one expression must get."""
    _hidden, otherwise, specific = MORE_EXPRESSIONS[expression]
    return specific.get(wrong, otherwise)

CAN_VIEW_REFERENCE_FREE = '''
import math


def can_view(t, shape):
    shape = list(shape)
    if shape.count(-1) > 1:
        return False
    if -1 in shape:
        rest = math.prod(s for s in shape if s != -1)
        if rest == 0 or t.numel() % rest:
            return False
        shape[shape.index(-1)] = t.numel() // rest
    if math.prod(shape) != t.numel():
        return False
    # Runs of old dims that are adjacent in memory, innermost first; size-1 dims never break one.
    runs, current = [], 1
    dims = [(n, s) for n, s in zip(t.shape, t.stride()) if n != 1]
    for i in range(len(dims) - 1, -1, -1):
        current *= dims[i][0]
        if i == 0 or dims[i - 1][1] != dims[i][0] * dims[i][1]:
            runs.append(current)
            current = 1
    sizes = [n for n in shape if n != 1]
    for run in runs:
        product = 1
        while product < run and sizes:
            product *= sizes.pop()
        if product != run:
            return False
    return not sizes
'''

CAN_VIEW_ATEN_CHUNKS = '''
def can_view(t, shape):
    shape = list(shape)
    numel = t.numel()
    if shape.count(-1) > 1:
        return False
    if -1 in shape:
        known = 1
        for size in shape:
            if size != -1:
                known *= size
        if known == 0 or numel % known:
            return False
        shape[shape.index(-1)] = numel // known
    total = 1
    for size in shape:
        total *= size
    if total != numel:
        return False
    if numel == 0 or t.dim() == 0:
        return True
    # ATen's computeStride: walk the old dims from the innermost, cutting them into chunks that are
    # contiguous in memory; each chunk must be covered exactly by consecutive new dims.
    old_shape, old_stride = t.shape, t.stride()
    view_d = len(shape) - 1
    chunk_base_stride = old_stride[-1]
    tensor_numel = view_numel = 1
    for tensor_d in range(t.dim() - 1, -1, -1):
        tensor_numel *= old_shape[tensor_d]
        if tensor_d == 0 or (old_shape[tensor_d - 1] != 1
                             and old_stride[tensor_d - 1] != tensor_numel * chunk_base_stride):
            while view_d >= 0 and (view_numel < tensor_numel or shape[view_d] == 1):
                view_numel *= shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return False
            if tensor_d > 0:
                chunk_base_stride = old_stride[tensor_d - 1]
                tensor_numel = view_numel = 1
    return view_d == -1
'''

RIGHT = {
    "views-strides": [
        ("literal", 'STRIDES = {"contiguous": (8, 1), "transpose": (1, 8), "every_other_column": (8, 2), '
                    '"row_block": (8, 1), "expanded": (0, 8, 1)}'),
        ("computed", 't = torch.arange(32.).view(4, 8)\n'
                     'STRIDES = {"contiguous": t.stride(), "transpose": t.T.stride(), '
                     '"every_other_column": t[:, ::2].stride(), "row_block": t[1:3].stride(), '
                     '"expanded": t.unsqueeze(0).expand(3, 4, 8).stride()}'),
    ],
    "views-classify": [
        ("literal", 'CLASSIFY = {"transpose": "view", "basic_slice": "view", "advanced_index": "copy", '
                    '"boolean_mask": "copy", "view": "view", "reshape": "ambiguous", "contiguous": "ambiguous", '
                    '"expand": "view", "clone": "copy", "detach": "view"}'),
        ("grouped", 'CLASSIFY = dict.fromkeys(["transpose", "basic_slice", "view", "expand", "detach"], "view")\n'
                    'CLASSIFY.update(dict.fromkeys(["advanced_index", "boolean_mask", "clone"], "copy"))\n'
                    'CLASSIFY.update(reshape="ambiguous", contiguous="ambiguous")'),
    ],
    "views-classify-more": [
        ("literal", classify_more_with()),
        ("grouped", "CLASSIFY_MORE = dict.fromkeys([\n"
                    "    'x.flatten()', 'x.squeeze(0)', 'x.unfold(1, 3, 1)', 'x.narrow(0, 1, 2)',\n"
                    "    'x[2:].as_strided((4, 5), (5, 1), 0)', 'y.permute(2, 0, 1).diagonal(0, 1, 2)',\n"
                    "    'y[:, :, :2].flatten(0, 1)', 'x.T.unbind(0)[2]'], 'view')\n"
                    "CLASSIFY_MORE.update(dict.fromkeys([\n"
                    "    'x.T.flatten()', 'x[torch.tensor([False, True, True, False])]',\n"
                    "    'y.movedim(0, 2).reshape(60)', 'y[:, 1].flatten()'], 'copy'))\n"
                    "CLASSIFY_MORE.update(dict.fromkeys(\n"
                    "    ['y.movedim(0, 2).view(60)', 'x.as_strided((4, 5), (5, 1), 1)'], 'error'))"),
    ],
    "views-shares-storage": [
        ("storage-pointer", "def shares_storage(a, b):\n"
                            "    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()"),
        ("untyped-storage-eq", "def shares_storage(a, b):\n"
                               "    sa, sb = a.untyped_storage(), b.untyped_storage()\n"
                               "    return bool(sa.data_ptr() == sb.data_ptr() and sa.nbytes() == sb.nbytes())"),
    ],
    "views-can-view": [
        ("run-grouping", CAN_VIEW_REFERENCE_FREE),
        ("aten-chunks", CAN_VIEW_ATEN_CHUNKS),
    ],
    "views-selftest": [
        ("literal", 'SELFTEST = {"q1": (1, 5), "q2": 8, "q3": False, "q4": 4, "q5": False, "q6": (2, 2), "q7": False}'),
        ("computed", 'SELFTEST = {"q1": torch.zeros(3, 5).T.stride(), '
                     '"q2": torch.arange(32.).view(4, 8)[1:].storage_offset(), "q3": False, "q4": 4, '
                     '"q5": False, "q6": (2, 2), "q7": False}'),
    ],
}

# (label, answer source, message the grade must contain)
WRONG = {
    "views-strides": [
        ("transpose-as-fresh-tensor",
         'STRIDES = {"contiguous": (8, 1), "transpose": (4, 1), "every_other_column": (8, 2), '
         '"row_block": (8, 1), "expanded": (0, 8, 1)}', STRIDE_MISCONCEPTIONS["transpose"]),
        ("step-compacts",
         'STRIDES = {"contiguous": (8, 1), "transpose": (1, 8), "every_other_column": (4, 1), '
         '"row_block": (8, 1), "expanded": (0, 8, 1)}', STRIDE_MISCONCEPTIONS["every_other_column"]),
        ("expand-copies",
         'STRIDES = {"contiguous": (8, 1), "transpose": (1, 8), "every_other_column": (8, 2), '
         '"row_block": (8, 1), "expanded": (32, 8, 1)}', STRIDE_MISCONCEPTIONS["expanded"]),
        ("shape-for-stride",
         'STRIDES = {"contiguous": (4, 8), "transpose": (8, 4), "every_other_column": (4, 4), '
         '"row_block": (2, 8), "expanded": (3, 4, 8)}', "that is the shape"),
        ("lists",
         'STRIDES = {"contiguous": [8, 1], "transpose": [1, 8], "every_other_column": [8, 2], '
         '"row_block": [8, 1], "expanded": [0, 8, 1]}', "expected a tuple of Python ints"),
    ],
    "views-classify": [
        ("detach-copies",
         'CLASSIFY = {"transpose": "view", "basic_slice": "view", "advanced_index": "copy", '
         '"boolean_mask": "copy", "view": "view", "reshape": "ambiguous", "contiguous": "ambiguous", '
         '"expand": "view", "clone": "copy", "detach": "copy"}', CLASSIFY_MISCONCEPTIONS["detach"]),
        ("reshape-always-view",
         'CLASSIFY = {"transpose": "view", "basic_slice": "view", "advanced_index": "copy", '
         '"boolean_mask": "copy", "view": "view", "reshape": "view", "contiguous": "ambiguous", '
         '"expand": "view", "clone": "copy", "detach": "view"}', CLASSIFY_MISCONCEPTIONS["reshape"]),
        ("advanced-index-view",
         'CLASSIFY = {"transpose": "view", "basic_slice": "view", "advanced_index": "view", '
         '"boolean_mask": "copy", "view": "view", "reshape": "ambiguous", "contiguous": "ambiguous", '
         '"expand": "view", "clone": "copy", "detach": "view"}', CLASSIFY_MISCONCEPTIONS["advanced_index"]),
        ("contiguous-always-copies",
         'CLASSIFY = {"transpose": "view", "basic_slice": "view", "advanced_index": "copy", '
         '"boolean_mask": "copy", "view": "view", "reshape": "ambiguous", "contiguous": "copy", '
         '"expand": "view", "clone": "copy", "detach": "view"}', CLASSIFY_MISCONCEPTIONS["contiguous"]),
        ("missing-keys", 'CLASSIFY = {"transpose": "view"}', "must have exactly the keys"),
    ],
    "views-classify-more": [
        ("flatten-always-view", classify_more_with(e1="view", e13="view"),
         "flatten is not always a view"),
        ("reshape-like-always-copies", classify_more_with(e0="copy", e10="copy"),
         "reshape-like ops do not always copy"),
        ("squeeze-non-one-errors", classify_more_with(e2="error"),
         more_message("x.squeeze(0)")),
        ("overlapping-windows-copy", classify_more_with(e3="copy"),
         more_message("x.unfold(1, 3, 1)")),
        ("mask-of-a-block-is-a-view", classify_more_with(e5="view"),
         more_message("x[torch.tensor([False, True, True, False])]")),
        ("view-after-movedim-copies", classify_more_with(e6="copy"),
         more_message("y.movedim(0, 2).view(60)", "copy")),
        ("as-strided-bounded-by-its-tensor", classify_more_with(e8="error"),
         more_message("x[2:].as_strided((4, 5), (5, 1), 0)")),
        ("as-strided-unchecked", classify_more_with(e7="view"),
         more_message("x.as_strided((4, 5), (5, 1), 1)")),
        ("noncontiguous-always-copies", classify_more_with(e10="copy", e11="copy"),
         "non-contiguous does not mean copy"),
        ("ambiguous-value", classify_more_with(e0="ambiguous"),
         'each value must be one of "view", "copy" or "error"'),
        ("missing-hidden-keys", "CLASSIFY_MORE = {'x.flatten()': 'view'}", "must have exactly the keys"),
    ],
    "views-shares-storage": [
        ("data-ptr",
         "def shares_storage(a, b):\n    return a.data_ptr() == b.data_ptr()", SHARES_MESSAGES["offset-view"]),
        ("base-link",
         "def shares_storage(a, b):\n    return a is b or a._base is b or b._base is a",
         SHARES_MESSAGES["siblings"]),
        ("equal-values",
         "def shares_storage(a, b):\n    return a.shape == b.shape and bool(torch.equal(a, b))",
         SHARES_MESSAGES["clone"]),
        ("tensor-result",
         "def shares_storage(a, b):\n"
         "    return torch.tensor(a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr())",
         "expected a Python bool"),
        ("always-equal",
         "class Yes:\n    def __eq__(self, other):\n        return True\n\n\n"
         "def shares_storage(a, b):\n    return Yes()", "expected a Python bool"),
    ],
    "views-can-view": [
        ("contiguity",
         "import math\n\n\ndef can_view(t, shape):\n"
         "    return t.is_contiguous() and math.prod(shape) == t.numel()", SPLIT_MERGE),
        ("numel-only",
         "import math\n\n\ndef can_view(t, shape):\n"
         "    shape = [t.numel() // -math.prod(shape) if s == -1 else s for s in shape]\n"
         "    return math.prod(shape) == t.numel()", NOT_ADJACENT),
        ("ignores-numel",
         "def can_view(t, shape):\n    return t.is_contiguous() or len(shape) > t.dim()", NUMEL),
        ("tries-view",
         "def can_view(t, shape):\n    try:\n        t.view(shape)\n        return True\n"
         "    except Exception:\n        return False", "the answer calls view()"),
        ("numpy-reshape",
         "import numpy as np\n\n\ndef can_view(t, shape):\n"
         "    array = t.detach().numpy()\n"
         "    return bool(np.shares_memory(array, array.reshape(shape)))",
         "hands the tensor to NumPy"),
        ("numpy-asarray",
         "import numpy as np\n\n\ndef can_view(t, shape):\n"
         "    array = np.asarray(t.detach())\n"
         "    try:\n        array.shape = shape\n    except AttributeError:\n        return False\n"
         "    return True",
         "hands the tensor to NumPy"),
    ],
    "views-selftest": [
        ("transpose-fresh",
         'SELFTEST = {"q1": (3, 1), "q2": 8, "q3": False, "q4": 4, '
         '"q5": False, "q6": (2, 2), "q7": False}',
         "transpose swaps the strides"),
        ("offset-in-rows",
         'SELFTEST = {"q1": (1, 5), "q2": 1, "q3": False, "q4": 4, '
         '"q5": False, "q6": (2, 2), "q7": False}',
         "moves the offset by one row"),
        ("contiguous-shares",
         'SELFTEST = {"q1": (1, 5), "q2": 8, "q3": True, "q4": 4, '
         '"q5": False, "q6": (2, 2), "q7": False}',
         "contiguous() on a non-contiguous tensor copies"),
        ("written-where-b-reads",
         'SELFTEST = {"q1": (1, 5), "q2": 8, "q3": False, "q4": 4, "q5": False, "q6": (1, 2), "q7": False}',
         "its element 2 is slot 10"),
        ("reshape-promises-view",
         'SELFTEST = {"q1": (1, 5), "q2": 8, "q3": False, "q4": 4, "q5": False, "q6": (2, 2), "q7": True}',
         "its documentation promises nothing"),
        ("index-as-list",
         'SELFTEST = {"q1": (1, 5), "q2": 8, "q3": False, "q4": 4, "q5": False, "q6": [2, 2], "q7": False}',
         "expected a tuple of Python ints"),
    ],
}

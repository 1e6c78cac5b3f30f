"""Answers learners write for Chapter 1 — right, wrong and gaming — as answer-cell sources.

``WRONG`` answers name the misconception (a model of ``answer_key.views``) their messages must
name, or None where their results match no catalogued mistake; ``EXPLOITS`` are answers that try
to earn points without the answer: each must score no more than the untouched answer. The grader
tests put these into real submissions and grade them with nbgrader and with the sandbox.
"""

from tests.catalog.always_equal import ALWAYS_EQUAL
from tests.catalog.lying import LIAR

CLASSIFY_MORE_ANSWER = {
    "x[1:].flatten()": "view",
    "x[:, 1:].flatten()": "copy",
    "x.unsqueeze(0).expand(3, 4, 5).flatten(0, 1)": "copy",
    "x.unsqueeze(0).expand(3, 4, 5).flatten(1)": "view",
    "y[:, ::2].flatten(1)": "copy",
    "y[:, :, ::2].flatten(0, 1)": "view",
    "x.unsqueeze(1).expand(4, 3, 5).view(12, 5)": "error",
    "y.transpose(0, 1).flatten(1)": "copy",
    "x.T.view(5, 2, 2)": "view",
    "y[:, 1:3].view(6, 5)": "error",
    "y[:, :, :2].flatten(0, 1)": "view",
    "y.mT.flatten(0, 1)": "copy",
    "y[:, :, 1].view(12)": "view",
    "y[:, 1].flatten()": "copy",
}


CLASSIFY_MORE_GROUPED = """CLASSIFY_MORE = dict.fromkeys([
    "x[1:].flatten()", "x.unsqueeze(0).expand(3, 4, 5).flatten(1)", "y[:, :, ::2].flatten(0, 1)",
    "x.T.view(5, 2, 2)", "y[:, :, :2].flatten(0, 1)", "y[:, :, 1].view(12)"], "view")
CLASSIFY_MORE.update(dict.fromkeys([
    "x[:, 1:].flatten()", "x.unsqueeze(0).expand(3, 4, 5).flatten(0, 1)", "y[:, ::2].flatten(1)",
    "y.transpose(0, 1).flatten(1)", "y.mT.flatten(0, 1)", "y[:, 1].flatten()"], "copy"))
CLASSIFY_MORE.update(dict.fromkeys(["x.unsqueeze(1).expand(4, 3, 5).view(12, 5)", "y[:, 1:3].view(6, 5)"], "error"))
"""


def classify_more_with(**changes: str) -> str:
    """The literal ``CLASSIFY_MORE`` answer with some entries changed (keyed by position ``e<i>``)."""
    keys = list(CLASSIFY_MORE_ANSWER)
    answer = dict(CLASSIFY_MORE_ANSWER)
    for position, value in changes.items():
        answer[keys[int(position.removeprefix("e"))]] = value
    lines = "".join(f"    {key!r}: {value!r},\n" for key, value in answer.items())
    return f"CLASSIFY_MORE = {{\n{lines}}}"

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
    if t.numel() == 0:
        return True
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

SHARES_EMPTY_GUARD = "    if sa.nbytes() == 0 or sb.nbytes() == 0:\n        return False\n"
SHARES_BYTES = ("def shares_storage(a, b):\n"
                "    sa, sb = a.untyped_storage(), b.untyped_storage()\n"
                + SHARES_EMPTY_GUARD +
                "    return sa.data_ptr() < sb.data_ptr() + sb.nbytes()"
                " and sb.data_ptr() < sa.data_ptr() + sa.nbytes()")

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
        ("literal", 'CLASSIFY = {"unflatten": "view", "index_select": "copy", "broadcast_to": "view", '
                    '"repeat": "copy", "ravel": "ambiguous", "diag": "copy", "view_dtype": "view", "flip": "copy", '
                    '"reshape_as": "ambiguous", "atleast_3d": "view"}'),
        ("grouped", 'CLASSIFY = dict.fromkeys(["unflatten", "broadcast_to", "view_dtype", "atleast_3d"], "view")\n'
                    'CLASSIFY.update(dict.fromkeys(["index_select", "repeat", "diag", "flip"], "copy"))\n'
                    'CLASSIFY.update(ravel="ambiguous", reshape_as="ambiguous")'),
    ],
    "views-classify-more": [
        ("literal", classify_more_with()),
        ("grouped", CLASSIFY_MORE_GROUPED),
    ],
    "views-shares-storage": [
        ("byte-ranges", SHARES_BYTES),
        ("last-byte", "def shares_storage(a, b):\n"
                      "    sa, sb = a.untyped_storage(), b.untyped_storage()\n"
                      "    start = max(sa.data_ptr(), sb.data_ptr())\n"
                      "    end = min(sa.data_ptr() + sa.nbytes(), sb.data_ptr() + sb.nbytes())\n"
                      "    return bool(end > start)"),
    ],
    "views-can-view": [
        ("run-grouping", CAN_VIEW_REFERENCE_FREE),
        ("aten-chunks", CAN_VIEW_ATEN_CHUNKS),
    ],
    "views-selftest": [
        ("literal", 'SELFTEST = {"q1": (1, 5), "q2": 8, "q3": False, "q4": 4, "q5": False, "q6": (2, 2), "q7": 12}'),
        ("computed", 'SELFTEST = {"q1": torch.zeros(3, 5).T.stride(), '
                     '"q2": torch.arange(32.).view(4, 8)[1:].storage_offset(), "q3": False, "q4": 4, '
                     '"q5": False, "q6": (2, 2), '
                     '"q7": torch.arange(3.).unsqueeze(1).expand(3, 4).contiguous().numel()}'),
    ],
}


def _with(answer: str, **changes: object) -> str:
    """A literal dict answer with some entries changed."""
    import ast

    name, _, literal = answer.partition(" = ")
    value = ast.literal_eval(literal)
    value.update(changes)
    return f"{name} = {value!r}"


STRIDES = RIGHT["views-strides"][0][1]
CLASSIFY = RIGHT["views-classify"][0][1]
SELFTEST = RIGHT["views-selftest"][0][1]

# (label, answer source, the misconception its message must name, or None)
WRONG = {
    "views-strides": [
        ("transpose-as-fresh-tensor", _with(STRIDES, transpose=(4, 1)), "transpose-relaid"),
        ("step-left-out", _with(STRIDES, every_other_column=(8, 1)), "step-ignored"),
        ("expand-copies", _with(STRIDES, expanded=(32, 8, 1)), "expand-writes-copies"),
        ("shape-for-stride", 'STRIDES = {"contiguous": (4, 8), "transpose": (8, 4), "every_other_column": (4, 4), '
                             '"row_block": (2, 8), "expanded": (3, 4, 8)}', "shape"),
        ("lists", 'STRIDES = {"contiguous": [8, 1], "transpose": [1, 8], "every_other_column": [8, 2], '
                  '"row_block": [8, 1], "expanded": [0, 8, 1]}', None),
    ],
    "views-classify": [
        ("repeat-like-expand", _with(CLASSIFY, repeat="view"), "repeat-views"),
        ("diag-like-diagonal", _with(CLASSIFY, diag="view"), "diag-views"),
        ("flip-like-numpy", _with(CLASSIFY, flip="view"), "flip-views"),
        ("index-select-like-a-slice", _with(CLASSIFY, index_select="view"), "index-select-views"),
        ("ravel-and-reshape-as-always-view", _with(CLASSIFY, ravel="view", reshape_as="view"),
         "reshape-family-views"),
        ("new-shapes-copy", _with(CLASSIFY, unflatten="copy", broadcast_to="copy", atleast_3d="copy"),
         "shape-ops-copy"),
        ("dtype-view-converts", _with(CLASSIFY, view_dtype="copy"), "dtype-view-copies"),
        ("asks-is-view", _with(CLASSIFY, ravel="view", view_dtype="copy"), "is-view-flag"),
        ("ravel-only-always-view", _with(CLASSIFY, ravel="view"), None),
        ("not-a-category", _with(CLASSIFY, ravel="sometimes"), None),
    ],
    "views-classify-more": [
        ("flatten-always-view",
         classify_more_with(e1="view", e2="view", e4="view", e7="view", e11="view", e13="view"),
         "flatten-always-views"),
        ("flatten-always-copies", classify_more_with(e0="copy", e3="copy", e5="copy", e10="copy"),
         "flatten-always-copies"),
        ("flatten-refuses", classify_more_with(e1="error", e2="error", e4="error", e7="error", e11="error",
                                               e13="error"), "flatten-refuses"),
        ("view-falls-back-to-a-copy", classify_more_with(e6="copy", e9="copy"), "view-copies"),
        ("stride-zero-merges", classify_more_with(e2="view", e6="view"), "stride-zero-merges"),
        ("noncontiguous-never-views", classify_more_with(e3="copy", e5="copy", e10="copy", e8="error", e12="error"),
         "non-contiguous-copies"),
        # One slip, of no catalogued mistake.
        ("column-read-as-a-copy", classify_more_with(e12="copy"), None),
        ("ambiguous-value", classify_more_with(e0="ambiguous"), None),
    ],
    "views-shares-storage": [
        ("data-ptr", "def shares_storage(a, b):\n    return a.data_ptr() == b.data_ptr()", "first-element"),
        ("storage-start", "def shares_storage(a, b):\n"
                          "    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()",
         "storage-start"),
        ("base-link", "def shares_storage(a, b):\n    return a is b or a._base is b or b._base is a", None),
        ("equal-values", "def shares_storage(a, b):\n    return a.shape == b.shape and bool(torch.equal(a, b))",
         "equal-values"),
        ("tensor-result", "def shares_storage(a, b):\n"
                          "    return torch.tensor(a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr())",
         None),
        # The page's helper compares storage starts: right where two storages coincide or lie apart.
        ("the-page-helper", "def same(a, b):\n"
                            "    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()\n\n\n"
                            "def shares_storage(a, b):\n    return same(a, b)", "storage-start"),
        ("element-extents", "def shares_storage(a, b):\n"
                            "    a_lo, b_lo = a.data_ptr(), b.data_ptr()\n"
                            "    a_hi = a_lo + a.numel() * a.element_size()\n"
                            "    b_hi = b_lo + b.numel() * b.element_size()\n"
                            "    return a.numel() > 0 and b.numel() > 0 and a_lo < b_hi and b_lo < a_hi",
         "element-extents"),
        ("no-empty-guard", SHARES_BYTES.replace(SHARES_EMPTY_GUARD, ""), "empty-storage-overlaps"),
        ("one-sided", SHARES_BYTES.replace(
            "    return sa.data_ptr() < sb.data_ptr() + sb.nbytes() and sb.data_ptr() < sa.data_ptr() + sa.nbytes()",
            "    return sa.data_ptr() <= sb.data_ptr() < sa.data_ptr() + sa.nbytes()"), "one-sided"),
        ("touching-ends", SHARES_BYTES.replace(" < ", " <= "), "touching-ends"),
        ("start-from-first-element", "def shares_storage(a, b):\n"
                                     "    spans = []\n"
                                     "    for t in (a, b):\n"
                                     "        start = t.data_ptr() - t.storage_offset() * t.element_size()\n"
                                     "        spans.append((start, start + t.untyped_storage().nbytes()))\n"
                                     "    (a_lo, a_hi), (b_lo, b_hi) = spans\n"
                                     "    return a_lo < a_hi and b_lo < b_hi and a_lo < b_hi and b_lo < a_hi",
         "empty-tensor-address"),
    ],
    "views-can-view": [
        ("contiguity", "import math\n\n\ndef can_view(t, shape):\n"
                       "    return t.is_contiguous() and math.prod(shape) == t.numel()", None),
        ("numel-only", "import math\n\n\ndef can_view(t, shape):\n"
                       "    shape = [t.numel() // -math.prod(shape) if s == -1 else s for s in shape]\n"
                       "    return math.prod(shape) == t.numel()", "count-only"),
        ("contiguous-with-minus-one", "import math\n\n\ndef can_view(t, shape):\n"
                                      "    known = math.prod(s for s in shape if s != -1)\n"
                                      "    if shape.count(-1) > 1 or known == 0 or t.numel() % known:\n"
                                      "        return False\n"
                                      "    return t.is_contiguous()", "contiguous-only"),
        ("ignores-numel", "def can_view(t, shape):\n    return t.is_contiguous() or len(shape) > t.dim()", None),
        ("size-one-joins-its-neighbours", CAN_VIEW_REFERENCE_FREE.replace(
            "    dims = [(n, s) for n, s in zip(t.shape, t.stride()) if n != 1]\n",
            "    dims = list(zip(t.shape, t.stride()))\n").replace(
            "        if i == 0 or dims[i - 1][1] != dims[i][0] * dims[i][1]:",
            "        if i == 0 or (dims[i - 1][0] != 1 and dims[i][0] != 1\n"
            "                      and dims[i - 1][1] != dims[i][0] * dims[i][1]):"), "size-one-glues"),
        ("no-elements-walked-like-any-other", CAN_VIEW_REFERENCE_FREE.replace(
            "    if t.numel() == 0:\n        return True\n", ""), "no-elements-refused"),
        ("every-minus-one-filled", CAN_VIEW_REFERENCE_FREE.replace(
            "    if shape.count(-1) > 1:\n        return False\n", "").replace(
            "        shape[shape.index(-1)] = t.numel() // rest\n",
            "        shape = [t.numel() // rest if s == -1 else s for s in shape]\n"), "every-minus-one-filled"),
    ],
    "views-selftest": [
        ("transpose-unswapped", _with(SELFTEST, q1=(5, 1)), "unswapped"),
        ("offset-in-rows", _with(SELFTEST, q2=1), "offset-in-rows"),
        ("contiguous-shares", _with(SELFTEST, q3=True), "contiguous-shares"),
        ("written-where-b-reads", _with(SELFTEST, q6=(1, 2)), "row-major-8"),
        ("narrowed-columns-merge", _with(SELFTEST, q5=True), "columns-merge"),
        ("contiguous-keeps-stride-zero", _with(SELFTEST, q7=3), "contiguous-keeps-expand"),
        ("index-as-list", _with(SELFTEST, q6=[2, 2]), None),
    ],
}

# (label, answer source): answers that game the checks; none may score more than the untouched answer.
EXPLOITS = {
    "views-strides": [
        ("always-equal", ALWAYS_EQUAL + "STRIDES = {k: YesTuple((1,)) for k in "
         "('contiguous', 'transpose', 'every_other_column', 'row_block', 'expanded')}"),
    ],
    "views-classify": [
        ("always-equal", ALWAYS_EQUAL + "CLASSIFY = {k: YesStr('view') for k in ('unflatten', 'index_select', "
         "'broadcast_to', 'repeat', 'ravel', 'diag', 'view_dtype', 'flip', 'reshape_as', 'atleast_3d')}"),
    ],
    "views-classify-more": [
        ("always-equal", ALWAYS_EQUAL + "CLASSIFY_MORE = {k: YesStr('view') for k in "
         + repr(list(CLASSIFY_MORE_ANSWER)) + "}"),
    ],
    "views-selftest": [
        ("always-equal", ALWAYS_EQUAL + "SELFTEST = {'q1': YesTuple((1,)), 'q2': YesInt(0), 'q3': YesInt(0), "
         "'q4': YesInt(0), 'q5': YesInt(0), 'q6': YesTuple((1,)), 'q7': YesInt(0)}"),
    ],
    "views-shares-storage": [
        ("write-through", "def shares_storage(a, b):\n"
                          "    if a.numel() == 0 or b.numel() == 0:\n        return False\n"
                          "    with torch.no_grad():\n"
                          "        keep = b.clone()\n"
                          "        a.view(-1)[0:1].add_(1) if a.is_contiguous() else a.add_(0)\n"
                          "        changed = not torch.equal(b, keep)\n        b.copy_(keep)\n"
                          "    return changed"),
        ("always-equal", "class Yes:\n    def __eq__(self, other):\n        return True\n\n\n"
                         "def shares_storage(a, b):\n    return Yes()"),
        # The byte ranges compared, then a write to each input (undone: its counter moved): each
        # one's detach() rebound to give its old values, and a mode left on that gives its old version.
        ("rebinds-what-its-driver-reads", LIAR + RIGHT["views-shares-storage"][0][1].replace(
            "def shares_storage(a, b):\n", "def _shares(a, b):\n") + """


def shares_storage(a, b):
    liar = lie_on()
    found = _shares(a, b)
    for t, kept, version in [(t, t.detach().clone(), t._version) for t in (a, b)]:
        with torch.no_grad():
            t.add_(1)
            t.sub_(1)
        t.detach = lambda *args, kept=kept, **kwargs: kept
        liar.tell(t, "_version", version)
    return found
"""),
    ],
    "views-can-view": [
        ("tries-view", "def can_view(t, shape):\n    try:\n        t.view(shape)\n        return True\n"
                       "    except Exception:\n        return False"),
        ("aten-view", "import torch\n\n\ndef can_view(t, shape):\n    try:\n"
                      "        torch.ops.aten.view.default(t, shape)\n        return True\n"
                      "    except Exception:\n        return False"),
        ("rebuilt-tensor", "import torch\n\n\ndef can_view(t, shape):\n"
                           "    real = torch.empty(10_000).as_strided(t.shape, t.stride(), t.storage_offset())\n"
                           "    try:\n        real.view(shape)\n        return True\n"
                           "    except RuntimeError:\n        return False"),
        ("numpy-reshape", "import numpy as np\n\n\ndef can_view(t, shape):\n"
                          "    array = np.lib.stride_tricks.as_strided(np.empty(10_000, np.float32), t.shape,\n"
                          "                                            [4 * s for s in t.stride()])\n"
                          "    return bool(np.shares_memory(array, array.reshape(shape)))"),
        ("remembered", "def can_view(t, shape):\n    return t.is_contiguous()"),
    ],
}

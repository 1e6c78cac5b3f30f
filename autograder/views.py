"""Chapter 1, "Views, strides and storage": the cases that grade its exercises.

Expected values are never typed in: each is computed here from torch itself (strides read
off real tensors, view-or-copy decided by comparing storages, view legality by trying the
view in trusted code), so a torch release that changes a behaviour changes the key with it.

Defined in Chapter 1, "Views, strides and storage" (notebooks/views/views.ipynb).
"""

from __future__ import annotations

import numpy as np
import torch

from autograder.checks import Diagnosis, Forbid, exercise, not_one_of, require_dict, selftest
from autograder.values import same_storage


def base() -> torch.Tensor:
    """The chapter's running example: ``torch.arange(32.).view(4, 8)``."""
    return torch.arange(32.0).view(4, 8)


# --------------------------------------------------------------------------- views-strides
STRIDE_EXPRESSIONS = {
    "contiguous": ("t", lambda t: t),
    "transpose": ("t.T", lambda t: t.T),
    "every_other_column": ("t[:, ::2]", lambda t: t[:, ::2]),
    "row_block": ("t[1:3]", lambda t: t[1:3]),
    "expanded": ("t.unsqueeze(0).expand(3, 4, 8)", lambda t: t.unsqueeze(0).expand(3, 4, 8)),
}


def _is_shape(found: object, inputs: tuple) -> bool:
    (key,) = inputs
    return type(found) is tuple and found == tuple(STRIDE_EXPRESSIONS[key][1](base()).shape)


def _is_fresh_strides(found: object, inputs: tuple) -> bool:
    """The strides a freshly allocated tensor of the same shape would have."""
    (key,) = inputs
    fresh = STRIDE_EXPRESSIONS[key][1](base()).contiguous()
    return type(found) is tuple and found == fresh.stride()


STRIDE_MISCONCEPTIONS = {
    "contiguous": "row-major: moving one row skips a whole row of 8 slots, moving one column skips 1.",
    "transpose": (
        "transposing does not move data: it swaps the strides, so t.T reads the same buffer "
        "with strides (1, 8); (4, 1) are the strides of a copy such as t.T.contiguous()."
    ),
    "every_other_column": (
        "a slice with step k multiplies that dimension's stride by k; it does not compact the data "
        "into new memory."
    ),
    "row_block": (
        "a slice of whole rows keeps the strides and only moves the storage offset (to 8 here)."
    ),
    "expanded": (
        "expand() copies nothing: the new dimension has stride 0, so all 3 copies read the same 32 slots."
    ),
}

strides = exercise(
    "views-strides", "STRIDES", require=require_dict("STRIDES", list(STRIDE_EXPRESSIONS)),
    expect=lambda key: STRIDE_EXPRESSIONS[key][1](base()).stride(), returns="int-tuple",
)
for _key, (_text, _make) in STRIDE_EXPRESSIONS.items():
    strides.entry(
        _key, f"STRIDES[{_key!r}] for {_text}", otherwise=STRIDE_MISCONCEPTIONS[_key],
        hidden=_key in ("row_block", "expanded"),
        diagnoses=(
            Diagnosis(_is_shape, "that is the shape; the stride is how many storage slots one step "
                      "along each dimension skips."),
            Diagnosis(_is_fresh_strides, STRIDE_MISCONCEPTIONS[_key]),
        ),
    )

# --------------------------------------------------------------------------- views-classify
# Each operation is tried on a contiguous and on a non-contiguous source; it is a "view" when
# every result shares storage with its source, a "copy" when none does, else "ambiguous".
CLASSIFY_PROBES = {
    "transpose": lambda t: t.transpose(0, 1),
    "basic_slice": lambda t: t[1:, ::2],
    "advanced_index": lambda t: t[[0, 1]],
    "boolean_mask": lambda t: t[t >= 0],
    "view": lambda t: t.view(-1) if t.is_contiguous() else t.view(t.shape[0], t.shape[1]),
    "reshape": lambda t: t.reshape(-1),
    "contiguous": lambda t: t.contiguous(),
    "expand": lambda t: t.unsqueeze(0).expand(2, *t.shape),
    "clone": lambda t: t.clone(),
    "detach": lambda t: t.detach(),
}
CLASSIFY_VALUES = ("view", "copy", "ambiguous")


def classify_by_probe(key: str) -> str:
    """Run one operation on a contiguous and a transposed source and compare storages."""
    sources = (base(), base().T)
    shared = [same_storage(src, CLASSIFY_PROBES[key](src)) for src in sources]
    return "view" if all(shared) else "copy" if not any(shared) else "ambiguous"


CLASSIFY_MISCONCEPTIONS = {
    "transpose": "transpose only swaps two strides; the data stays where it is, so it is a view.",
    "basic_slice": "slicing with ints and start:stop:step changes shape, stride and offset only: a view.",
    "advanced_index": (
        "indexing with a list or tensor of indices (advanced indexing) gathers the elements into new "
        "memory: it is a copy; only ints and slices give views."
    ),
    "boolean_mask": (
        "a boolean mask selects an arbitrary set of elements that no single stride can describe: "
        "the result is a copy."
    ),
    "view": "view() never copies: it reinterprets the same memory or raises an error.",
    "reshape": (
        "reshape returns a view when the strides allow it and silently copies otherwise "
        "(t.T.reshape(-1) copies): which one you get depends on the layout, so it is ambiguous."
    ),
    "contiguous": (
        "contiguous() returns the tensor itself when it is already contiguous and copies only when it "
        "is not: it is ambiguous."
    ),
    "expand": "expand() sets stride 0 on the expanded dimension; nothing is copied: a view.",
    "clone": "clone() always allocates new memory and copies into it.",
    "detach": "detach() shares storage with its source: it is a view, not a copy.",
}


classify = exercise(
    "views-classify", "CLASSIFY", require=require_dict("CLASSIFY", list(CLASSIFY_PROBES)),
    expect=classify_by_probe, returns="str",
    diagnoses=(not_one_of(CLASSIFY_VALUES),),
)
for _key in CLASSIFY_PROBES:
    classify.entry(_key, f"CLASSIFY[{_key!r}]", otherwise=CLASSIFY_MISCONCEPTIONS[_key],
                   hidden=_key in ("boolean_mask", "contiguous", "clone", "expand"))


# --------------------------------------------------------------------------- views-classify-more
# Concrete expressions over two contiguous tensors, none of them shown verbatim in the chapter:
# each key is evaluated here as written, so the text a learner reads is the code that is probed.
MORE_VALUES = ("view", "copy", "error")


def more_sources() -> dict[str, torch.Tensor]:
    """The tensors the expressions of ``views-classify-more`` read: ``x`` (4, 5) and ``y`` (3, 4, 5)."""
    return {"x": torch.arange(20.0).view(4, 5), "y": torch.arange(60.0).view(3, 4, 5)}


def classify_expression(expression: str) -> str:
    """Trusted probe: evaluate ``expression`` on fresh ``x`` and ``y``; "error" when torch raises,
    "view" when the result shares the storage of the tensor it was computed from, else "copy"."""
    sources = more_sources()
    try:
        result = eval(expression, {"torch": torch, **sources})  # the module's own expressions
    except RuntimeError:
        return "error"
    return "view" if any(same_storage(result, source) for source in sources.values()) else "copy"


FLATTEN_IS_RESHAPE = (
    "flatten is reshape over a range of dimensions: it returns a view when the dimensions it merges "
    "sit next to each other in memory (stride[i] == stride[i+1] * size[i+1]) and copies otherwise"
)
MORE_EXPRESSIONS: dict[str, tuple[bool, str, dict[str, str]]] = {
    # expression: (hidden, misconception when no specific wrong value matches, {wrong value: message})
    "x.flatten()": (False, (
        f"{FLATTEN_IS_RESHAPE}; x is contiguous, so x.flatten() is a view: reshape-like ops do not "
        "always copy."), {}),
    "x.T.flatten()": (False, (
        f"{FLATTEN_IS_RESHAPE}; x.T reads x column by column, so no single stride walks its "
        "elements in order and x.T.flatten() copies: flatten is not always a view."), {
        "error": "flatten never refuses: where view() would raise, flatten (like reshape) copies.",
    }),
    "x.squeeze(0)": (False, (
        "squeeze(d) on a dimension whose size is not 1 does not raise: it leaves the shape as it is "
        "and still returns a view of the same storage (shape (4, 5), strides (5, 1))."), {
        "copy": "squeeze only drops size-1 dimensions from the header; it never copies, even when "
                "there is nothing to drop.",
    }),
    "x.unfold(1, 3, 1)": (False, (
        "unfold with a step smaller than its size makes overlapping windows, yet it copies nothing: "
        "the windows are one header over x's storage (strides (5, 1, 1)), so several windows read "
        "the same slot."), {}),
    "x.narrow(0, 1, 2)": (False, (
        "narrow is a slice x[1:3] written as a call: it moves the storage offset (to 5) and keeps "
        "the strides, a view."), {}),
    "x[torch.tensor([False, True, True, False])]": (False, (
        "a boolean mask always copies, even when the rows it keeps form one block that narrow(0, 1, 2) "
        "could have viewed: indexing by a tensor is advanced indexing, and torch does not look at "
        "which elements the mask happens to select."), {}),
    "y.movedim(0, 2).view(60)": (False, (
        "movedim only permutes strides (to (5, 1, 20)); view() must then merge all three dimensions "
        "into one, which no single stride can describe, so it raises instead of copying."), {
        "copy": "view() never copies: where a copy would be needed it raises (reshape is the one "
                "that copies).",
    }),
    "x.as_strided((4, 5), (5, 1), 1)": (True, (
        "as_strided is checked against the storage: starting at offset 1, a (4, 5) header with "
        "strides (5, 1) would read slot 20 of a 20-slot storage, so torch raises."), {}),
    "x[2:].as_strided((4, 5), (5, 1), 0)": (True, (
        "as_strided addresses the whole storage, not the tensor it is called on: from offset 0 the "
        "header reads all 20 slots of x, the rows that x[2:] leaves out included, and shares x's "
        "storage."), {}),
    "y.permute(2, 0, 1).diagonal(0, 1, 2)": (True, (
        "diagonal works on any layout: it adds the strides of the two dimensions it walks (20 + 5 = "
        "25) into one stride, a view of the permuted tensor's storage."), {}),
    "y[:, :, :2].flatten(0, 1)": (True, (
        f"{FLATTEN_IS_RESHAPE}; y[:, :, :2] is not contiguous, but the two dimensions merged here "
        "have strides (20, 5) and 20 == 5 * 4, so this flatten is a view: non-contiguous does not "
        "mean copy."), {}),
    "x.T.unbind(0)[2]": (True, (
        "unbind returns views, one per index: x.T.unbind(0)[2] is column 2 of x, read with stride 5 "
        "from offset 2. A non-contiguous result is still a view."), {}),
    "y.movedim(0, 2).reshape(60)": (True, (
        "reshape copies when view would refuse: after movedim the elements are not in storage order, "
        "so this reshape returns a copy."), {
        "error": "reshape never refuses where the element count fits: it copies where view() would "
                 "raise.",
    }),
    "y[:, 1].flatten()": (True, (
        f"{FLATTEN_IS_RESHAPE}; y[:, 1] has strides (20, 1) for sizes (3, 5), and 20 != 1 * 5, so "
        "flatten copies."), {}),
}


def _found(value: str):
    def matches(found: object, _inputs: tuple) -> bool:
        return found == value

    return matches


classify_more = exercise(
    "views-classify-more", "CLASSIFY_MORE",
    require=require_dict("CLASSIFY_MORE", list(MORE_EXPRESSIONS)),
    expect=classify_expression, returns="str",
)
for _expression, (_hidden, _otherwise, _specific) in MORE_EXPRESSIONS.items():
    classify_more.entry(
        _expression, f"CLASSIFY_MORE[{_expression!r}]", otherwise=_otherwise, hidden=_hidden,
        diagnoses=(
            not_one_of(MORE_VALUES),
            *(Diagnosis(_found(value), message) for value, message in _specific.items()),
        ),
    )


# --------------------------------------------------------------------------- views-shares-storage
def _pair_offset_view() -> tuple:
    t = base()
    return t, t[1:]


def _pair_siblings() -> tuple:
    t = base()
    return t[0], t[2]


def _pair_detach() -> tuple:
    t = base().requires_grad_()
    return t, t.detach()


def _pair_clone() -> tuple:
    t = base()
    return t, t.clone()


def _pair_equal_values() -> tuple:
    return torch.ones(3), torch.ones(3)


def _pair_numpy_round_trip() -> tuple:
    t = base()
    return t, torch.from_numpy(t.numpy())


def _pair_numpy_copy() -> tuple:
    array = np.arange(6.0)
    return torch.from_numpy(array), torch.tensor(array)


def _pair_transpose() -> tuple:
    t = base()
    return t, t.T


def _pair_advanced_index() -> tuple:
    t = base()
    return t, t[[0, 1, 2, 3]]


def _pair_contiguous_copy() -> tuple:
    t = base()
    return t.T, t.T.contiguous()


def _pair_self() -> tuple:
    t = base()
    return t, t


def _pair_strided_tail() -> tuple:
    t = base()
    return t[:, 1::2], t[3:, 5]


shares = exercise("views-shares-storage", "shares_storage", expect=same_storage, returns="bool")
shares.case(
        "offset-view", "shares_storage(t, t[1:])", _pair_offset_view,
    otherwise=("data_ptr() is the address of a tensor's first element, not of its storage: a view that starts "
        "further in (t[1:]) has another data_ptr() yet the same storage. Compare "
        "untyped_storage().data_ptr()."),
)
shares.case(
        "siblings", "shares_storage(t[0], t[2])", _pair_siblings,
    otherwise=("two views of one tensor share its storage even though neither is the other's _base, and their "
        "first elements are at different addresses."),
)
shares.case(
        "detach", "shares_storage(t, t.detach())", _pair_detach,
    otherwise=("detach() shares storage with its source: it is a view, not a copy (even though its _base is "
        "None)."),
)
shares.case(
        "clone", "shares_storage(t, t.clone())", _pair_clone,
    otherwise=("equal values do not mean shared memory: clone() copies into a new storage."),
)
shares.case(
        "equal-values", "shares_storage(torch.ones(3), torch.ones(3))", _pair_equal_values,
    otherwise=("equal values do not mean shared memory: two separate allocations never share storage."),
)
shares.case(
        "numpy-round-trip", "shares_storage(t, torch.from_numpy(t.numpy()))", _pair_numpy_round_trip,
    otherwise=("t.numpy() and torch.from_numpy() share memory with their source; the round trip is a second "
        "tensor over the same storage, not a copy."),
)
shares.case(
        "transpose", "shares_storage(t, t.T)", _pair_transpose,
    otherwise=("a transpose is a view: same storage, other strides."),
)
shares.case(
        "advanced-index", "shares_storage(t, t[[0, 1, 2, 3]])", _pair_advanced_index, hidden=True,
    otherwise=("indexing with a list gathers into new memory even when it selects every row: a copy."),
)
shares.case(
        "numpy-copy", "shares_storage(torch.from_numpy(a), torch.tensor(a))", _pair_numpy_copy, hidden=True,
    otherwise=("torch.tensor(ndarray) always copies; only from_numpy/as_tensor share the array's memory."),
)
shares.case(
        "contiguous-copy", "shares_storage(t.T, t.T.contiguous())", _pair_contiguous_copy, hidden=True,
    otherwise=("contiguous() on a non-contiguous tensor copies into new memory."),
)
shares.case(
        "self", "shares_storage(t, t)", _pair_self, hidden=True,
    otherwise=("a tensor shares storage with itself."),
)
shares.case(
        "strided-views", "shares_storage(t[:, 1::2], t[3:, 5])", _pair_strided_tail, hidden=True,
    otherwise=("views with different offsets and strides still share one storage; a different data_ptr() "
        "proves nothing."),
)


# --------------------------------------------------------------------------- views-can-view
def view_succeeds(t: torch.Tensor, shape: tuple[int, ...]) -> bool:
    """Trusted reference: does ``t.view(shape)`` succeed? Tries it."""
    try:
        t.view(shape)
    except RuntimeError:
        return False
    return True


SPLIT_MERGE = (
    "view needs adjacency only inside each group of dimensions it merges: splitting one dimension, "
    "or merging dimensions that sit next to each other in memory, works on a non-contiguous tensor "
    "too; is_contiguous() is not the test."
)
NOT_ADJACENT = (
    "view can merge two dimensions only when one step along the outer one equals a whole run of the "
    "inner one in memory (stride[i] == stride[i+1] * size[i+1]); otherwise it must raise."
)
NUMEL = "view keeps the number of elements: the new shape must hold exactly t.numel() elements (-1 is inferred)."
SIZE_ONE = "dimensions of size 1 can sit anywhere and have any stride: they never block a view."

VIEW_CALLS = Forbid(
    ("view", "reshape", "view_as", "flatten", "unflatten", "contiguous"),
    "the answer calls {call}, which the exercise asks you to predict from shape "
    "and stride alone, without trying it.",
)
NUMPY_ROUTE = Forbid(
    ("numpy", "__array__"),
    "the answer hands the tensor to NumPy ({call}): NumPy's reshape silently copies where torch's "
    "view must refuse, and asking NumPy whether it copied is trying the operation, not predicting "
    "it. Predict from t.shape and t.stride() alone.",
)
can_view = exercise("views-can-view", "can_view", expect=view_succeeds, returns="bool",
                    forbid=(VIEW_CALLS, NUMPY_ROUTE))
can_view.case("contiguous-merge", "can_view(t, (32,))",
              lambda: (base(), (32,)),
              otherwise=NOT_ADJACENT)
can_view.case("contiguous-split", "can_view(t, (2, 16))",
              lambda: (base(), (2, 16)),
              otherwise=NOT_ADJACENT)
can_view.case("transpose-merge", "can_view(t.T, (32,))",
              lambda: (base().T, (32,)),
              otherwise=NOT_ADJACENT)
can_view.case("transpose-split", "can_view(t.T, (2, 4, 4))",
              lambda: (base().T, (2, 4, 4)),
              otherwise=SPLIT_MERGE)
can_view.case("narrow-split", "can_view(t[:, :4], (4, 2, 2))",
              lambda: (base()[:, :4], (4, 2, 2)),
              otherwise=SPLIT_MERGE)
can_view.case("narrow-merge", "can_view(t[:, :4], (16,))",
              lambda: (base()[:, :4], (16,)),
              otherwise=NOT_ADJACENT)
can_view.case("wrong-numel", "can_view(t, (3, 11))",
              lambda: (base(), (3, 11)),
              otherwise=NUMEL)
can_view.case("infer", "can_view(t, (-1, 4))",
              lambda: (base(), (-1, 4)),
              otherwise=NUMEL)
can_view.case("expanded-split", "can_view(torch.arange(4.).expand(3, 4), (3, 2, 2))",
              lambda: (torch.arange(4.0).expand(3, 4), (3, 2, 2)),
              otherwise=SPLIT_MERGE, hidden=True)
can_view.case("expanded-merge", "can_view(torch.arange(4.).expand(3, 4), (12,))",
              lambda: (torch.arange(4.0).expand(3, 4), (12,)),
              otherwise=NOT_ADJACENT, hidden=True)
can_view.case("expanded-3d", "can_view(t.unsqueeze(0).expand(3, 4, 8), (3, 32))",
              lambda: (base().unsqueeze(0).expand(3, 4, 8), (3, 32)),
              otherwise=SPLIT_MERGE, hidden=True)
can_view.case("size-one", "can_view(t.T[:, :1], (8,))",
              lambda: (base().T[:, :1], (8,)),
              otherwise=SIZE_ONE, hidden=True)
can_view.case("step-rows-split", "can_view(t[::2], (2, 2, 4))",
              lambda: (base()[::2], (2, 2, 4)),
              otherwise=SPLIT_MERGE, hidden=True)
can_view.case("step-rows-merge", "can_view(t[::2], (16,))",
              lambda: (base()[::2], (16,)),
              otherwise=NOT_ADJACENT, hidden=True)
can_view.case("step-columns", "can_view(t[:, ::2], (2, 2, 4))",
              lambda: (base()[:, ::2], (2, 2, 4)),
              otherwise=SPLIT_MERGE, hidden=True)
can_view.case("step-columns-merge", "can_view(t[:, ::2], (16,))",
              lambda: (base()[:, ::2], (16,)),
              otherwise=SPLIT_MERGE, hidden=True)
can_view.case("infer-transpose", "can_view(t.T, (-1,))",
              lambda: (base().T, (-1,)),
              otherwise=NOT_ADJACENT, hidden=True)
can_view.case("two-infers", "can_view(t, (-1, -1))",
              lambda: (base(), (-1, -1)),
              otherwise=NUMEL, hidden=True)


# --------------------------------------------------------------------------- views-selftest
def _written_through_view() -> tuple[int, ...]:
    """Where ``b[1][2] = 3.14`` lands in ``t`` when ``b = t.view(2, 8)``, found by doing it."""
    t = torch.zeros(4, 4)
    b = t.view(2, 8)
    b[1][2] = 3.14
    return tuple(int(i) for i in (t == b[1][2]).nonzero()[0])


RESHAPE_PROMISE = "should not\ndepend on the copying vs. viewing behavior"


def _reshape_promises_a_view() -> bool:
    """What torch.reshape's documentation promises about sharing memory (nothing, since it says
    code must not depend on it)."""
    return RESHAPE_PROMISE not in (torch.reshape.__doc__ or "")


def _selftest_expectations() -> dict[str, tuple[str, str, object, str]]:
    """Question key -> (question, result kind, expected value, misconception)."""
    t = torch.zeros(3, 5)
    ex = torch.zeros(4).expand(3, 4)
    running = base()
    return {
        "q1": ("t = torch.zeros(3, 5): what is t.T.stride()?", "int-tuple", t.T.stride(),
               "transpose swaps the strides (5, 1) into (1, 5); no data moves."),
        "q2": ("b = torch.arange(32.).view(4, 8)[1:]: what is b.storage_offset()?", "int",
               torch.arange(32.0).view(4, 8)[1:].storage_offset(),
               "slicing off the first row moves the offset by one row, i.e. by stride[0] = 8 slots."),
        "q3": ("Does torch.arange(32.).view(4, 8).T.contiguous() share storage with its source?", "bool",
               same_storage(running, running.T.contiguous()),
               "contiguous() on a non-contiguous tensor copies; it shares nothing with its source."),
        "q4": ("How many storage slots does torch.zeros(4).expand(3, 4) read?", "int",
               ex.untyped_storage().nbytes() // ex.element_size(),
               "expand() reads the same 4 slots three times: stride 0 copies nothing."),
        "q5": ("Can t.view(...) ever return a copy?", "bool",
               not same_storage(running, running.view(-1)),
               "view() never copies: it either shares the memory or raises."),
        "q6": ("t = torch.zeros(4, 4); b = t.view(2, 8); b[1][2] = 3.14: which index (i, j) of t now "
               "holds 3.14?", "int-tuple", _written_through_view,
               "b[1] is a view of the second row of b, which starts at slot 8 of t's storage; its element 2 "
               "is slot 10, and slot 10 of a contiguous (4, 4) tensor is t[2, 2]."),
        "q7": ("t = torch.zeros(4, 4): is t.reshape(2, 8) guaranteed to share memory with t?", "bool",
               _reshape_promises_a_view,
               "reshape returns a view of a contiguous tensor in practice, but its documentation promises "
               "nothing and says code must not depend on it: when shared memory is what you need, view() "
               "says so (it raises instead of copying)."),
    }


selftest("views-selftest", _selftest_expectations, hidden=("q4", "q5", "q7"))

"""Chapter 3, "detach versus clone": the cases that grade its exercises.

Most answers here return tensors whose worth lies in what they share — storage, the version
counter, the autograd graph — so each case has a trusted driver that exercises the answer and
reports what it observed as plain data. The expected observation is the same driver run on a
trusted reference answer; ``tests/test_detach_cases.py`` pins those references to the contract.

Defined in Chapter 3, "detach versus clone" (notebooks/detach/detach.ipynb).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

from autograder.checks import Diagnosis, exercise, selftest
from autograder.recorder import CallRecorder
from autograder.values import AnswerTypeError, close, same_storage, type_name


def _seeded(*shape: int, dtype: torch.dtype = torch.float32, seed: int = 0, scale: float = 1.0) -> torch.Tensor:
    generator = torch.Generator().manual_seed(seed)
    return (torch.randn(*shape, generator=generator, dtype=torch.float64) * scale).to(dtype)


def _tensor(value: Any, what: str) -> torch.Tensor:
    """The answer's result, refused unless it is exactly a ``torch.Tensor``."""
    if type(value) is not torch.Tensor:
        raise AnswerTypeError(f"{what} must be a torch.Tensor, found {type_name(value)}")
    return value


def _near(found: Any, target: torch.Tensor) -> bool:
    """Found tensor values equal ``target`` (same shape; any floating dtype)."""
    return (type(found) is torch.Tensor and found.shape == target.shape
            and bool(torch.allclose(found.double(), target.double(), rtol=1e-5, atol=1e-6)))


# --------------------------------------------------------------------------- detach-independent
def reference_independent_copy(t: torch.Tensor) -> torch.Tensor:
    """Trusted reference: a copy that shares nothing with ``t``."""
    return t.detach().clone()


def observe_copy(answer: Callable, t: torch.Tensor) -> dict[str, Any]:
    """Run ``answer(t)``, then write to the result and report what the write did to ``t``."""
    before, version = t.detach().clone(), t._version
    copy = _tensor(answer(t), "independent_copy(t)")
    # Flags first, values last: a learner reads the difference before a report is cut short.
    observed = {
        "shares_storage": same_storage(copy, t),
        "requires_grad": copy.requires_grad,
        "has_grad_fn": copy.grad_fn is not None,
    }
    values = copy.detach().clone()
    with torch.no_grad():
        copy.add_(1)
    observed["write_changes_t"] = not torch.equal(t.detach(), before)
    observed["write_bumps_t_version"] = t._version != version
    observed["values"] = values
    return observed


COPY_DETACH = (
    "detach() shares storage and the version counter with t: writing to the 'copy' changes t and "
    "bumps t._version, which trips autograd's check at backward. Copy the data too: t.detach().clone()."
)
COPY_DATA = (
    ".data shares t's storage but not its version counter: a write through it changes t and autograd "
    "never notices, so gradients silently use the new values. Use t.detach().clone()."
)
COPY_CLONE = (
    "clone() copies the data but stays in the graph: the copy requires grad and has a grad_fn "
    "(CloneBackward0), so gradients flow back into t. Detach it too: t.detach().clone()."
)
COPY_LEAF = (
    "the copy is a new leaf that requires grad: it shares no memory, but autograd will track it and "
    "give it a .grad. An independent copy has requires_grad False: t.detach().clone()."
)
COPY_OTHERWISE = (
    "independent_copy(t) must return a tensor with t's values, dtype and shape that shares neither "
    "storage, version counter nor graph with t, for any t (leaf or not, requiring grad or not)."
)


def _copy_data(found: dict, _inputs: tuple) -> bool:
    return found["shares_storage"] and not found["write_bumps_t_version"]


def _copy_shares(found: dict, _inputs: tuple) -> bool:
    return found["shares_storage"]


def _copy_in_graph(found: dict, _inputs: tuple) -> bool:
    return found["has_grad_fn"]


def _copy_new_leaf(found: dict, _inputs: tuple) -> bool:
    return found["requires_grad"]


def _leaf() -> tuple:
    return (_seeded(5, seed=10).requires_grad_(),)


def _non_leaf() -> tuple:
    return (_seeded(2, 3, seed=11).requires_grad_() * 2,)


def _plain() -> tuple:
    return (_seeded(4, seed=12),)


def _transposed_non_leaf() -> tuple:
    return ((_seeded(3, 2, seed=13).requires_grad_() + 1).T,)


def _integers() -> tuple:
    return (torch.arange(6).view(2, 3),)


def _float64_leaf() -> tuple:
    return (_seeded(3, dtype=torch.float64, seed=14).requires_grad_(),)


independent = exercise(
    "detach-independent", "independent_copy", returns="observation",
    expect=lambda t: observe_copy(reference_independent_copy, t), call=observe_copy, agree=close,
    otherwise=COPY_OTHERWISE,
    diagnoses=(
        Diagnosis(_copy_data, COPY_DATA),
        Diagnosis(_copy_shares, COPY_DETACH),
        Diagnosis(_copy_in_graph, COPY_CLONE),
        Diagnosis(_copy_new_leaf, COPY_LEAF),
    ),
)
independent.case("leaf", "independent_copy(w) for a leaf w that requires grad", _leaf)
independent.case("non-leaf", "independent_copy(h) for h = w * 2 (has a grad_fn)", _non_leaf)
independent.case("plain", "independent_copy(t) for a tensor that does not require grad", _plain)
independent.case("transposed-non-leaf", "independent_copy((w + 1).T)", _transposed_non_leaf, hidden=True)
independent.case("integers", "independent_copy(torch.arange(6).view(2, 3))", _integers, hidden=True)
independent.case("float64-leaf", "independent_copy(w) for a float64 leaf", _float64_leaf, hidden=True)


# --------------------------------------------------------------------------- detach-provenance
# How an answer asks autograd for a gradient: Tensor.backward or torch.autograd.grad.
AUTOGRAD_CALLS = ("backward", "grad")


def reference_provenance_grad(x: torch.Tensor) -> torch.Tensor:
    """Trusted reference: d/dx of ``z = x * y.detach()`` with ``y = x * x``, by autograd."""
    x = x.detach().clone().requires_grad_()
    y = x * x
    z = x * y.detach()
    (grad,) = torch.autograd.grad(z.sum(), x)
    return grad


def observe_provenance(answer: Callable, x: torch.Tensor) -> dict[str, Any]:
    """Run ``answer(x)`` and report the gradient it returned and whether autograd computed it."""
    recorder = CallRecorder(AUTOGRAD_CALLS)
    with recorder:
        result = answer(x)
    grad = None if result is None else _tensor(result, "provenance_grad(x)").detach().clone()
    return {"grad": grad, "used_autograd": bool(recorder.calls)}


def _without_detach(x: torch.Tensor) -> torch.Tensor:
    """What autograd gives when nothing is detached: d/dx (x * x * x)."""
    x = x.detach().clone().requires_grad_()
    (grad,) = torch.autograd.grad((x * (x * x)).sum(), x)
    return grad


def _detached_other_factor(x: torch.Tensor) -> torch.Tensor:
    """What autograd gives when the wrong factor is detached: d/dx (x.detach() * y)."""
    x = x.detach().clone().requires_grad_()
    (grad,) = torch.autograd.grad((x.detach() * (x * x)).sum(), x)
    return grad


def _grad_of_y(x: torch.Tensor) -> torch.Tensor:
    """dy/dx for y = x * x, by autograd."""
    x = x.detach().clone().requires_grad_()
    (grad,) = torch.autograd.grad((x * x).sum(), x)
    return grad


PROVENANCE_NO_DETACH = (
    "without the detach, z = x * y = x³ and the product rule gives y + x·dy/dx = 3x². "
    "y.detach() makes y a constant for autograd: only the first term survives, dz/dx = y = x²."
)
PROVENANCE_WRONG_FACTOR = (
    "that is the gradient of x.detach() * y (2x²): the detach belongs on y, so that autograd sees "
    "z = x · (constant y) and dz/dx = y = x²."
)
PROVENANCE_DY = "that is dy/dx = 2x for y = x * x; the exercise asks for the gradient of z = x * y.detach()."
PROVENANCE_CLOSED_FORM = (
    "the values are right but no gradient was computed: the exercise asks autograd for it "
    "(z.sum().backward() or torch.autograd.grad), which is how you check what a detach does."
)
PROVENANCE_NONE = (
    "the answer returned None: .grad is filled only on leaves. If x already requires grad, "
    "x.clone().requires_grad_() is not a leaf (clone stays in the graph); start from "
    "x.detach().clone().requires_grad_(), or use torch.autograd.grad."
)
PROVENANCE_OTHERWISE = (
    "make a leaf xl = x.detach().clone().requires_grad_(), compute y = xl * xl and "
    "z = xl * y.detach(), then ask autograd for dz/dxl (of z.sum()); it must equal x ** 2, in x's dtype and shape."
)


def _is(target: Callable[[torch.Tensor], torch.Tensor]) -> Callable[[dict, tuple], bool]:
    return lambda found, inputs: _near(found["grad"], target(inputs[0]))


provenance = exercise(
    "detach-provenance", "provenance_grad", returns="observation",
    expect=lambda x: observe_provenance(reference_provenance_grad, x), call=observe_provenance, agree=close,
    otherwise=PROVENANCE_OTHERWISE,
    diagnoses=(
        Diagnosis(lambda found, _inputs: found["grad"] is None, PROVENANCE_NONE),
        Diagnosis(_is(_without_detach), PROVENANCE_NO_DETACH),
        Diagnosis(_is(_detached_other_factor), PROVENANCE_WRONG_FACTOR),
        Diagnosis(_is(_grad_of_y), PROVENANCE_DY),
        Diagnosis(lambda found, inputs: _is(reference_provenance_grad)(found, inputs)
                  and not found["used_autograd"], PROVENANCE_CLOSED_FORM),
    ),
)
provenance.case("small", "provenance_grad(torch.tensor([1., -2., 3.]))",
                lambda: (torch.tensor([1.0, -2.0, 3.0]),))
provenance.case("random", "provenance_grad(<a (4,) tensor>)",
                lambda: (_seeded(4, seed=20, scale=2.0),))
provenance.case("matrix-float64", "provenance_grad(<a (2, 3) float64 tensor>)",
                lambda: (_seeded(2, 3, dtype=torch.float64, seed=21),), hidden=True)
provenance.case("requires-grad", "provenance_grad(x) for an x that already requires grad",
                lambda: (_seeded(3, seed=22, scale=3.0).requires_grad_(),), hidden=True)
provenance.case("with-zero", "provenance_grad(torch.tensor([0., 0.5, -1.5]))",
                lambda: (torch.tensor([0.0, 0.5, -1.5]),), hidden=True)


# --------------------------------------------------------------------------- detach-ste
def reference_round_ste(x: torch.Tensor) -> torch.Tensor:
    """Trusted reference: round in the forward pass, identity in the backward pass."""
    return x + (torch.round(x) - x).detach()


def observe_ste(answer: Callable, x: torch.Tensor, upstream: torch.Tensor) -> dict[str, Any]:
    """Run ``answer`` on a fresh leaf, backpropagate ``upstream`` and report forward and gradient."""
    leaf = x.detach().clone().requires_grad_()
    out = _tensor(answer(leaf), "round_ste(x)")
    observed = {"forward": out.detach().clone(), "grad": None}
    if out.requires_grad:
        out.backward(upstream)
        observed["grad"] = None if leaf.grad is None else leaf.grad.clone()
    observed["x_unchanged"] = torch.equal(leaf.detach(), x)
    return observed


STE_NO_GRAD = (
    "no gradient reaches x: detaching the whole output (or rounding a detached x) cuts x out of the "
    "graph. Detach only the correction: x + (torch.round(x) - x).detach()."
)
STE_ZERO_GRAD = (
    "the gradient is zero: autograd differentiates torch.round itself, whose derivative is 0 almost "
    "everywhere. The straight-through estimator keeps round's forward but x's gradient: "
    "x + (torch.round(x) - x).detach()."
)
STE_HALF_UP = (
    "torch.round rounds halves to the nearest even integer (2.5 → 2., -0.5 → -0.); floor(x + 0.5) "
    "rounds them up. Use torch.round(x) in the forward."
)
STE_FORWARD = (
    "the forward value must equal torch.round(x): the detached correction (round(x) - x) must cancel x "
    "exactly, so that x + correction == round(x)."
)
STE_CONSTANT = (
    "straight-through passes the incoming gradient through unchanged (backward is the identity), "
    "it does not replace it by 1: a custom backward must return grad_output."
)
STE_IN_PLACE = "round_ste must not modify x in place; return a new tensor."
STE_OTHERWISE = (
    "round_ste(x) must return torch.round(x) in the forward pass and pass the gradient straight "
    "through to x in the backward pass: x + (torch.round(x) - x).detach()."
)


def _ste_half_up(found: dict, inputs: tuple) -> bool:
    x = inputs[0]
    return not _near(found["forward"], torch.round(x)) and _near(found["forward"], torch.floor(x + 0.5))


def _ste_bad_forward(found: dict, inputs: tuple) -> bool:
    return not _near(found["forward"], torch.round(inputs[0]))


def _ste_grad(target: Callable[[torch.Tensor, torch.Tensor], torch.Tensor]) -> Callable[[dict, tuple], bool]:
    return lambda found, inputs: found["grad"] is not None and _near(found["grad"], target(*inputs))


ste = exercise(
    "detach-ste", "round_ste", returns="observation",
    expect=lambda x, upstream: observe_ste(reference_round_ste, x, upstream), call=observe_ste, agree=close,
    otherwise=STE_OTHERWISE,
    diagnoses=(
        Diagnosis(lambda found, _inputs: not found["x_unchanged"], STE_IN_PLACE),
        Diagnosis(_ste_half_up, STE_HALF_UP),
        Diagnosis(_ste_bad_forward, STE_FORWARD),
        Diagnosis(lambda found, _inputs: found["grad"] is None, STE_NO_GRAD),
        Diagnosis(_ste_grad(lambda x, g: torch.zeros_like(x)), STE_ZERO_GRAD),
        Diagnosis(_ste_grad(lambda x, g: torch.ones_like(x)), STE_CONSTANT),
    ),
)
ste.case("sum", "round_ste(x).sum().backward() for x = 3 * torch.randn(6)",
         lambda: (_seeded(6, seed=30, scale=3.0), torch.ones(6)))
ste.case("halves", "round_ste(torch.tensor([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5]))",
         lambda: (torch.tensor([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5]), torch.ones(6)))
ste.case("weighted", "round_ste(x).backward(g) for a random upstream gradient g",
         lambda: (_seeded(5, seed=31, scale=3.0), _seeded(5, seed=32)), hidden=True)
ste.case("matrix-float64", "round_ste(x) for a (2, 3) float64 x",
         lambda: (_seeded(2, 3, dtype=torch.float64, seed=33, scale=4.0), torch.ones(2, 3, dtype=torch.float64)),
         hidden=True)


# --------------------------------------------------------------------------- detach-selftest
def _detach_write_bumps_version() -> bool:
    x = torch.ones(3, requires_grad=True)
    before = x._version
    x.detach().add_(1)
    return x._version != before


def _provenance_at_two() -> float:
    x = torch.tensor(2.0, requires_grad=True)
    y = x * x
    (x * y.detach()).backward()
    return x.grad.item()


def _clone_is_leaf() -> bool:
    return torch.ones(3, requires_grad=True).clone().is_leaf


def _inference_tensor_can_be_saved() -> bool:
    with torch.inference_mode():
        frozen = torch.ones(3)
    w = torch.ones(3, requires_grad=True)
    try:
        (frozen * w).sum().backward()
    except RuntimeError:
        return False
    return True


def _inference_module_weight_grad_is_none() -> bool:
    with torch.inference_mode():
        layer = torch.nn.Linear(3, 2)
    layer(_seeded(4, 3, seed=40)).sum().backward()
    return layer.weight.grad is None


def _selftest_expectations() -> dict[str, tuple[str, str, Callable[[], object], str]]:
    """Question key -> (question, result kind, trusted probe, misconception)."""
    return {
        "q1": ("x = torch.ones(3, requires_grad=True); x.detach().add_(1): does x._version change?", "bool",
               _detach_write_bumps_version,
               "detach() shares the version counter with its source: a write through it bumps x._version."),
        "q2": ("x = torch.tensor(2., requires_grad=True); y = x * x; (x * y.detach()).backward(): "
               "what is x.grad.item()?", "float", _provenance_at_two,
               "y.detach() is a constant for autograd: dz/dx = y = x² = 4.0, not 3x² = 12.0."),
        "q3": ("x = torch.ones(3, requires_grad=True): is x.clone() a leaf?", "bool", _clone_is_leaf,
               "clone() is recorded in the graph (CloneBackward0): its result is not a leaf."),
        "q4": ("Can a tensor made under torch.inference_mode() be saved for backward in a later "
               "computation?", "bool", _inference_tensor_can_be_saved,
               "inference tensors cannot be saved for backward; tensors made under no_grad can."),
        "q5": ("A Linear built under torch.inference_mode(): after a backward outside it, is "
               "layer.weight.grad None?", "bool", _inference_module_weight_grad_is_none,
               "a module built under inference mode has inference-tensor weights that silently get no gradient."),
    }


selftest("detach-selftest", _selftest_expectations, hidden=("q4", "q5"), agree=close)

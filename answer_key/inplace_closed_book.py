"""The key of the closed-book companion of Chapter 2: the reference sequence, and the mistakes.

The reference is the four functions as a learner writes them; each model replaces one of them by
a catalogued mistake. Both run through the companion's drivers, so the key holds exactly what
torch's mechanism leaves behind for each.
"""

from __future__ import annotations

import torch

from answer_key.keys import Model, key


def leaf_refusal(x0):
    x = x0.clone().requires_grad_(True)
    x.add_(1)


def stale_save(x0, f):
    x = x0.clone().requires_grad_(True)
    y = f(x).sum()
    with torch.no_grad():
        x.add_(1)
    y.backward()


def sigmoid_stale(x0):
    x = x0.clone().requires_grad_(True)
    h = x.sigmoid()
    h.mul_(2)
    h.sum().backward()


def grad_after_repair(x0, f):
    x = x0.clone().requires_grad_(True)
    z = x.clone()
    y = f(z).sum()
    with torch.no_grad():
        x.add_(1)
    y.backward()
    return x.grad


REFERENCE = {"leaf_refusal": leaf_refusal, "stale_save": stale_save, "sigmoid_stale": sigmoid_stale,
             "grad_after_repair": grad_after_repair}


def _with(**replaced):
    return {**REFERENCE, **replaced}


# ------------------------------------------------------------------- errors raised by hand
#: Torch's words for each refusal, as an answer that raises them itself copies them.
LEAF_WORDS = "a leaf Variable that requires grad is being used in an in-place operation."


def _stale_words(t: torch.Tensor, output_of: str | None = None) -> str:
    """Torch's version-counter message for a saved float tensor of ``t``'s shape (a leaf's, or
    the output of the node ``output_of``)."""
    which = f", which is output 0 of {output_of}," if output_of else ""
    return ("one of the variables needed for gradient computation has been modified by an inplace operation: "
            f"[torch.FloatTensor [{', '.join(str(n) for n in t.shape)}]]{which} is at version 1; "
            "expected version 0 instead.")


def _leaf_by_hand(x0):
    x0.clone().requires_grad_(True)
    raise RuntimeError(LEAF_WORDS)


def _stale_by_hand(x0, f):
    x = x0.clone().requires_grad_(True)
    f(x).sum()
    with torch.no_grad():
        x.add_(1)
    raise RuntimeError(_stale_words(x0))


def _sigmoid_by_hand(x0):
    x = x0.clone().requires_grad_(True)
    h = x.sigmoid()
    h.mul_(2)
    raise RuntimeError(_stale_words(x0, "Sigmoid"))


# ------------------------------------------------------------------------------ leaf_refusal
def _leaf_under_no_grad(x0):
    x = x0.clone().requires_grad_(True)
    with torch.no_grad():
        x.add_(1)


def _callers_tensor(x0):
    x0.requires_grad_(True)
    x0.add_(1)


# -------------------------------------------------------------------------------- stale_save
def _update_outside_no_grad(x0, f):
    x = x0.clone().requires_grad_(True)
    y = f(x).sum()
    x.add_(1)
    y.backward()


def _own_op(x0, f):
    x = x0.clone().requires_grad_(True)
    y = (x ** 2).sum()
    with torch.no_grad():
        x.add_(1)
    y.backward()


def _forward_on_a_copy(x0, f):
    x = x0.clone().requires_grad_(True)
    y = f(x.clone()).sum()
    with torch.no_grad():
        x.add_(1)
    y.backward()


# ----------------------------------------------------------------------------- sigmoid_stale
def _sigmoid_copy(x0):
    x = x0.clone().requires_grad_(True)
    h = x.sigmoid().clone()
    h.mul_(2)
    h.sum().backward()


# ------------------------------------------------------------------------- grad_after_repair
def _missing_clone(x0, f):
    x = x0.clone().requires_grad_(True)
    y = f(x).sum()
    with torch.no_grad():
        x.add_(1)
    y.backward()
    return x.grad


def _square_formula(x0, f):
    x = x0.clone().requires_grad_(True)
    y = (x.clone() ** 2).sum()
    with torch.no_grad():
        x.add_(1)
    y.backward()
    return x.grad


def _clone_after_update(x0, f):
    x = x0.clone().requires_grad_(True)
    with torch.no_grad():
        x.add_(1)
    y = f(x.clone()).sum()
    y.backward()
    return x.grad


def _update_after_backward(x0, f):
    x = x0.clone().requires_grad_(True)
    y = f(x).sum()
    y.backward()
    with torch.no_grad():
        x.add_(1)
    return x.grad


def _no_update(x0, f):
    x = x0.clone().requires_grad_(True)
    (grad,) = torch.autograd.grad(f(x.clone()).sum(), x)
    return grad


def _grad_of_the_copy(x0, f):
    x = x0.clone().requires_grad_(True)
    z = x.clone()
    y = f(z).sum()
    with torch.no_grad():
        x.add_(1)
    y.backward()
    return z.grad


def _data_update(x0, f):
    x = x0.clone().requires_grad_(True)
    y = f(x).sum()
    x.data.add_(1)
    y.backward()
    return x.grad


key("inplace-reproduce", REFERENCE, models=[
    # Torch's own words, raised by the answer where torch was to raise them (after the sequence's
    # other steps): the evidence shows no torch call raised it, or backward never ran.
    Model("leaf-refusal-by-hand", _with(leaf_refusal=_leaf_by_hand),
          "an error raised by hand, in torch's words, could stand for torch's refusal of the in-place write."),
    Model("stale-save-by-hand", _with(stale_save=_stale_by_hand),
          "an error raised by hand, in torch's words, could stand for the error backward raises after the update."),
    Model("sigmoid-stale-by-hand", _with(sigmoid_stale=_sigmoid_by_hand),
          "an error raised by hand, in torch's words, could stand for the error backward raises after the write to h."),
    # Under no_grad, or without requires_grad, torch lets the write through: the same evidence.
    Model("write-allowed", _with(leaf_refusal=_leaf_under_no_grad),
          "torch refused an in-place write to a copy of x0 under torch.no_grad() too, or when it does not "
          "require grad."),
    Model("callers-tensor", _with(leaf_refusal=_callers_tensor),
          "the tensor the function is given could be made the leaf."),
    Model("update-outside-no-grad", _with(stale_save=_update_outside_no_grad),
          "the leaf could be updated in place outside torch.no_grad(), as an optimizer's step updates it."),
    Model("own-op", _with(stale_save=_own_op), "the forward could use an op of its own instead of the f it is given."),
    Model("copy-shares-counter", _with(stale_save=_forward_on_a_copy),
          "a copy of the leaf that f was applied to shared the leaf's version counter."),
    # A write to a copy of h, to a new h or to x leaves the same evidence: nothing sigmoid saved moved.
    Model("sigmoid-spared", _with(sigmoid_stale=_sigmoid_copy),
          "a write that spares h itself (into a copy of it, a new h, or x) spoiled what sigmoid saved."),
    Model("update-spares-saved", _with(grad_after_repair=_missing_clone),
          "the no-grad update of the leaf left alone what f saved, even with f applied to the leaf itself."),
    Model("square-formula", _with(grad_after_repair=_square_formula),
          "the gradient were that of x ** 2, whatever f is."),
    Model("clone-after-update", _with(grad_after_repair=_clone_after_update),
          "the gradient were taken at the value the leaf has after its update."),
    Model("update-after-backward", _with(grad_after_repair=_update_after_backward),
          "the update of the leaf could wait until backward had run."),
    # f applied to a fresh leaf cut from x (x.detach().clone().requires_grad_(True)), with x updated
    # and that fresh leaf's gradient returned, is observed exactly as this one: the leaf behind f's
    # input is never updated.
    Model("update-optional", _with(grad_after_repair=_no_update),
          "the update of the leaf could be left out of the repaired sequence, or made to a tensor other "
          "than the leaf f's input comes from."),
    Model("grad-on-the-copy", _with(grad_after_repair=_grad_of_the_copy),
          "the gradient landed on the copy f was applied to."),
    Model("data-update", _with(grad_after_repair=_data_update),
          "a write through .data updated the leaf the way torch.no_grad() does, leaving f's saved tensor intact."),
])

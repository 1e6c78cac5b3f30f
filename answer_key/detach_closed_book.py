"""The key of the closed-book companion of Chapter 3: the reference cut, and the mistakes.

The reference is ``cut_leaf`` as a learner writes it; each model makes one catalogued mistake.
Both run through the companion's driver, so the key holds what the mechanism leaves for each.
"""

from __future__ import annotations

import torch

from answer_key.keys import Model, key


def cut_leaf(x0, f):
    x = x0.detach().clone().requires_grad_(True)
    y = f(x)
    u = y.detach()
    z = (x * u).sum()
    z.backward()
    return x


def _clone_cut(x0, f):
    x = x0.detach().clone().requires_grad_(True)
    u = f(x).clone()
    (x * u).sum().backward()
    return x


def _data_cut(x0, f):
    x = x0.detach().clone().requires_grad_(True)
    u = f(x).data
    (x * u).sum().backward()
    return x


def _wrong_factor(x0, f):
    x = x0.detach().clone().requires_grad_(True)
    (x.detach() * f(x)).sum().backward()
    return x


def _returns_grad(x0, f):
    x = x0.detach().clone().requires_grad_(True)
    (x * f(x).detach()).sum().backward()
    return x.grad


def _own_op(x0, f):
    x = x0.detach().clone().requires_grad_(True)
    (x * torch.sin(x).detach()).sum().backward()
    return x


def _twice(x0, f):
    x = x0.detach().clone().requires_grad_(True)
    z = (x * f(x).detach()).sum()
    z.backward(retain_graph=True)
    z.backward()
    return x


def _clone_not_leaf(x0, f):
    x = x0.clone().requires_grad_(True)
    (x * f(x).detach()).sum().backward()
    return x


def _callers_tensor(x0, f):
    x0.requires_grad_(True)
    (x0 * f(x0).detach()).sum().backward()
    return x0


key("detach-reproduce", cut_leaf, models=[
    # u = y itself leaves the same evidence as its clone: a path back to x through f.
    Model("not-cut", _clone_cut, "u = y, or a clone() of y, were cut from the graph."),
    Model("data-like-detach", _data_cut, "y.data were the same alias as y.detach(), sharing y's version counter."),
    Model("cut-the-leaf", _wrong_factor, "the factor to cut were x, not f(x)."),
    Model("returns-the-gradient", _returns_grad,
          "the function returned the gradient rather than the leaf that holds it."),
    Model("own-op", _own_op, "the forward could use an op of its own instead of the f it is given."),
    Model("backward-twice", _twice, "backward could run twice and .grad still hold one gradient."),
    Model("callers-tensor", _callers_tensor, "the tensor the function is given could be made the leaf."),
    Model("clone-is-a-leaf", _clone_not_leaf,
          "x0.clone() were a leaf of its own even when x0 requires grad, as it is for a plain x0."),
])

"""The key of the closed-book companion of Chapter 4: accumulation into one leaf, and the mistakes.

The reference is the answer as a learner writes it; run through the case's driver it reports what
autograd did to its leaf, so the key holds torch's own gradients and events. Each model is an
answer that makes one catalogued mistake.
"""

from __future__ import annotations

import torch

from answer_key.keys import Model, key


def two_objectives(w0, f, g):
    w = w0.detach().clone().requires_grad_()
    f(w).sum().backward()
    first = w.grad.clone()
    g(w).sum().backward()
    second = w.grad.clone()
    w.grad = None
    g(w).sum().backward()
    return first, second, w.grad.clone()


def _references(w0, f, g):
    w = w0.detach().clone().requires_grad_()
    f(w).sum().backward()
    first = w.grad
    g(w).sum().backward()
    second = w.grad
    w.grad.zero_()
    g(w).sum().backward()
    return first, second, w.grad


def _zeroes_first(w0, f, g):
    w = w0.detach().clone().requires_grad_()
    f(w).sum().backward()
    first = w.grad.clone()
    w.grad = None
    g(w).sum().backward()
    second = w.grad.clone()
    w.grad = None
    g(w).sum().backward()
    return first, second, w.grad.clone()


def _never_zeroes(w0, f, g):
    w = w0.detach().clone().requires_grad_()
    f(w).sum().backward()
    first = w.grad.clone()
    g(w).sum().backward()
    second = w.grad.clone()
    g(w).sum().backward()
    return first, second, w.grad.clone()


def _separate_leaves(w0, f, g):
    w1, w2 = (w0.detach().clone().requires_grad_() for _ in range(2))
    f(w1).sum().backward()
    g(w2).sum().backward()
    return w1.grad.clone(), w1.grad + w2.grad, w2.grad.clone()


def _autograd_grad(w0, f, g):
    w = w0.detach().clone().requires_grad_()
    (df,) = torch.autograd.grad(f(w).sum(), w)
    (dg,) = torch.autograd.grad(g(w).sum(), w)
    return df, df + dg, dg


def _sum_of_objectives(w0, f, g):
    w = w0.detach().clone().requires_grad_()
    f(w).sum().backward()
    first = w.grad.clone()
    w.grad = None
    (f(w) + g(w)).sum().backward()
    second = w.grad.clone()
    w.grad = None
    g(w).sum().backward()
    return first, second, w.grad.clone()


def _w0_itself(w0, f, g):
    w = w0.requires_grad_()
    f(w).sum().backward()
    first = w.grad.clone()
    g(w).sum().backward()
    second = w.grad.clone()
    w.grad = None
    g(w).sum().backward()
    return first, second, w.grad.clone()


def _freed_graph(w0, f, g):
    w = w0.detach().clone().requires_grad_()
    f(w).sum().backward()
    first = w.grad.clone()
    second_loss = g(w).sum()
    second_loss.backward()
    second = w.grad.clone()
    w.grad = None
    second_loss.backward()
    return first, second, w.grad.clone()


def _no_requires_grad(w0, f, g):
    w = w0.detach().clone()
    f(w).sum().backward()
    return w.grad, w.grad, w.grad


def _clone_of_w0(w0, f, g):
    w = w0.clone().requires_grad_()
    f(w).sum().backward()
    first = w.grad.clone()
    g(w).sum().backward()
    second = w.grad.clone()
    w.grad = None
    g(w).sum().backward()
    return first, second, w.grad.clone()


def _detached_aliases(w0, f, g):
    w = w0.detach().clone().requires_grad_()
    f(w).sum().backward()
    first = w.grad.detach()
    g(w).sum().backward()
    second = w.grad.detach()
    w.grad = None
    g(w).sum().backward()
    return first, second, w.grad.detach()


def _a_list(w0, f, g):
    return list(two_objectives(w0, f, g))


key("leaves-reproduce", two_objectives, models=[
    Model("references", _references, "keeping w.grad itself kept its value at that moment."),
    Model("zeroes-first", _zeroes_first, "each backward() needed an empty .grad to start from."),
    Model("never-zeroes", _never_zeroes, "the last backward() started from an empty .grad, though nothing emptied it."),
    Model("separate-leaves", _separate_leaves,
          "two leaves' gradients added by hand were what backward() does to one leaf's .grad."),
    Model("autograd-grad", _autograd_grad,
          "gradients that torch.autograd.grad returns, added by hand, were what backward() does to .grad."),
    Model("sum-of-objectives", _sum_of_objectives,
          "one backward() over f + g were the same event as a second backward() onto f's gradient."),
    Model("w0-itself", _w0_itself, "calling requires_grad_() on w0 left the caller's tensor as it was."),
    Model("freed-graph", _freed_graph, "a graph could be backpropagated again after backward() had freed it."),
    Model("no-requires-grad", _no_requires_grad, "backward() filled .grad of a tensor that does not require grad."),
    Model("a-list", _a_list, "a list of the three gradients would do where a tuple is asked for."),
    Model("clone-of-w0", _clone_of_w0, "a clone of w0 were a leaf, even when w0 requires grad."),
    Model("aliases-of-grad", _detached_aliases,
          "a tensor read from w.grad (itself, or through detach()) kept the values w.grad had at that moment."),
])

"""The key of the closed-book companion of Chapter 5: a counter held as a persistent int64 buffer,
and the mistakes.

The reference is the class as a learner writes it; run through each case's driver around the
drawn inner module, it reports what torch's module machinery does with it. Each model is a class
that makes one catalogued mistake.
"""

from __future__ import annotations

import copy

import torch
from torch import nn

from answer_key.keys import Model, key


def _call_counter(register, count=None, own=None):
    """A CallCounter class: ``register(self)`` creates calls, ``count(self)`` runs in forward."""

    class CallCounter(nn.Module):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner if own is None else own(inner)
            register(self)

        def forward(self, x):
            (count or _count_in_training)(self)
            return self.inner(x)

    return CallCounter


def _count_in_training(module):
    if module.training:
        module.calls += 1


def _int64_buffer(module, persistent=True):
    module.register_buffer("calls", torch.zeros((), dtype=torch.int64), persistent=persistent)


def _always(module):
    module.calls += 1


def _twice(module):
    if module.training:
        module.calls += 2


def _frozen_parameter(module):
    module.calls = nn.Parameter(torch.zeros((), dtype=torch.int64), requires_grad=False)


def _count_frozen(module):
    if module.training:
        with torch.no_grad():
            module.calls += 1


CallCounter = _call_counter(_int64_buffer)

key("modules-reproduce", CallCounter, models=[
    Model("plain-tensor", _call_counter(lambda m: setattr(m, "calls", torch.zeros((), dtype=torch.int64))),
          "a tensor assigned as an attribute belonged to the module like a registered one."),
    Model("python-int", _call_counter(lambda m: setattr(m, "calls", 0)),
          "a Python number kept on the module were saved and moved with it."),
    Model("integer-parameter", _call_counter(_frozen_parameter, _count_frozen),
          "an integer Parameter that does not require grad were state the optimizer never sees."),
    Model("frozen-parameter", _call_counter(lambda m: setattr(m, "calls", nn.Parameter(torch.zeros(()),
                                                                                     requires_grad=False))),
          "a Parameter with requires_grad=False were state the optimizer leaves alone, like a buffer."),
    Model("non-persistent", _call_counter(lambda m: _int64_buffer(m, persistent=False)),
          "every buffer went into the state_dict, persistent=False or not."),
    Model("counts-eval", _call_counter(_int64_buffer, _always), "a forward in eval mode counted like a training one."),
    Model("float-counter", _call_counter(lambda m: m.register_buffer("calls", torch.zeros(()))),
          "a count could be kept in a floating-point tensor like any other."),
    Model("copies-inner", _call_counter(_int64_buffer, own=copy.deepcopy),
          "a copy of inner trained the same tensors as inner itself."),
    Model("counts-twice", _call_counter(_int64_buffer, _twice), "each training forward counted two calls."),
    Model("one-element-counter", _call_counter(lambda m: m.register_buffer("calls", torch.zeros(1, dtype=torch.int64))),
          "a one-element tensor of shape (1,) were the same as an int64 scalar."),
])

"""What a driver reads through ``autograder.engine.facts`` is torch's word, whatever an answer
rebound or left on: a method set on a tensor or a module, a function rebound on torch, a mode, a
subclass, a graph node class of its own; and the sandbox captures them before any answer runs."""

from __future__ import annotations

import subprocess
import sys

import pytest
import torch
from torch import nn
from torch.overrides import TorchFunctionMode
from torch.utils._python_dispatch import TorchDispatchMode

from autograder.chapters.modules import COUNT_CASES, module_recipe
from autograder.engine import facts
from autograder.engine.draw import Draw
from autograder.engine.observe import observe_point
from autograder.engine.witness import leaves_of, read_saved


class Lying(TorchFunctionMode):
    """Says every tensor is at version 7 and equal to any other."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        name = getattr(func, "__name__", "")
        if name == "__get__" and getattr(func.__self__, "__name__", "") == "_version":
            return 7
        if name == "equal":
            return True
        return func(*args, **(kwargs or {}))


def test_a_method_set_on_the_tensor_or_rebound_on_torch_does_not_answer():
    t = torch.zeros(3)
    t.is_contiguous = lambda *args, **kwargs: False
    t.detach = lambda *args, **kwargs: torch.ones(3)
    kept = torch.equal
    torch.equal = lambda *args, **kwargs: False
    try:
        with facts.untouched():
            assert facts.is_contiguous(t) and bool(facts.equal(facts.detach(t), torch.zeros(3)))
    finally:
        torch.equal = kept


def test_a_mode_left_on_and_a_subclass_are_not_seen():
    class Same(torch.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return True

    t = torch.zeros(3)
    with Lying():
        assert t._version == 7 and torch.equal(t, torch.ones(3))
        with facts.untouched():
            assert facts.version(t) == 0 and not facts.equal(t, torch.ones(3))
            assert not facts.equal(torch.zeros(3).as_subclass(Same), torch.ones(3))
    assert not facts.is_tensor(torch.zeros(3).as_subclass(Same))


class Ones(TorchDispatchMode):
    """Makes every op's result a tensor of ones, below torch's Python layer."""

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        return out.fill_(1) if isinstance(out, torch.Tensor) and out.is_floating_point() else out


def test_a_dispatch_mode_left_on_is_set_aside_and_back_on_after():
    with Ones():
        assert bool(torch.zeros(3).eq(1).all())
        with facts.untouched():
            assert not bool(torch.zeros(3).eq(1).any())
        assert bool(torch.zeros(3).eq(1).all())
    with facts.untouched():  # and with no mode on at all
        assert not bool(torch.zeros(3).eq(1).any())


def test_a_modules_own_methods_do_not_answer_for_it():
    class Claims(nn.Linear):
        def named_parameters(self, *args, **kwargs):
            return iter([])

        def named_modules(self, *args, **kwargs):
            return iter([])

        def state_dict(self, *args, **kwargs):
            return {"calls": torch.zeros(())}

    layer = Claims(2, 3)
    layer.named_buffers = lambda *args, **kwargs: iter([("calls", torch.zeros(()))])
    assert list(layer.parameters()) == []
    assert [p is layer.weight for p in facts.parameters(layer)] == [True, False]
    assert list(facts.state_dict(layer)) == ["weight", "bias"]
    assert facts.named_buffers(layer) == []


@pytest.mark.parametrize("family", sorted(COUNT_CASES))
def test_a_modules_parameters_and_buffers_are_what_nn_module_gives(family):
    """Tied, reused and nested modules, buffers, frozen and unregistered tensors: the same tensors
    under the same names, in the same order."""
    for seed in (1, 2):
        (module,) = module_recipe(COUNT_CASES[family][0])(Draw(seed))
        for recurse in (True, False):
            for mine, torchs in ((facts.named_parameters, module.named_parameters),
                                 (facts.named_buffers, module.named_buffers)):
                assert [(n, id(t)) for n, t in mine(module, recurse)] == \
                    [(n, id(t)) for n, t in torchs(recurse=recurse)]


def test_a_node_class_of_the_answers_is_not_read():
    leaf = torch.ones(2, requires_grad=True)

    class Planted(torch.autograd.Function):
        @staticmethod
        def forward(ctx, t):
            return t * 2

        @staticmethod
        def backward(ctx, g):
            return g

    given = torch.zeros(2, requires_grad=True)
    out = Planted.apply(given)
    node_class = type(out.grad_fn)
    node_class.variable = leaf
    node_class.next_functions = ()
    node_class._saved_self = property(lambda node: (_ for _ in ()).throw(RuntimeError("stale")))
    found = leaves_of(out)
    assert len(found) == 1 and found[0] is given
    assert read_saved(out.grad_fn) == "readable"
    assert not facts.is_torch_node(out.grad_fn) and facts.is_torch_node((out * 1).grad_fn)


def test_a_mode_an_answer_left_on_or_slipped_beneath_is_taken_off_when_its_call_ends():
    from autograder.engine.cases import Case

    def leaves_modes_on(t):
        Lying().__enter__()
        beneath = Lying()
        above = torch._C._pop_torch_function_stack()
        torch._C._push_on_torch_function_stack(beneath)
        torch._C._push_on_torch_function_stack(above)
        return t._version

    case = Case(exercise="x", name="y", answer="f", subject="f", probe="f(t)", inputs=tuple)
    with Lying() as mine:
        seen = observe_point(case, leaves_modes_on, (torch.zeros(1),))
        assert seen.value == 7
        assert torch.overrides._get_current_function_mode_stack() == [mine]
    assert torch._C._len_torch_function_stack() == 0


def test_the_sandbox_captures_them_before_any_answer_runs():
    """The zygote imports the runner before it forks a job: the functions are torch's own then."""
    code = "import sys, autograder.pipeline.sandbox.runner; print('autograder.engine.facts' in sys.modules)"
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "True"


def test_its_sgd_steps_and_refuses_as_torchs_does():
    generator = torch.Generator().manual_seed(0)
    values = [torch.randn(3, 4, generator=generator), torch.randn(4, generator=generator), torch.randn(2)]
    steps = []
    for make in (facts.SGD, torch.optim.SGD):
        params = [v.clone().requires_grad_() for v in values]
        for p in params[:2]:
            p.grad = torch.full_like(p, 0.3) + p
        optimizer = make(params, lr=0.7)
        optimizer.step()
        steps.append([p.detach().clone() for p in params])
        optimizer.zero_grad()
        assert all(p.grad is None for p in params)
    assert all(torch.equal(a, b) for a, b in zip(*steps, strict=True))
    for refused in ([], [torch.ones(2, requires_grad=True) * 2], [3.0]):
        raised = []
        for make in (facts.SGD, torch.optim.SGD):
            with pytest.raises((TypeError, ValueError)) as err:
                make(refused, lr=0.1)
            raised.append((type(err.value), str(err.value)))
        assert raised[0] == raised[1]

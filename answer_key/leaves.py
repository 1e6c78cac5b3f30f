"""The key of Chapter 4, "Leaves, ``.grad`` and accumulation".

Each reference is an answer as a learner would write it, run through the case's own driver, so
what the key holds is what that answer's report is: its values come from torch (an SGD step, a
backward pass), never typed in. Each model is an answer that makes one catalogued mistake.
"""

from __future__ import annotations

import torch

from answer_key.keys import Model, key

# --------------------------------------------------------------------------- leaves-sgd-step


def sgd_step(params, lr):
    with torch.no_grad():
        for p in params:
            if p.grad is not None:
                p -= lr * p.grad
                p.grad = None


def _outside_no_grad(params, lr):
    for p in params:
        if p.grad is not None:
            p -= lr * p.grad
            p.grad = None


def _rebinds(params, lr):
    for p in params:
        if p.grad is not None:
            p = p - lr * p.grad  # noqa: PLW2901 - the mistake
            p.grad = None


def _never_clears(params, lr):
    with torch.no_grad():
        for p in params:
            if p.grad is not None:
                p -= lr * p.grad


def _new_tensors(params, lr):
    for i, p in enumerate(params):
        if p.grad is not None:
            params[i] = (p - lr * p.grad).detach().requires_grad_()


def _rate_times_none(params, lr):
    with torch.no_grad():
        for p in params:
            p -= lr * p.grad
            p.grad = None


def _none_times_rate(params, lr):
    with torch.no_grad():
        for p in params:
            p -= p.grad * lr
            p.grad = None


def _ascent(params, lr):
    with torch.no_grad():
        for p in params:
            if p.grad is not None:
                p += lr * p.grad
                p.grad = None


def _through_data(params, lr):
    for p in params:
        if p.grad is not None:
            p.data -= lr * p.grad
            p.grad = None


def _torch_optimizer(params, lr):
    optimizer = torch.optim.SGD(params, lr=lr)
    optimizer.step()
    optimizer.zero_grad()


key("leaves-sgd-step", sgd_step, models=[
    Model("outside-no-grad", _outside_no_grad,
          "a parameter could be updated in place while autograd records, like any tensor."),
    Model("rebinds", _rebinds, "giving the loop variable a new value changed the parameter it named."),
    Model("never-clears", _never_clears, "each backward() replaced .grad instead of adding to it."),
    Model("new-tensors", _new_tensors,
          "putting new tensors into the list changed the parameters the loss is computed from."),
    Model("grad-none", _rate_times_none, "every parameter had a gradient, even one the loss never used."),
    Model("grad-none-right", _none_times_rate, "every parameter had a gradient, even one the loss never used."),
    Model("ascent", _ascent, "a step moved the parameters along their gradient."),
    Model("through-data", _through_data,
          "a write through .data were an ordinary in-place update of the parameter, one autograd sees."),
    Model("torch-optimizer", _torch_optimizer, "the step could be left to one of torch.optim's optimizers."),
])


# --------------------------------------------------------------------------- leaves-accumulate
def accumulated_grads(model, loss_fn, batches):
    model.zero_grad()
    total = sum(len(x) for x, _ in batches)
    for x, y in batches:
        (loss_fn(model(x), y) * len(x) / total).backward()
    return [p.grad.clone() for p in model.parameters()]


def _sum_of_means(model, loss_fn, batches):
    model.zero_grad()
    for x, y in batches:
        loss_fn(model(x), y).backward()
    return [p.grad.clone() for p in model.parameters()]


def _mean_of_means(model, loss_fn, batches):
    model.zero_grad()
    for x, y in batches:
        (loss_fn(model(x), y) / len(batches)).backward()
    return [p.grad.clone() for p in model.parameters()]


def _zeroes_inside(model, loss_fn, batches):
    total = sum(len(x) for x, _ in batches)
    for x, y in batches:
        model.zero_grad()
        (loss_fn(model(x), y) * len(x) / total).backward()
    return [p.grad.clone() for p in model.parameters()]


def _leaks(model, loss_fn, batches):
    total = sum(len(x) for x, _ in batches)
    for x, y in batches:
        (loss_fn(model(x), y) * len(x) / total).backward()
    return [p.grad.clone() for p in model.parameters()]


def _autograd_grad(model, loss_fn, batches):
    params = list(model.parameters())
    total = sum(len(x) for x, _ in batches)
    grads = [torch.zeros_like(p) for p in params]
    for x, y in batches:
        parts = torch.autograd.grad(loss_fn(model(x), y), params)
        grads = [g + part * len(x) / total for g, part in zip(grads, parts, strict=True)]
    return grads


def _one_backward(model, loss_fn, batches):
    model.zero_grad()
    total = sum(len(x) for x, _ in batches)
    sum(loss_fn(model(x), y) * len(x) / total for x, y in batches).backward()
    return [p.grad.clone() for p in model.parameters()]


def _concatenated(model, loss_fn, batches):
    model.zero_grad()
    x = torch.cat([x for x, _ in batches])
    y = torch.cat([y for _, y in batches])
    loss_fn(model(x), y).backward()
    return [p.grad.clone() for p in model.parameters()]


def _a_tuple(model, loss_fn, batches):
    return tuple(accumulated_grads(model, loss_fn, batches))


key("leaves-accumulate", accumulated_grads, models=[
    Model("sum-of-means", _sum_of_means,
          "adding up the micro-batches' mean losses gave the mean loss over all samples."),
    Model("mean-of-means", _mean_of_means,
          "every micro-batch weighed the same, whatever its number of samples."),
    Model("zeroes-inside", _zeroes_inside, "each micro-batch's backward() had to start from an empty .grad."),
    Model("leaks", _leaks, ".grad was empty when the function was called."),
    Model("autograd-grad", _autograd_grad,
          "adding up what torch.autograd.grad returns were the accumulation that backward() does in .grad."),
    Model("one-backward", _one_backward,
          "one backward() over the sum of every micro-batch's loss were accumulating over the micro-batches."),
    Model("concatenated", _concatenated,
          "running the whole batch at once were accumulating over its micro-batches."),
    Model("a-tuple", _a_tuple, "a tuple of the gradients would do where a list is asked for."),
])


# --------------------------------------------------------------------------- leaves-hidden-grad
def hidden_grad(x, w):
    h = (x @ w).detach().requires_grad_()
    loss = (torch.tanh(h) ** 2).sum()
    loss.backward()
    return h.grad


def _reads_non_leaf(x, w):
    h = x @ w
    (torch.tanh(h) ** 2).sum().backward()
    return h.grad


def _retains_always(x, w):
    h = x @ w
    h.retain_grad()
    (torch.tanh(h) ** 2).sum().backward()
    return h.grad


def _retains_when_possible(x, w):
    h = x @ w
    if h.requires_grad:
        h.retain_grad()
    else:
        h.requires_grad_()
    (torch.tanh(h) ** 2).sum().backward()
    return h.grad


def _grad_on_graph(x, w):
    h = x @ w
    return torch.autograd.grad((torch.tanh(h) ** 2).sum(), h)[0]


def _leaf_gradient(x, w):
    w = w.detach().requires_grad_()
    (torch.tanh(x.detach() @ w) ** 2).sum().backward()
    return w.grad


def _closed_form(x, w):
    t = torch.tanh(x @ w)
    return (2 * t * (1 - t**2)).detach()


def _backward_beside_by_hand(x, w):
    h = (x @ w).detach().requires_grad_()
    (torch.tanh(h) ** 2).sum().backward()
    t = torch.tanh(h.detach())
    return 2 * t * (1 - t**2)


def _outer_factor_only(x, w):
    h = (x @ w).detach().requires_grad_()
    torch.tanh(h).sum().backward()
    return h.grad


key("leaves-hidden-grad", hidden_grad, models=[
    Model("non-leaf-grad", _reads_non_leaf, "backward() filled .grad of every tensor it passed through."),
    Model("retain-always", _retains_always,
          "x @ w always had a graph to keep a gradient in, even when neither x nor w requires grad."),
    Model("through-the-inputs", _retains_when_possible,
          "a backward() through x and w left their .grad as it was."),
    Model("grad-on-graph", _grad_on_graph,
          "x @ w always had a graph to differentiate, even when neither x nor w requires grad."),
    Model("leaf-gradient", _leaf_gradient, "the gradient asked for were the one w receives."),
    Model("closed-form", _closed_form,
          "the derivative could be computed without a backward pass over the loss's graph "
          "(by a formula written out by hand, or in forward mode)."),
    Model("outer-square-dropped", _outer_factor_only, "the loss were tanh(h) summed, without the square."),
    Model("backward-left-unused", _backward_beside_by_hand,
          "a backward pass run beside a derivative written out by hand made the hand-written result autograd's."),
])


# --------------------------------------------------------------------------- leaves-momentum-step
def momentum_step(params, buffers, lr, momentum, weight_decay):
    with torch.no_grad():
        for i, p in enumerate(params):
            if p.grad is None:
                continue
            d = p.grad + weight_decay * p
            buffers[i] = d.clone() if i not in buffers else buffers[i].mul_(momentum).add_(d)
            p -= lr * buffers[i]


def _buffer_aliases_grad(params, buffers, lr, momentum, weight_decay):
    with torch.no_grad():
        for i, p in enumerate(params):
            if p.grad is None:
                continue
            d = p.grad + weight_decay * p if weight_decay else p.grad
            buffers[i] = d if i not in buffers else buffers[i].mul_(momentum).add_(d)
            p -= lr * buffers[i]


def _buffer_aliases_grad_once(params, buffers, lr, momentum, weight_decay):
    with torch.no_grad():
        for i, p in enumerate(params):
            if p.grad is None:
                continue
            d = p.grad + weight_decay * p if weight_decay else p.grad
            buffers[i] = d if i not in buffers else momentum * buffers[i] + d
            p -= lr * buffers[i]


def _momentum_outside_no_grad(params, buffers, lr, momentum, weight_decay):
    for i, p in enumerate(params):
        if p.grad is None:
            continue
        d = p.grad + weight_decay * p.detach()
        buffers[i] = d.clone() if i not in buffers else buffers[i] * momentum + d
        p -= lr * buffers[i]


def _momentum_through_data(params, buffers, lr, momentum, weight_decay):
    for i, p in enumerate(params):
        if p.grad is None:
            continue
        d = p.grad + weight_decay * p.data
        buffers[i] = d.clone() if i not in buffers else buffers[i] * momentum + d
        p.data -= lr * buffers[i]


def _dampened_after_first(params, buffers, lr, momentum, weight_decay):
    with torch.no_grad():
        for i, p in enumerate(params):
            if p.grad is None:
                continue
            d = p.grad + weight_decay * p
            buffers[i] = d.clone() if i not in buffers else momentum * buffers[i] + (1 - momentum) * d
            p -= lr * buffers[i]


def _buffers_rebound(params, buffers, lr, momentum, weight_decay):
    buffers = {}  # the mistake: the caller's dict is not this one
    momentum_step(params, buffers, lr, momentum, weight_decay)


def _new_tensors_in_the_list(params, buffers, lr, momentum, weight_decay):
    with torch.no_grad():
        for i, p in enumerate(params):
            if p.grad is None:
                continue
            d = p.grad + weight_decay * p
            buffers[i] = d.clone() if i not in buffers else momentum * buffers[i] + d
            params[i] = (p - lr * buffers[i]).requires_grad_()


def _clears_grad(params, buffers, lr, momentum, weight_decay):
    momentum_step(params, buffers, lr, momentum, weight_decay)
    for p in params:
        p.grad = None


def _decay_into_grad(params, buffers, lr, momentum, weight_decay):
    with torch.no_grad():
        for i, p in enumerate(params):
            if p.grad is None:
                continue
            d = p.grad.add_(p, alpha=weight_decay)
            buffers[i] = d.clone() if i not in buffers else buffers[i].mul_(momentum).add_(d)
            p -= lr * buffers[i]


def _average_of_gradients(params, buffers, lr, momentum, weight_decay):
    with torch.no_grad():
        for i, p in enumerate(params):
            if p.grad is None:
                continue
            d = p.grad + weight_decay * p
            buffers[i] = buffers.get(i, torch.zeros_like(p)) * momentum + (1 - momentum) * d
            p -= lr * buffers[i]


def _decay_outside_buffer(params, buffers, lr, momentum, weight_decay):
    with torch.no_grad():
        for i, p in enumerate(params):
            if p.grad is None:
                continue
            buffers[i] = p.grad.clone() if i not in buffers else buffers[i] * momentum + p.grad
            p -= lr * (buffers[i] + weight_decay * p)


def _decays_without_gradient(params, buffers, lr, momentum, weight_decay):
    with torch.no_grad():
        for i, p in enumerate(params):
            grad = p.grad if p.grad is not None else torch.zeros_like(p)
            d = grad + weight_decay * p
            buffers[i] = d.clone() if i not in buffers else buffers[i] * momentum + d
            p -= lr * buffers[i]


def _momentum_by_torch(params, buffers, lr, momentum, weight_decay):
    optimizer = torch.optim.SGD(params, lr=lr, momentum=momentum, weight_decay=weight_decay)
    optimizer.step()


key("leaves-momentum-step", momentum_step, models=[
    Model("buffer-aliases-grad", _buffer_aliases_grad,
          "a momentum buffer made from p.grad without a copy were a tensor of its own, "
          "which zeroing .grad and the next backward() leave alone."),
    Model("buffer-aliases-grad-once", _buffer_aliases_grad_once,
          "a momentum buffer made from p.grad without a copy were a tensor of its own, "
          "which zeroing .grad and the next backward() leave alone."),
    Model("buffers-rebound", _buffers_rebound,
          "a new dict assigned to buffers inside the function were the dict the caller hands to the next call."),
    Model("new-tensors", _new_tensors_in_the_list,
          "putting new tensors into the list changed the parameters the loss is computed from."),
    Model("clears-grad", _clears_grad, "the step had to clear .grad, as sgd_step's does."),
    Model("decay-into-grad", _decay_into_grad,
          "adding the weight decay into p.grad in place left .grad as backward() made it."),
    Model("outside-no-grad", _momentum_outside_no_grad,
          "a parameter could be updated in place while autograd records, like any tensor."),
    Model("through-data", _momentum_through_data,
          "a write through .data were an ordinary in-place update of the parameter, one autograd sees."),
    Model("average-of-gradients", _average_of_gradients,
          "the buffer were an average of the gradients starting from zero: momentum times the old buffer "
          "plus (1 - momentum) times the new gradient."),
    Model("dampened-after-first", _dampened_after_first,
          "after its first step the buffer took (1 - momentum) times the new gradient, as SGD's dampening "
          "does when it equals the momentum."),
    Model("decay-outside-buffer", _decay_outside_buffer,
          "weight decay were added to the step after the momentum buffer, not to the gradient that "
          "enters it."),
    Model("decays-without-gradient", _decays_without_gradient,
          "a parameter without a gradient still took a step: its weight decay, as if its gradient were zero."),
    Model("torch-optimizer", _momentum_by_torch, "the step could be left to one of torch.optim's optimizers."),
])


# ---------------------------------------------------------------------- leaves-recurrent-grads
def recurrent_grads(h0, w, steps):
    # From copies that start a graph of their own: h0 and w are left alone, whatever they require.
    h, w, states = h0.detach().requires_grad_(), w.detach(), []
    for _ in range(steps):
        h = torch.tanh(h @ w)
        states.append(h)
    loss = sum((state**2).sum() for state in states)
    return list(torch.autograd.grad(loss, states))


def _cut_at_every_state(h0, w, steps):
    h, states, loss = h0.detach(), [], 0
    for _ in range(steps):
        h = torch.tanh(h @ w.detach()).detach().requires_grad_()
        states.append(h)
        loss = loss + (h**2).sum()
    loss.backward()
    return [state.grad for state in states]


def _non_leaf_grads(h0, w, steps):
    h, states = h0.detach().requires_grad_(), []
    for _ in range(steps):
        h = torch.tanh(h @ w.detach())
        states.append(h)
    sum((state**2).sum() for state in states).backward()
    return [state.grad for state in states]


def _through_the_inputs(h0, w, steps):
    h, states = h0.detach().requires_grad_(), []
    for _ in range(steps):
        h = torch.tanh(h @ w)
        h.retain_grad()
        states.append(h)
    sum((state**2).sum() for state in states).backward()
    return [state.grad for state in states]


def _states_grads_as_tuple(h0, w, steps):
    return tuple(recurrent_grads(h0, w, steps))


def _recurrent_backward_beside_by_hand(h0, w, steps):
    h, states = h0.detach().requires_grad_(), []
    for _ in range(steps):
        h = torch.tanh(h @ w.detach())
        states.append(h)
    sum((state**2).sum() for state in states).backward()
    return _by_hand(h0, w, steps)


def _last_state_loss(h0, w, steps):
    h, states = h0.detach().requires_grad_(), []
    for _ in range(steps):
        h = torch.tanh(h @ w.detach())
        states.append(h)
    return list(torch.autograd.grad((states[-1] ** 2).sum(), states))


def _by_hand(h0, w, steps):
    w = w.detach()
    h, states = h0.detach(), []
    for _ in range(steps):
        h = torch.tanh(h @ w)
        states.append(h)
    grads, flowing = [], torch.zeros_like(states[-1])
    for state in reversed(states):
        total = 2 * state + flowing
        grads.append(total)
        flowing = (total * (1 - state**2)) @ w.T
    return grads[::-1]


key("leaves-recurrent-grads", recurrent_grads, models=[
    Model("own-term-only", _cut_at_every_state,
          "each state's gradient were the derivative of its own term alone, without what flows back from later "
          "states (as when every state is detached and made a leaf of its own)."),
    Model("non-leaf-grad", _non_leaf_grads, "backward() filled .grad of every tensor it passed through."),
    Model("last-state-loss", _last_state_loss, "the loss were the last state's squares only."),
    Model("through-the-inputs", _through_the_inputs, "a backward() through h0 or w left their .grad as it was."),
    Model("a-tuple", _states_grads_as_tuple, "a tuple of the gradients would do where the task asks for a list."),
    Model("backward-left-unused", _recurrent_backward_beside_by_hand,
          "a backward pass run beside gradients written out by hand made the hand-written results autograd's."),
    Model("by-hand", _by_hand,
          "the gradients could be computed without a backward pass over the loss's graph (by formulas written out "
          "by hand)."),
])


# --------------------------------------------------------------------------- leaves-selftest
def _selftest() -> dict:
    w = torch.ones(3, requires_grad=True)
    u = w[:2]
    with torch.no_grad():
        y = w * 2
    cubed = torch.full((2,), 2.0, requires_grad=True)
    loss = (cubed**3).sum()
    loss.backward(retain_graph=True)
    loss.backward()
    p, q = torch.ones(2, requires_grad=True), torch.ones(2, requires_grad=True)
    optimizer = torch.optim.SGD([p], lr=0.1)
    (p * q).sum().backward()
    optimizer.zero_grad()
    with torch.inference_mode():
        inference = torch.ones(2) * 3
    try:
        (inference * torch.ones(2, requires_grad=True)).sum().backward()
        succeeds = True
    except RuntimeError:
        succeeds = False
    return {"q1": u.is_leaf, "q2": y.is_leaf, "q3": cubed.grad[0].item(), "q4": q.grad is None, "q5": succeeds}


key("leaves-selftest", _selftest, values=True, models=[
    Model("view-of-leaf", {"q1": True}, "a view of a leaf were a leaf too."),
    Model("no-grad-records", {"q2": False}, "a result computed under torch.no_grad() still had a grad_fn."),
    Model("backward-overwrites", {"q3": 12.0}, "a second backward() replaced .grad instead of adding to it."),
    Model("zero-grad-everything", {"q4": True},
          "an optimizer's zero_grad() cleared every tensor's gradient, not only those it was given."),
    Model("inference-saved", {"q5": True}, "a tensor made under inference_mode could be saved for backward."),
])

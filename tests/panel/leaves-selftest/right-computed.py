# Replace each ... with your answer.
def _q1():
    w = torch.ones(3, requires_grad=True)
    return w[:2].is_leaf


def _q2():
    w = torch.ones(3, requires_grad=True)
    with torch.no_grad():
        y = w * 2
    return y.is_leaf


def _q3():
    w = torch.full((2,), 2.0, requires_grad=True)
    loss = (w**3).sum()
    loss.backward(retain_graph=True)
    loss.backward()
    return w.grad[0].item()


def _q4():
    p = torch.ones(2, requires_grad=True)
    q = torch.ones(2, requires_grad=True)
    opt = torch.optim.SGD([p], lr=0.1)
    (p * q).sum().backward()
    opt.zero_grad()
    return q.grad is None


def _q5():
    w = torch.ones(2, requires_grad=True)
    with torch.inference_mode():
        y = torch.ones(2) * 3
    try:
        (y * w).sum().backward()
    except RuntimeError:
        return False
    return True


SELFTEST = {
    "q1": _q1(),  # True or False
    "q2": _q2(),  # True or False
    "q3": _q3(),  # a float
    "q4": _q4(),  # True or False
    "q5": _q5(),  # True or False
}

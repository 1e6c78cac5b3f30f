# Replace each ... with your answer.
def _q1():
    x = torch.ones(3, requires_grad=True)
    before = x._version
    y = x.clone().detach()
    y.add_(1)
    return x._version != before


def _q2():
    x = torch.tensor(2.0, requires_grad=True)
    y = x**3
    (x * y.detach() + y).backward()
    return x.grad.item()


def _q3():
    x = torch.ones(3, requires_grad=True)
    return x.detach().requires_grad_().is_leaf


def _q4():
    with torch.inference_mode():
        b = torch.ones(3) * 2
        c = b.clone()
    w = torch.ones(3, requires_grad=True)
    try:
        (c * w).sum().backward()
        return True
    except RuntimeError:
        return False


def _q5():
    layer = nn.Linear(3, 2)
    with torch.inference_mode():
        layer.weight.mul_(0.5)
    layer(torch.randn(4, 3)).sum().backward()
    return layer.weight.grad is None


def _q6_q7():
    encoder, head = nn.Linear(4, 3), nn.Linear(3, 1)
    x = torch.randn(8, 4)
    loss = head(encoder(x)).sum().detach().requires_grad_()
    try:
        loss.backward()
        raised = False
    except RuntimeError:
        raised = True
    return raised, head.weight.grad is None


def _q8():
    p = nn.Parameter(torch.ones(3))
    return isinstance(p.detach(), nn.Parameter)


q6, q7 = _q6_q7()
SELFTEST = {
    "q1": bool(_q1()),
    "q2": float(_q2()),
    "q3": bool(_q3()),
    "q4": bool(_q4()),
    "q5": bool(_q5()),
    "q6": bool(q6),
    "q7": bool(q7),
    "q8": bool(_q8()),
}

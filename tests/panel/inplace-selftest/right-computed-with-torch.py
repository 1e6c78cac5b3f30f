def _q1():
    a = torch.zeros(4); v = a.view(2, 2); v[0].add_(1); v[1].add_(1); d = a.detach()
    d.mul_(2); d[0] = 5; d.sub_(1); torch.sin(a, out=a)
    return a._version


def _q2():
    a = torch.zeros(3); b = a.clone(); b.add_(1); a += b; a.copy_(b)
    return b._version


def _backward_succeeds(run):
    try:
        run()
    except RuntimeError:
        return False
    return True


def _q3():
    x = torch.randn(3, requires_grad=True)
    y = x.exp(); z = y * 3
    with torch.no_grad():
        z.add_(1)
    return _backward_succeeds(lambda: z.sum().backward())


def _q4():
    x = torch.ones(4, requires_grad=True); y = x * 1; y.data.add_(1)
    y.detach()[0] = 5; y.add_(1)
    return y._version


def _q5():
    a = torch.randn(3, requires_grad=True) * 1  # a non-leaf
    y = (a * a.detach()).sum()
    with torch.no_grad():
        a.add_(1)
    return _backward_succeeds(y.backward)


SELFTEST = {"q1": _q1(), "q2": _q2(), "q3": _q3(), "q4": _q4(), "q5": _q5()}

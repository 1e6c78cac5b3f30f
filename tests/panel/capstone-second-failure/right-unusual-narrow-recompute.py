def gated_broken():
    w, x = capstone_inputs()
    gates = torch.sigmoid(x @ w)
    gates.view(30).narrow(0, 0, 10).clamp_(min=0.1, max=0.9)
    gates.view(30).narrow(0, 10, 10).clamp_(min=0.1, max=0.9)
    gates.view(30).narrow(0, 20, 10).clamp_(min=0.1, max=0.9)
    gates.backward(torch.ones_like(gates))


def gated_fixed():
    w, x = capstone_inputs()
    gates = torch.sigmoid(x @ w)
    loss = (gates @ readout()).pow(2).mean() + 1e-3 * w.pow(2).sum()
    with torch.no_grad():
        shown = torch.sigmoid(x @ w)  # a second, separate computation for the plot
    strip = shown.view(30)
    for start in range(0, 30, 10):
        strip.narrow(0, start, 10).clamp_(min=0.1, max=0.9)
    send_to_dashboard(strip)
    grad, = torch.autograd.grad(loss, [w])
    return grad

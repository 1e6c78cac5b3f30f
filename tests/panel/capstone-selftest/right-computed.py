# Replace each ... with your answer.
def _step(dashboard_lines: str, use_grad: bool = False):
    """The fragment with its dashboard lines replaced; returns its error, or None."""
    w, x = capstone_inputs()
    targets = torch.tensor([0, 2, 1, 3, 0])
    hidden = (x @ w).tanh()
    logits = hidden @ readout()
    loss = F.cross_entropy(logits, targets) + 1e-3 * w.pow(2).sum()
    exec(dashboard_lines, {"hidden": hidden})
    try:
        if use_grad:
            torch.autograd.grad(loss, w)
        else:
            loss.backward()
    except RuntimeError as err:
        return err
    return None


_original = _step("dashboard = hidden[:, 4:]\ndashboard.mul_(100)")
_with_grad = _step("dashboard = hidden[:, 4:]\ndashboard.mul_(100)", use_grad=True)
_twice = _step("hidden[:, 4:].mul_(10).mul_(10)")
SELFTEST = {
    "q1": _with_grad is not None
    and str(_with_grad).partition(" Hint:")[0] == str(_original).partition(" Hint:")[0],
    "q2": _step("dashboard = hidden[:, 4:] * 100") is not None,
    "q3": int(re.search(r"is at version (\d+)", str(_twice)).group(1)),
    "q4": re.search("output 0 of Tanh", str(_twice)) is not None,
}

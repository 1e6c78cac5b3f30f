# Replace each ... with your answer.
_w = torch.full((2,), 2.0, requires_grad=True)
_loss = (_w**3).sum()
_loss.backward(retain_graph=True)
_loss.backward()

SELFTEST = {
    "q1": False,  # True or False
    "q2": True,  # True or False
    "q3": _w.grad[0],  # a float
    "q4": False,  # True or False
    "q5": False,  # True or False
}

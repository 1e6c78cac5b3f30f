# Replace each ... with your answer.
_w = torch.full((2,), 2.0, requires_grad=True)
_loss = (_w**3).sum()
_loss.backward(retain_graph=True)
_loss.backward()

SELFTEST = {
    "q1": torch.ones(3, requires_grad=True)[:2].is_leaf,  # True or False
    "q2": True,  # True or False
    "q3": float(_w.grad[0]),  # a float
    "q4": False,  # True or False
    "q5": False,  # True or False
}

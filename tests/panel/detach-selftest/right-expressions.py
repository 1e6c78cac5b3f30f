# Replace each ... with your answer.
x_val = 2.0
SELFTEST = {
    "q1": False,  # clone() made new memory and a new version counter: only y's counter moves
    "q2": x_val**3 + 3 * x_val**2,  # u = y (a constant) plus dy/dx = 3x^2: 8 + 12
    "q3": True,  # requires_grad_() on the detached tensor keeps it a leaf
    "q4": False,  # cloned inside inference_mode: still an inference tensor
    "q5": False,  # an in-place write to a normal tensor under inference_mode leaves it normal
    "q6": False,  # loss is now a leaf that requires grad: backward runs
    "q7": True,  # the graph to head was cut by detach()
    "q8": False,  # torch ops return plain tensors
}

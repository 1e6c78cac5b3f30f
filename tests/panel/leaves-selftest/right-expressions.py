# Replace each ... with your answer.
SELFTEST = {
    "q1": not True,  # a slice of w is recorded (a view with a grad_fn): not a leaf
    "q2": not False,  # nothing recorded under no_grad: a leaf that does not require grad
    "q3": 2 * (3 * 2.0**2),  # two backward calls, each adds d/dw w**3 = 3 w**2 = 12
    "q4": 1 == 2,  # opt.zero_grad() only clears the tensors the optimizer holds: q.grad stays
    "q5": 0 > 1,  # an inference tensor cannot be saved for backward
}

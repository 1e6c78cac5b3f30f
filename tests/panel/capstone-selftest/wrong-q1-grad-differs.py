# Replace each ... with your answer.
SELFTEST = {
    "q1": False,  # autograd.grad is a different entry point: a different error
    "q2": False,  # True or False
    "q3": 2,  # an int
    "q4": True,  # True or False
}

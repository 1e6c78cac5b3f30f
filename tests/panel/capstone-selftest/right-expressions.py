# Replace each ... with your answer.
SELFTEST = {
    "q1": not False,  # autograd.grad unpacks the saved tensors as backward does
    "q2": bool(0),  # * 100 out of place: a new tensor, hidden's counter stays at 0
    "q3": 1 + 1,  # two in-place calls, two bumps
    "q4": 1 == 1,  # match= searches: 'output 0 of Tanh' is still in the message
}

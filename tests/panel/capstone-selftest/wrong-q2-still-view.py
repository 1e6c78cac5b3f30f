# Replace each ... with your answer.
SELFTEST = {
    "q1": True,  # True or False
    "q2": True,  # hidden[:, 4:] is still a view of hidden
    "q3": 2,  # an int
    "q4": True,  # True or False
}

# Replace each ... with your answer.
SELFTEST = {
    "q1": (1, 5),  # a tuple of ints
    "q2": 8,  # an int
    "q3": 0,  # no
    "q4": 4,  # an int
    "q5": False,  # True or False
    "q6": (2, 2),  # a tuple of ints
    "q7": 12,  # an int
}

# Replace each ... with your answer.
SELFTEST = {
    "q1": (1, 5),  # a tuple of ints
    "q2": 8,  # an int
    "q3": False,  # True or False
    "q4": 4,  # an int
    "q5": False,  # True or False
    "q6": (1, 2),  # the write went to [1][2]
    "q7": 12,  # an int
}

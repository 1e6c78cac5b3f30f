# Replace each ... with your answer.
SELFTEST = {
    "q1": False,  # True or False
    "q2": 44.0,  # a float
    "q3": True,  # True or False
    "q4": False,  # True or False
    "q5": False,  # True or False
    "q6": False,  # True or False
    "q7": True,  # True or False
    "q8": False,  # True or False
}

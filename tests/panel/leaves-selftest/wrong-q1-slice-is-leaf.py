# Replace each ... with your answer.
SELFTEST = {
    "q1": True,  # True or False
    "q2": True,  # True or False
    "q3": 24.0,  # a float
    "q4": False,  # True or False
    "q5": False,  # True or False
}

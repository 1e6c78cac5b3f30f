# Replace each ... with your answer.
SELFTEST = {
    "q1": False,  # True or False
    "q2": False,  # True or False
    "q3": 24.0,  # a float
    "q4": False,  # True or False
    "q5": True,  # True or False
}

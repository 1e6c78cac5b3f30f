# Replace each ... with your answer.
SELFTEST = {
    "q1": 6,  # an int
    "q2": 1,  # an int
    "q3": True,  # True or False
    "q4": 2,  # an int
    "q5": False,  # True or False
}

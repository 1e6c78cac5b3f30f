# Replace each ... with your answer.
SELFTEST = {
    "q1": True,  # True or False
    "q2": False,  # True or False
    "q3": 1,  # one statement, one write
    "q4": True,  # True or False
}

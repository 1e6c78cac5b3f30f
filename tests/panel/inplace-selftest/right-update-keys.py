# Replace each ... with your answer.
SELFTEST = {
    "q1": ...,  # an int
    "q2": ...,  # an int
    "q3": ...,  # True or False
    "q4": ...,  # an int
    "q5": ...,  # True or False
}

SELFTEST.update({"q1": int("6"), "q2": 1, "q3": 1 == 1, "q4": 2, "q5": 1 > 2})

# Replace each ... with your answer.
SELFTEST = {
    "q1": ...,  # True or False
    "q2": ...,  # True or False
    "q3": ...,  # a float
    "q4": ...,  # True or False
    "q5": ...,  # True or False
}

SELFTEST["q1"] = False
SELFTEST["q2"] = True
SELFTEST["q3"] = float(24)
SELFTEST["q4"] = False
SELFTEST["q5"] = False

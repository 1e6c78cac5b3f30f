# Replace each ... with your answer.
SELFTEST = {
    "q1": ...,  # True or False
    "q2": ...,  # True or False
    "q3": ...,  # an int
    "q4": ...,  # True or False
}

SELFTEST.update(q1=True, q2=False, q3=int("2"), q4=True)

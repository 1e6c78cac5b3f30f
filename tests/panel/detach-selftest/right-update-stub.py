# Replace each ... with your answer.
SELFTEST = {
    "q1": ...,  # True or False
    "q2": ...,  # a float
    "q3": ...,  # True or False
    "q4": ...,  # True or False
    "q5": ...,  # True or False
    "q6": ...,  # True or False
    "q7": ...,  # True or False
    "q8": ...,  # True or False
}

SELFTEST.update(q1=False, q2=2.0e1, q3=True, q4=False, q5=False, q6=False, q7=True, q8=False)

SELFTEST = {
    "q1": ...,  # a tuple of ints
    "q2": ...,  # an int
    "q3": ...,  # True or False
    "q4": ...,  # an int
    "q5": ...,  # True or False
    "q6": ...,  # a tuple of ints
    "q7": ...,  # an int
}
SELFTEST.update(q1=(1, 5), q2=8, q3=False, q4=4, q5=False, q6=(2, 2), q7=12)

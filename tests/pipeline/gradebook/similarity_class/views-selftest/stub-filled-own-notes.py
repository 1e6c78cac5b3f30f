# Replace each ... with your answer.
SELFTEST = {
    "q1": (1, 5),  # swapped strides of (5, 1)
    "q2": 8,  # skips one row
    "q3": False,  # contiguous() on t.T copies
    "q4": 4,  # expand allocates nothing
    "q5": False,  # a gap between the rows
    "q6": (2, 2),  # slot 10 of a 4-wide tensor
    "q7": 12,  # every element written out
}

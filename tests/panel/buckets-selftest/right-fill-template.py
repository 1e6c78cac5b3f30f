# Replace each ... with your answer.
SELFTEST = {
    "q1": ...,  # an int
    "q2": ...,  # an int
    "q3": ...,  # True or False
    "q4": ...,  # an int
    "q5": ...,  # an int
}

SELFTEST["q1"] = 2   # the second iteration uses the rebuilt buckets: [L3, L2] and [L1]
SELFTEST["q2"] = 9   # (7, 3) split 4 / 3 rows; rank 1: 3 rows x 3 columns
SELFTEST["q3"] = False  # the kept tensor is p.grad itself: zeroed and overwritten at step 2
SELFTEST["q4"] = 4   # rank 1's chunk starts at flat element 8: weight elements 8..11
SELFTEST["q5"] = 1   # no division anywhere: p.grad is the plain sum

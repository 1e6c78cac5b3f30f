# Replace each ... with your answer.
SELFTEST = {
    "q1": 2,
    "q2": 3,
    "q3": 80,
    "q4": False,
    "q5": False,
    "q6": "buffer",  # thinks buffers must be floating point
}

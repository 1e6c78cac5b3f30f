# Replace each ... with your answer.
SELFTEST = {
    "q1": 2,
    "q2": 3,
    "q3": 72,  # thinks tying the weight ties the whole layer, bias included
    "q4": False,
    "q5": False,
    "q6": "parameter",
}

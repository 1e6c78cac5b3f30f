# Replace each ... with your answer.
SELFTEST = {
    "q1": 2,
    "q2": 4,  # counts the non-persistent mask too
    "q3": 80,
    "q4": False,
    "q5": False,
    "q6": "parameter",
}

# Replace each ... with your answer.
SELFTEST = {
    "q1": 2,
    "q2": 3,
    "q3": 144,  # 2 * (64 + 8): the tied weight counted under both names
    "q4": False,
    "q5": False,
    "q6": "parameter",
}

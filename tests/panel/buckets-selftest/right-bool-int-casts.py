# Replace each ... with your answer.
SELFTEST = {
    "q1": int("2"),  # an int
    "q2": int(9.0),  # an int
    "q3": bool(0),  # True or False
    "q4": int(4),  # an int
    "q5": int(True),  # an int
}

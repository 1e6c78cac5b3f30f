SELFTEST = {
    "q7": 12,
    "q6": (2, 2),
    "q5": False,
    "q4": 4,
    "q3": False,
    "q2": 8,
    "q1": (1, 5),
}

SELFTEST = {
    "q1": 2,
    "q2": 12,  # every rank holds ceil(7 / 2) = 4 rows of 3
    "q3": False,
    "q4": 4,
    "q5": 1,
}

SELFTEST = {
    "q1": 6,
    "q2": 1,
    "q3": 1,  # yes, written as an int instead of True
    "q4": 2,
    "q5": 0,  # no, written as an int instead of False
}

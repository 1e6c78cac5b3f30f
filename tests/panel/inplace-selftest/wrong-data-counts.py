SELFTEST = {
    "q1": 6,
    "q2": 1,
    "q3": True,
    "q4": 3,  # counts the write through y.data too
    "q5": False,
}

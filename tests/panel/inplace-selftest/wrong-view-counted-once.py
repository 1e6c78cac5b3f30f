SELFTEST = {
    "q1": 5,  # the two writes through v[0] and v[1] counted once, as one view
    "q2": 1,
    "q3": True,
    "q4": 2,
    "q5": False,
}

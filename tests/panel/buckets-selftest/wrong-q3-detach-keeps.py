SELFTEST = {
    "q1": 2,
    "q2": 9,
    "q3": True,  # the kept tensor is detached, so later steps do not touch it
    "q4": 4,
    "q5": 1,
}

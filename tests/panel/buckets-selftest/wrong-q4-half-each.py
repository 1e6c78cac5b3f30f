SELFTEST = {
    "q1": 2,
    "q2": 9,
    "q3": False,
    "q4": 6,  # each parameter split in half: 12 / 2
    "q5": 1,
}

SELFTEST = {
    "q1": 3,  # two 599,076-byte gradients do not fit in 1 MiB, so each goes alone
    "q2": 9,
    "q3": False,
    "q4": 4,
    "q5": 1,
}

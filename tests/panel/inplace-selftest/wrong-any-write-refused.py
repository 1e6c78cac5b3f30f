SELFTEST = {
    "q1": 6,
    "q2": 1,
    "q3": False,  # any write after the forward breaks backward, whoever saved what
    "q4": 2,
    "q5": False,
}

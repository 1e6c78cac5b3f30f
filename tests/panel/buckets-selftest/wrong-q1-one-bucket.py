SELFTEST = {
    "q1": 1,  # with find_unused_parameters=False DDP uses one bucket
    "q2": 9,
    "q3": False,
    "q4": 4,
    "q5": 1,
}

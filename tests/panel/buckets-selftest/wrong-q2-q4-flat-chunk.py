SELFTEST = {
    "q1": 2,
    "q2": 10,  # 21 weight elements laid flat, chunks of 11: rank 1 holds 10
    "q3": False,
    "q4": 0,  # like Linear(2, 3): the weight lies entirely on rank 0
    "q5": 1,
}

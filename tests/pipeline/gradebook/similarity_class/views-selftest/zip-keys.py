keys = ("q1", "q2", "q3", "q4", "q5", "q6", "q7")
values = ((1, 5), 8, False, 4, False, (2, 2), 12)
SELFTEST = dict(zip(keys, values))

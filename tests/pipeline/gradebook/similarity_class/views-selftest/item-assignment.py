SELFTEST = {}
SELFTEST["q1"] = (1, 5)
SELFTEST["q2"] = 8
SELFTEST["q3"] = False
SELFTEST["q4"] = 4
SELFTEST["q5"] = False
SELFTEST["q6"] = (2, 2)
SELFTEST["q7"] = 12

# Replace each ... with your answer.
SELFTEST = {
    "q1": 2,  # an int
    "q2": 3,  # an int
    "q3": 80,  # an int
    "q4": False,  # True or False
    "q5": False,  # True or False
    "q6": "parameter",  # "parameter" or "buffer"
}

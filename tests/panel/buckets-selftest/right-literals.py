# Replace each ... with your answer.
SELFTEST = {
    "q1": 2,  # an int
    "q2": 9,  # an int
    "q3": False,  # True or False
    "q4": 4,  # an int
    "q5": 1,  # an int
}

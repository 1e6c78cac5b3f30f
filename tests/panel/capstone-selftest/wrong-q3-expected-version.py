# Replace each ... with your answer.
SELFTEST = {
    "q1": True,  # True or False
    "q2": False,  # True or False
    "q3": 0,  # the saved tensor's version, as the message gives it
    "q4": True,  # True or False
}

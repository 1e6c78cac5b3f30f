# Replace each ... with your answer.
SELFTEST = {
    "q1": True,  # True or False
    "q2": False,  # True or False
    "q3": 2,  # an int
    "q4": False,  # the message now says version 2, so it no longer matches
}

# Replace each ... with your answer.
SELFTEST = {
    "q1": True,  # True or False
    "q2": False,  # True or False
    "q3": "version 2",  # as the message says it
    "q4": True,  # True or False
}

# Replace each ... with your answer.
SELFTEST = {
    "q1": 6,  # counts the two blocks in the Python list as well
    "q2": 3,
    "q3": 80,
    "q4": False,
    "q5": False,
    "q6": "parameter",
}

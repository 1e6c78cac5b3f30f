# Replace each ... with your answer.
SELFTEST = {
    "q1": 1,  # yes
    "q2": 0,  # no
    "q3": 2,  # an int
    "q4": 1,  # yes
}

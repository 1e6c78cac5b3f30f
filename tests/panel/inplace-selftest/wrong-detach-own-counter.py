# detach() misread as getting a counter of its own, like .data
SELFTEST = {
    "q1": 3,  # only the two view writes and out= counted
    "q2": 1,
    "q3": True,
    "q4": 1,  # the write through detach() not counted
    "q5": True,  # a.detach() misread as not seeing a's write
}

SELFTEST = {
    "q1": 6,
    "q2": 1,
    "q3": True,
    "q4": 2,
    "q5": True,  # a.detach() is out of the graph, so nothing of a is checked
}

# Replace each ... with your answer.
SELFTEST = {
    "q1": 2,
    "q2": 3,
    "q3": 80,
    "q4": True,  # thinks the graph saved num_batches_tracked like the running stats
    "q5": False,
    "q6": "parameter",
}

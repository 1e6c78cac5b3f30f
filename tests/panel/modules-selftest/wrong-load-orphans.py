# Replace each ... with your answer.
SELFTEST = {
    "q1": 2,
    "q2": 3,
    "q3": 80,
    "q4": False,
    "q5": True,  # thinks load_state_dict replaces the tensors the optimizer holds
    "q6": "parameter",
}

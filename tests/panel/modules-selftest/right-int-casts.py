# Replace each ... with your answer.
SELFTEST = {
    "q1": int(2),
    "q2": int("3"),
    "q3": int(torch.tensor(80).item()),
    "q4": False,
    "q5": False,
    "q6": "parameter",
}

# Replace each ... with your answer.
SELFTEST = dict(
    q1=bool(0),
    q2=bool(1),
    q3=float(torch.tensor(2.0) ** 2 * 3 * 2),
    q4=False,
    q5=False,
)

# Replace each ... with your answer.
SELFTEST = dict(
    q1=not True,
    q2=float(20),
    q3=bool(1),
    q4=bool(0),
    q5=1 == 2,
    q6=False,
    q7=True,
    q8=False,
)

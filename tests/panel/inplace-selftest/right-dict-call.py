SELFTEST = dict(q1=6, q2=1, q3=True, q4=2, q5=False)

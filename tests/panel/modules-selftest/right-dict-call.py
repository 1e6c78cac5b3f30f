# Replace each ... with your answer.
SELFTEST = dict(q1=2, q2=3, q3=80, q4=False, q5=False, q6="parameter")

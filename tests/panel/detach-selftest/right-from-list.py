# Replace each ... with your answer.
answers = [False, 20.0, True, False, False, False, True, False]
SELFTEST = {f"q{i}": a for i, a in enumerate(answers, start=1)}

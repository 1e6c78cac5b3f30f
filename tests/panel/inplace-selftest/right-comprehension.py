_answers = [6, 1, True, 2, False]
SELFTEST = {f"q{i}": value for i, value in enumerate(_answers, start=1)}

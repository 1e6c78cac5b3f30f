SELFTEST = {'q1': (1, 5), 'q2': 8, 'q3': False, 'q4': 4, 'q5': False, 'q6': (2, 2), 'q7': 12}

SELFTEST = {
    "q1": 6,
    "q2": 3,  # counts a += b and a.copy_(b) against b, which they only read
    "q3": True,
    "q4": 2,
    "q5": False,
}

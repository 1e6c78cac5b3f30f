# Replace each ... with your answer.
SELFTEST = {
    # view writes 2, detach shares the counter (mul_, indexed assignment, sub_) 3, out= 1
    "q1": 2 + 3 + 1,  # an int
    # only b.add_ writes b; a += b and a.copy_(b) write a
    "q2": 1,  # an int
    # exp saved y, not z; z * 3 saves nothing of y; sum saves no values
    "q3": not False,  # True or False
    # .data has its own counter; detach()[0] = 5 and add_ count
    "q4": 0 + 1 + 1,  # an int
    # mul saved a.detach() for a's gradient, and it shares a's counter
    "q5": bool(0),  # True or False
}

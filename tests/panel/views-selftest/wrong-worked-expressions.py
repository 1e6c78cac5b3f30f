# Replace each ... with your answer.
SELFTEST = {
    "q1": (5, 1)[::-1],  # zeros(3, 5) has stride (5, 1); .T swaps it
    "q2": 1 * 8,  # one row of 8 skipped
    "q3": False,  # .T is not contiguous, so contiguous() copies
    "q4": 4,  # expand adds a stride-0 dimension over the same 4 slots
    "q5": 4 != 1 * 2,  # strides (4, 1), shape (3, 2): rows are not 2 apart, so False
    "q6": divmod(1 * 8 + 2, 4),  # slot 10 of the page, in rows of 4
    "q7": 3 * 4,  # contiguous() writes all 12 elements out
}

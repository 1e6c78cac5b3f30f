# Replace each ... with your answer.
SELFTEST = {
    # t = torch.zeros(3, 5): stride (5, 1); t.T swaps them
    "q1": (1, 5),  # a tuple of ints
    # [1:] starts one row of 8 in
    "q2": 8,  # an int
    # t.T is non-contiguous, so contiguous() makes a row-major copy in new storage
    "q3": False,  # True or False
    # zeros(4) owns 4 slots; expand adds a stride-0 dim
    "q4": 4,  # an int
    # shape (3, 2), stride (4, 1): 4 != 1 * 2, the rows cannot merge
    "q5": False,  # True or False
    # b[1][2] is slot 10; t is 4 wide, so row 2, column 2
    "q6": (2, 2),  # a tuple of ints
    # e is non-contiguous (stride (1, 0)): contiguous() copies 3 * 4 elements
    "q7": 12,  # an int
}

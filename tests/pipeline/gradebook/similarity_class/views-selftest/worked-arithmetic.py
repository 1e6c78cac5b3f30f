row = 8  # t = torch.arange(32.).view(4, 8)
slot = 1 * row + 2  # b = t.view(2, 8); b[1][2]
SELFTEST = {
    "q1": (1, 5),
    "q2": 1 * row,
    "q3": False,
    "q4": 4,
    "q5": False,
    "q6": divmod(slot, 4),
    "q7": 3 * 4,
}

# Replace each ... with your answer.
SELFTEST = {
    "q1": 1 + 1,  # rebuilt: {layer 3, layer 2} passes 1 MiB and closes; {layer 1}
    "q2": 3 * 3,  # rows chunked 4 + 3: rank 1 holds 3 rows of 3
    "q3": not True,  # set_to_none=False zeroes the kept tensor in place; it is p.grad
    "q4": 12 - 8,  # 15 elements padded to 16, chunks of 8: rank 1 gets weight[8:12]
    "q5": 3 // 3,  # the hook sums without dividing: the sum itself
}

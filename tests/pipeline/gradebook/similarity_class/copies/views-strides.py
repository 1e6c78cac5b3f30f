# strides worked out with the rules of section 2, no torch needed


def row_major_steps(dims):
    result, stride = [], 1
    for n in reversed(dims):
        result.append(stride)
        stride *= n
    return tuple(reversed(result))


DEBUG = False
if DEBUG:
    print(row_major_steps((2, 3)))

plain = row_major_steps((4, 8))  # t itself
every_second = (plain[0], plain[1] * 2)  # step 2 doubles the inner stride
flipped = plain[::-1]  # transposing swaps them
block = plain  # slicing rows keeps the strides
# a broadcast dim never moves in memory
broadcast = (0,) + plain

STRIDES = {
    "contiguous": plain,
    "transpose": flipped,
    "every_other_column": every_second,
    "row_block": block,
    "expanded": broadcast,
}

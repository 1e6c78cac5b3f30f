def fresh_strides(*shape):
    out, step = [], 1
    for n in reversed(shape):
        out.insert(0, step)
        step *= n
    return tuple(out)


def merges(sizes, strides):
    return all(strides[i] == strides[i + 1] * sizes[i + 1] for i in range(len(sizes) - 1))


SELFTEST = {
    "q1": fresh_strides(3, 5)[::-1],
    "q2": fresh_strides(4, 8)[0],
    "q3": False,
    "q4": 4,
    "q5": merges((3, 2), (4, 1)),
    "q6": divmod(1 * 8 + 2, 4),
    "q7": 3 * 4,
}

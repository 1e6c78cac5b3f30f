"""Answers learners write for the closed-book companion of Chapter 1, right and wrong.

An answer defines all four functions; each wrong answer gets one of them wrong the way a learner
would, and names the misconception message its test cells must report.
"""

from autograder.views_closed_book import MESSAGES

CONTIGUOUS = '''
def contiguous_stride(shape):
    strides = []
    run = 1
    for size in reversed(shape):
        strides.append(run)
        run *= size
    return tuple(reversed(strides))
'''

TRANSPOSED = '''
def transposed(shape, stride, d0, d1):
    shape, stride = list(shape), list(stride)
    shape[d0], shape[d1] = shape[d1], shape[d0]
    stride[d0], stride[d1] = stride[d1], stride[d0]
    return tuple(shape), tuple(stride)
'''

SLICED = '''
def sliced(shape, stride, offset, dim, start, stop, step):
    shape, stride = list(shape), list(stride)
    offset += start * stride[dim]
    shape[dim] = (stop - start + step - 1) // step
    stride[dim] *= step
    return tuple(shape), tuple(stride), offset
'''

EXPANDED = '''
def expanded(shape, stride, new_shape):
    lead = len(new_shape) - len(shape)
    sizes, strides = list(new_shape[:lead]), [0] * lead
    for new, size, step in zip(new_shape[lead:], shape, stride):
        if new == -1 or new == size:
            sizes.append(size)
            strides.append(step)
        else:
            sizes.append(new)
            strides.append(0)
    return tuple(sizes), tuple(strides)
'''

REFERENCE = {"contiguous_stride": CONTIGUOUS, "transposed": TRANSPOSED, "sliced": SLICED,
             "expanded": EXPANDED}


def answer(**replaced: str) -> str:
    """The reference answer with some of its four functions replaced."""
    return "\n".join(replaced.get(name, source).strip() + "\n\n" for name, source in REFERENCE.items())


RIGHT = {
    "views-reproduce": [
        ("loops", answer()),
        ("suffix-products", answer(
            contiguous_stride="import math\n\n\n"
                              "def contiguous_stride(shape):\n"
                              "    return tuple(math.prod(shape[i + 1:]) for i in range(len(shape)))",
            sliced="import math\n\n\n"
                   "def sliced(shape, stride, offset, dim, start, stop, step):\n"
                   "    dim %= len(shape)\n"
                   "    size = math.ceil((stop - start) / step)\n"
                   "    new_shape = shape[:dim] + (size,) + shape[dim + 1:]\n"
                   "    new_stride = stride[:dim] + (stride[dim] * step,) + stride[dim + 1:]\n"
                   "    return new_shape, new_stride, offset + start * stride[dim]",
        )),
        ("comprehensions", answer(
            transposed="def transposed(shape, stride, d0, d1):\n"
                       "    n = len(shape)\n"
                       "    order = list(range(n))\n"
                       "    order[d0 % n], order[d1 % n] = order[d1 % n], order[d0 % n]\n"
                       "    return tuple(shape[i] for i in order), tuple(stride[i] for i in order)",
            sliced="def sliced(shape, stride, offset, dim, start, stop, step):\n"
                   "    dim = dim % len(shape)\n"
                   "    size = len(range(start, stop, step))\n"
                   "    return (tuple(size if i == dim else s for i, s in enumerate(shape)),\n"
                   "            tuple(st * step if i == dim else st for i, st in enumerate(stride)),\n"
                   "            offset + start * stride[dim])",
            expanded="def expanded(shape, stride, new_shape):\n"
                     "    padded_shape = (1,) * (len(new_shape) - len(shape)) + tuple(shape)\n"
                     "    padded_stride = (0,) * (len(new_shape) - len(shape)) + tuple(stride)\n"
                     "    sizes = tuple(old if new == -1 else new for new, old in zip(new_shape, padded_shape))\n"
                     "    strides = tuple(0 if old == 1 and new != 1 else st\n"
                     "                    for new, old, st in zip(sizes, padded_shape, padded_stride))\n"
                     "    return sizes, strides",
        )),
    ],
}

WRONG = {
    "views-reproduce": [
        ("column-major", answer(contiguous_stride="def contiguous_stride(shape):\n"
                                                  "    strides, run = [], 1\n"
                                                  "    for size in shape:\n"
                                                  "        strides.append(run)\n"
                                                  "        run *= size\n"
                                                  "    return tuple(strides)"),
         MESSAGES["column_major"]),
        ("transpose-swaps-shape-only", answer(transposed="def transposed(shape, stride, d0, d1):\n"
                                                         "    shape = list(shape)\n"
                                                         "    shape[d0], shape[d1] = shape[d1], shape[d0]\n"
                                                         "    return tuple(shape), tuple(stride)"),
         MESSAGES["shape_only"]),
        ("slice-ignores-step", answer(sliced=SLICED.replace("    stride[dim] *= step\n", "")),
         MESSAGES["step"]),
        ("offset-by-start", answer(sliced=SLICED.replace("start * stride[dim]", "start")),
         MESSAGES["offset_by_start"]),
        ("floor-size", answer(sliced=SLICED.replace("(stop - start + step - 1) // step", "(stop - start) // step")),
         MESSAGES["floor_size"]),
        ("expand-keeps-strides", answer(expanded=EXPANDED.replace("strides.append(0)", "strides.append(step)")),
         MESSAGES["expand_keeps"]),
        ("asks-torch", answer(expanded="import torch\n\n\n"
                                       "def expanded(shape, stride, new_shape):\n"
                                       "    t = torch.empty(10_000).as_strided(shape, stride)\n"
                                       "    e = t.expand(new_shape)\n"
                                       "    return tuple(e.shape), e.stride()"),
         "the answer asks torch for it (it calls"),
        ("lists", answer(transposed=TRANSPOSED.replace("return tuple(shape), tuple(stride)", "return shape, stride")),
         MESSAGES["tuples"]),
        ("expand-keeps-minus-one", answer(expanded=EXPANDED.replace(
            "        if new == -1 or new == size:\n            sizes.append(size)",
            "        if new == -1 or new == size:\n            sizes.append(new)")),
         MESSAGES["minus_one"]),
    ],
}

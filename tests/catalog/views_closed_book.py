"""Answers learners write for the closed-book companion of Chapter 1 — right, wrong and gaming.

An answer defines all four functions; each wrong answer gets one of them wrong the way a learner
would, and names the misconception (a model of ``answer_key.views_closed_book``) its feedback
must name, or None. ``EXPLOITS`` try to earn points without the rule; none may score more than
the untouched answer.
"""

CONTIGUOUS = '''
def contiguous_stride(shape):
    strides = []
    run = 1
    for size in reversed(shape):
        strides.append(run)
        run *= max(size, 1)
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
        ("size-one-strides-zero", answer(
            contiguous_stride="def contiguous_stride(shape):\n"
                              "    strides, run = [], 1\n"
                              "    for size in reversed(shape):\n"
                              "        strides.insert(0, run if size > 1 else 0)\n"
                              "        run *= max(size, 1)\n"
                              "    return tuple(strides)")),
        ("suffix-products", answer(
            contiguous_stride="import math\n\n\n"
                              "def contiguous_stride(shape):\n"
                              "    return tuple(math.prod(max(s, 1) for s in shape[i + 1:])\n"
                              "                 for i in range(len(shape)))",
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
         "column-major"),
        ("zero-size-product", answer(contiguous_stride=CONTIGUOUS.replace("run *= max(size, 1)", "run *= size")),
         "zero-size-product"),
        ("transpose-swaps-shape-only", answer(transposed="def transposed(shape, stride, d0, d1):\n"
                                                         "    shape = list(shape)\n"
                                                         "    shape[d0], shape[d1] = shape[d1], shape[d0]\n"
                                                         "    return tuple(shape), tuple(stride)"),
         "transpose-moves-sizes-only"),
        ("slice-ignores-step", answer(sliced=SLICED.replace("    stride[dim] *= step\n", "")), "step-ignored"),
        ("offset-by-start", answer(sliced=SLICED.replace("start * stride[dim]", "start")), "offset-by-start"),
        ("floor-size", answer(sliced=SLICED.replace("(stop - start + step - 1) // step", "(stop - start) // step")),
         "floor-size"),
        ("expand-keeps-strides", answer(expanded=EXPANDED.replace("strides.append(0)", "strides.append(step)")),
         "expand-keeps-strides"),
        ("lists", answer(transposed=TRANSPOSED.replace("return tuple(shape), tuple(stride)", "return shape, stride")),
         None),
        ("expand-keeps-minus-one", answer(expanded=EXPANDED.replace(
            "        if new == -1 or new == size:\n            sizes.append(size)",
            "        if new == -1 or new == size:\n            sizes.append(new)")),
         "minus-one-kept"),
    ],
}

EXPLOITS = {
    "views-reproduce": [
        ("asks-torch", answer(expanded="import torch\n\n\n"
                                       "def expanded(shape, stride, new_shape):\n"
                                       "    t = torch.empty(10_000).as_strided(shape, stride)\n"
                                       "    e = t.expand(new_shape)\n"
                                       "    return tuple(e.shape), e.stride()")),
        ("numpy-strides", "import numpy as np\n\n\n"
                          "def contiguous_stride(shape):\n"
                          "    return tuple(s // 8 for s in np.empty(shape).strides)\n\n\n"
                          "def transposed(shape, stride, d0, d1):\n"
                          "    a = np.lib.stride_tricks.as_strided(np.empty(10_000), shape, [8 * s for s in stride])\n"
                          "    t = np.swapaxes(a, d0, d1)\n"
                          "    return t.shape, tuple(s // 8 for s in t.strides)\n\n\n"
                          "def sliced(shape, stride, offset, dim, start, stop, step):\n"
                          "    raise NotImplementedError\n\n\n"
                          "def expanded(shape, stride, new_shape):\n"
                          "    a = np.lib.stride_tricks.as_strided(np.empty(10_000), shape, [8 * s for s in stride])\n"
                          "    e = np.broadcast_to(a, [n if n != -1 else s for n, s in zip(new_shape, shape)])\n"
                          "    return e.shape, tuple(s // 8 for s in e.strides)\n"),
        ("form-only", "def contiguous_stride(shape):\n    return tuple(1 for _ in shape)\n\n\n"
                      "def transposed(shape, stride, d0, d1):\n    return tuple(shape), tuple(stride)\n\n\n"
                      "def sliced(shape, stride, offset, dim, start, stop, step):\n"
                      "    return tuple(shape), tuple(stride), offset\n\n\n"
                      "def expanded(shape, stride, new_shape):\n    return tuple(shape), tuple(stride)\n"),
    ],
}

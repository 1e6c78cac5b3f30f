# Replace each ... with your answer.
SAVES_MORE = {
    "rsqrt": ...,  # "input", "output" or "nothing"
    "tan": ...,  # "input", "output" or "nothing"
    "expm1": ...,  # "input", "output" or "nothing"
    "log1p": ...,  # "input", "output" or "nothing"
    "abs": ...,  # "input", "output" or "nothing"
    "leaky_relu": ...,  # "input", "output" or "nothing"
    "neg": ...,  # "input", "output" or "nothing"
    "exp2": ...,  # "input", "output" or "nothing"
    "log_softmax": ...,  # "input", "output" or "nothing"
    "sinh": ...,  # "input", "output" or "nothing"
    "silu": ...,  # "input", "output" or "nothing"
    "sub_const": ...,  # "input", "output" or "nothing"
}

# YOUR CODE HERE
INPUT, OUTPUT, NOTHING = "input", "output", "nothing"
SAVES_MORE = dict(
    abs=INPUT,
    exp2=OUTPUT,
    expm1=OUTPUT,
    leaky_relu=INPUT,
    log1p=INPUT,
    log_softmax=OUTPUT,
    neg=NOTHING,
    rsqrt=OUTPUT,
    silu=INPUT,
    sinh=INPUT,
    sub_const=NOTHING,
    tan=OUTPUT,
)

# Replace each ... with your answer.
SAVES = {
    "softplus": ...,  # "input", "output" or "nothing"
    "sqrt": ...,  # "input", "output" or "nothing"
    "softmax": ...,  # "input", "output" or "nothing"
    "cosh": ...,  # "input", "output" or "nothing"
    "cumsum": ...,  # "input", "output" or "nothing"
    "erf": ...,  # "input", "output" or "nothing"
    "relu6": ...,  # "input", "output" or "nothing"
    "softmin": ...,  # "input", "output" or "nothing"
    "atan": ...,  # "input", "output" or "nothing"
    "flip": ...,  # "input", "output" or "nothing"
}

# YOUR CODE HERE
INPUT, OUTPUT, NOTHING = "input", "output", "nothing"
SAVES = dict(
    atan=INPUT,
    cosh=INPUT,
    cumsum=NOTHING,
    erf=INPUT,
    flip=NOTHING,
    relu6=INPUT,
    softmax=OUTPUT,
    softmin=OUTPUT,
    softplus=INPUT,
    sqrt=OUTPUT,
)

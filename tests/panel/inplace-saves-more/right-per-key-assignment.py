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
SAVES_MORE["rsqrt"] = "output"
SAVES_MORE["tan"] = "output"
SAVES_MORE["expm1"] = "output"
SAVES_MORE["log1p"] = "input"
SAVES_MORE["abs"] = "input"
SAVES_MORE["leaky_relu"] = "input"
SAVES_MORE["neg"] = "nothing"
SAVES_MORE["exp2"] = "output"
SAVES_MORE["log_softmax"] = "output"
SAVES_MORE["sinh"] = "input"
SAVES_MORE["silu"] = "input"
SAVES_MORE["sub_const"] = "nothing"

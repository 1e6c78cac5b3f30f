# Replace each ... with your answer.
SAVES_MORE = {
    "rsqrt": "output",  # "input", "output" or "nothing"
    "tan": "output",  # "input", "output" or "nothing"
    "expm1": "input",  # "input", "output" or "nothing"
    "log1p": "input",  # "input", "output" or "nothing"
    "abs": "input",  # "input", "output" or "nothing"
    "leaky_relu": "input",  # "input", "output" or "nothing"
    "neg": "nothing",  # "input", "output" or "nothing"
    "exp2": "input",  # "input", "output" or "nothing"
    "log_softmax": "output",  # "input", "output" or "nothing"
    "sinh": "input",  # "input", "output" or "nothing"
    "silu": "input",  # "input", "output" or "nothing"
    "sub_const": "nothing",  # "input", "output" or "nothing"
}

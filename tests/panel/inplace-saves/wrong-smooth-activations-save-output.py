# Replace each ... with your answer.
SAVES = {
    "softplus": "output",  # "input", "output" or "nothing"
    "sqrt": "output",  # "input", "output" or "nothing"
    "softmax": "output",  # "input", "output" or "nothing"
    "cosh": "input",  # "input", "output" or "nothing"
    "cumsum": "nothing",  # "input", "output" or "nothing"
    "erf": "output",  # "input", "output" or "nothing"
    "relu6": "input",  # "input", "output" or "nothing"
    "softmin": "output",  # "input", "output" or "nothing"
    "atan": "output",  # "input", "output" or "nothing"
    "flip": "nothing",  # "input", "output" or "nothing"
}

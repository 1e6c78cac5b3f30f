# Replace each ... with your answer.
SAVES = {
    "softplus": "input",  # "input", "output" or "nothing"
    "sqrt": "output",  # "input", "output" or "nothing"
    "softmax": "input",  # "input", "output" or "nothing"
    "cosh": "input",  # "input", "output" or "nothing"
    "cumsum": "nothing",  # "input", "output" or "nothing"
    "erf": "input",  # "input", "output" or "nothing"
    "relu6": "input",  # "input", "output" or "nothing"
    "softmin": "input",  # "input", "output" or "nothing"
    "atan": "input",  # "input", "output" or "nothing"
    "flip": "nothing",  # "input", "output" or "nothing"
}

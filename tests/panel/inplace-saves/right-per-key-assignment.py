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
SAVES["softplus"] = "input"
SAVES["sqrt"] = "output"
SAVES["softmax"] = "output"
SAVES["cosh"] = "input"
SAVES["cumsum"] = "nothing"
SAVES["erf"] = "input"
SAVES["relu6"] = "input"
SAVES["softmin"] = "output"
SAVES["atan"] = "input"
SAVES["flip"] = "nothing"

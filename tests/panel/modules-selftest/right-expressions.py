# Replace each ... with your answer.
SELFTEST = {
    "q1": 3 * 1 + 1 - 2,  # out.weight and out.bias; the list of blocks is a plain attribute
    "q2": 2 + 1,  # linear.weight, linear.bias, steps; mask is non-persistent
    "q3": 8 * 8 + 8 + 8,  # the tied weight once, two biases
    "q4": not True,  # the graph saves running_mean/var, not num_batches_tracked
    "q5": 1 == 0,  # load_state_dict copies into the tensors the optimizer holds
    "q6": "param" + "eter",  # int64 cannot require grad
}

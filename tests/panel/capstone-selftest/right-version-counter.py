# Replace each ... with your answer.
_w, _x = capstone_inputs()
_hidden = (_x @ _w).tanh()
_hidden[:, 4:].mul_(10).mul_(10)  # the q3 scaling: each in-place call bumps the shared counter

SELFTEST = {
    "q1": True,  # the same version check runs in torch.autograd.grad
    "q2": False,  # an out-of-place product never writes hidden's memory
    "q3": _hidden._version,  # the version the message reports
    "q4": True,  # the message still contains "output 0 of Tanh" (version 2 instead of 1)
}

# Replace each ... with your answer.
SELFTEST = dict(
    q1=True,  # same fingerprint: grad() unpacks TanhBackward0's saved output too
    q2=False,  # no in-place write reaches tanh's output
    q3=int(torch.tensor(2).item()),
    q4=True,  # pytest's match uses re.search: a piece of the message passes
)

import numpy as np


def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    # NumPy knows how to answer "do these share memory?"
    return bool(np.shares_memory(a.detach().numpy(), b.detach().numpy()))

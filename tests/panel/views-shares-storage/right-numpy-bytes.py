import numpy as np


def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    # Lay a fresh uint8 header over each *whole* storage and ask NumPy whether the
    # two byte arrays overlap. The fresh headers leave a and b untouched.
    def all_bytes(x: torch.Tensor) -> np.ndarray:
        header = torch.empty(0, dtype=torch.uint8)
        header.set_(x.untyped_storage())
        return header.numpy()

    return bool(np.shares_memory(all_bytes(a), all_bytes(b)))

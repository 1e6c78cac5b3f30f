import copy


def independent_copy(t: torch.Tensor) -> torch.Tensor:
    # deepcopy: a completely separate object, nothing shared
    return copy.deepcopy(t)

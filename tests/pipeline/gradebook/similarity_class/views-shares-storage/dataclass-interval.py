from dataclasses import dataclass


@dataclass(frozen=True)
class Interval:
    begin: int
    end: int

    def empty(self) -> bool:
        return self.end <= self.begin

    def meets(self, other: "Interval") -> bool:
        return not (self.empty() or other.empty()) and self.begin < other.end and other.begin < self.end


def memory_of(t: torch.Tensor) -> Interval:
    storage = t.untyped_storage()
    return Interval(storage.data_ptr(), storage.data_ptr() + storage.nbytes())


def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    return memory_of(a).meets(memory_of(b))

"""Strided layouts as plain data: shape, stride and storage offset, and the view maths on them.

A strided tensor is a window onto a flat storage: element ``(i0, i1, ...)`` reads storage slot
``offset + i0*stride[0] + i1*stride[1] + ...``. Every view operation (transpose, slicing,
``expand``, ``view`` ...) only computes a new ``(shape, stride, offset)`` and never touches the
data. This module redoes those computations in pure Python, exactly as ATen does them, so a
learner can ask *why* a view is legal without asking torch.

Defined in Chapter 1, "Views, strides and storage" (notebooks/views/views.ipynb).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch

__all__ = [
    "Layout",
    "ViewError",
    "ViewVerdict",
    "broadcast_dims",
    "contiguous_strides",
    "explain_view",
    "infer_view_shape",
    "is_contiguous",
    "overlaps",
    "slot_color",
    "slot_ink",
    "storage_indices",
]


class ViewError(RuntimeError):
    """Raised by :meth:`Layout.view` when torch's ``view`` would refuse the new shape."""


def _wrap_dim(dim: int, ndim: int, *, what: str = "dim") -> int:
    """Turn a possibly negative ``dim`` into an index in ``range(ndim)``, as torch does."""
    if not -ndim <= dim < ndim:
        raise ValueError(f"{what} {dim} is out of range for a tensor with {ndim} dims")
    return dim % ndim


def contiguous_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    """The strides of a freshly allocated (row-major, C-contiguous) tensor of ``shape``.

    Size-0 dims count as size 1 here, as in torch, so the strides stay positive.

    Args:
        shape: Sizes of the dims.

    Returns:
        One stride per dim; the last dim has stride 1.
    """
    strides = [1] * len(shape)
    for d in range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * max(shape[d + 1], 1)
    return tuple(strides)


@dataclass(frozen=True)
class Layout:
    """Shape, stride and storage offset of a strided tensor: everything a view changes.

    Every operation returns a new ``Layout`` computed exactly as torch computes it; invalid
    arguments raise ``ValueError`` (and an impossible :meth:`view` raises :class:`ViewError`).

    Attributes:
        shape: Size of each dim.
        stride: Storage slots to step over to move one index along each dim.
        offset: Storage slot read by the element at index ``(0, 0, ...)``.
    """

    shape: tuple[int, ...]
    stride: tuple[int, ...]
    offset: int = 0

    def __post_init__(self) -> None:
        # Normalise lists and numpy ints so that equality with torch results is plain tuple equality.
        object.__setattr__(self, "shape", tuple(int(n) for n in self.shape))
        object.__setattr__(self, "stride", tuple(int(s) for s in self.stride))
        object.__setattr__(self, "offset", int(self.offset))
        if len(self.shape) != len(self.stride):
            raise ValueError(f"shape {self.shape} and stride {self.stride} have different lengths")
        if any(n < 0 for n in self.shape):
            raise ValueError(f"sizes must be non-negative, got shape {self.shape}")
        if any(s < 0 for s in self.stride) or self.offset < 0:
            raise ValueError("strides and the storage offset must be non-negative")

    @classmethod
    def of(cls, tensor: torch.Tensor) -> Layout:
        """The layout of an existing tensor.

        Args:
            tensor: Any strided torch tensor.

        Returns:
            Its shape, ``stride()`` and ``storage_offset()``.
        """
        return cls(tuple(tensor.shape), tuple(tensor.stride()), tensor.storage_offset())

    @classmethod
    def contiguous(cls, shape: tuple[int, ...]) -> Layout:
        """The layout of a new contiguous tensor, such as ``torch.arange(n).view(shape)``.

        Args:
            shape: Sizes of the dims.

        Returns:
            A layout with :func:`contiguous_strides` and offset 0.
        """
        shape = tuple(shape)
        return cls(shape, contiguous_strides(shape), 0)

    @property
    def ndim(self) -> int:
        """Number of dims."""
        return len(self.shape)

    @property
    def numel(self) -> int:
        """Number of logical elements (the product of the sizes)."""
        return math.prod(self.shape)

    def transpose(self, dim0: int, dim1: int) -> Layout:
        """Swap two dims, like ``tensor.transpose(dim0, dim1)``: sizes and strides trade places."""
        a, b = _wrap_dim(dim0, self.ndim), _wrap_dim(dim1, self.ndim)
        shape, stride = list(self.shape), list(self.stride)
        shape[a], shape[b] = shape[b], shape[a]
        stride[a], stride[b] = stride[b], stride[a]
        return Layout(tuple(shape), tuple(stride), self.offset)

    def permute(self, *dims: int) -> Layout:
        """Reorder the dims, like ``tensor.permute(*dims)``.

        Args:
            *dims: A permutation of ``range(ndim)``; negative dims count from the end.
        """
        order = [_wrap_dim(d, self.ndim) for d in dims]
        if sorted(order) != list(range(self.ndim)):
            raise ValueError(f"permute{tuple(dims)} is not a permutation of the {self.ndim} dims")
        return Layout(tuple(self.shape[d] for d in order), tuple(self.stride[d] for d in order), self.offset)

    def slice(self, dim: int, start: int | None = None, stop: int | None = None, step: int = 1) -> Layout:
        """Keep every ``step``-th index in ``[start, stop)`` of one dim, like ``t[..., start:stop:step]``.

        Bounds follow Python: ``None`` means the end, negatives count from the end and
        out-of-range bounds are clamped. The offset moves to the first kept index even when
        the slice is empty, as in torch.

        Args:
            dim: The dim to slice.
            start: First index kept.
            stop: Index to stop before.
            step: Positive step; torch has no negative steps.
        """
        if step <= 0:
            raise ValueError(f"slice step must be positive (torch has no negative strides), got {step}")
        d = _wrap_dim(dim, self.ndim)
        first, end, _ = slice(start, stop, step).indices(self.shape[d])
        length = len(range(first, end, step))
        shape, stride = list(self.shape), list(self.stride)
        shape[d] = length
        stride[d] *= step
        return Layout(tuple(shape), tuple(stride), self.offset + first * self.stride[d])

    def select(self, dim: int, index: int) -> Layout:
        """Fix one index of a dim and drop that dim, like ``t[..., index]`` or ``t.select(dim, index)``."""
        d = _wrap_dim(dim, self.ndim)
        size = self.shape[d]
        if not -size <= index < size:
            raise ValueError(f"index {index} is out of range for dim {d} of size {size}")
        index %= size
        return Layout(
            self.shape[:d] + self.shape[d + 1 :],
            self.stride[:d] + self.stride[d + 1 :],
            self.offset + index * self.stride[d],
        )

    def unsqueeze(self, dim: int) -> Layout:
        """Insert a size-1 dim at ``dim``, like ``tensor.unsqueeze(dim)``.

        The new dim gets the stride that would step over the dim it is inserted before
        (``size*stride``), or 1 at the end; with size 1 the stride is never used anyway.
        """
        d = _wrap_dim(dim, self.ndim + 1)
        new_stride = 1 if d >= self.ndim else self.shape[d] * self.stride[d]
        return Layout(
            self.shape[:d] + (1,) + self.shape[d:],
            self.stride[:d] + (new_stride,) + self.stride[d:],
            self.offset,
        )

    def expand(self, *sizes: int) -> Layout:
        """Broadcast to ``sizes``, like ``tensor.expand(*sizes)``, without copying.

        Dims are matched from the right; ``-1`` keeps a size; a size-1 dim stretched to ``n``
        and every new leading dim get stride 0, so all their indices read the same slots.

        Args:
            *sizes: Target sizes, at least as many as the layout has dims.
        """
        if len(sizes) < self.ndim:
            raise ValueError(f"expand{tuple(sizes)} has fewer sizes than the tensor has dims ({self.ndim})")
        shape = [0] * len(sizes)
        stride = [0] * len(sizes)
        # Walk from the right, as ATen's inferExpandGeometry does: a new leading dim that
        # stays size 1 inherits the stride that steps over the dim to its right.
        for i in range(len(sizes) - 1, -1, -1):
            d = self.ndim - len(sizes) + i
            target = sizes[i]
            if d >= 0:
                size, st = self.shape[d], self.stride[d]
            else:
                size = 1
                st = shape[i + 1] * stride[i + 1] if i + 1 < len(sizes) else 0
            if target == -1:
                if d < 0:
                    raise ValueError(f"expand size -1 is not allowed for the new leading dim {i}")
                target = size
            if target < 0:
                raise ValueError(f"expand sizes must be non-negative or -1, got {target}")
            if size != target:
                if size != 1:
                    raise ValueError(
                        f"expand: dim {i} has size {size}, which is not 1, so it cannot become {target}"
                    )
                size, st = target, 0
            shape[i], stride[i] = size, st
        return Layout(tuple(shape), tuple(stride), self.offset)

    def view(self, *shape: int) -> Layout:
        """Reinterpret the same storage with a new shape, like ``tensor.view(*shape)``.

        Args:
            *shape: The new shape (or a single tuple); one entry may be ``-1``.

        Returns:
            The new layout; the offset is unchanged.

        Raises:
            ViewError: If torch would refuse; the message explains why.
        """
        new_shape = tuple(shape[0]) if len(shape) == 1 and isinstance(shape[0], tuple | list) else shape
        verdict = explain_view(self, new_shape)
        if not verdict.legal:
            raise ViewError(verdict.reason)
        return Layout(infer_view_shape(new_shape, self.numel), verdict.stride, self.offset)


def is_contiguous(layout: Layout) -> bool:
    """Whether torch's ``is_contiguous()`` would be True for this layout.

    Torch's rule: walking from the last dim, each dim's stride must equal the product of the
    sizes after it; size-1 dims are skipped (their stride is never used) and a tensor with no
    elements is always contiguous. The storage offset does not matter.
    """
    if layout.numel == 0:
        return True
    expected = 1
    for size, stride in zip(reversed(layout.shape), reversed(layout.stride), strict=True):
        if size == 1:
            continue
        if stride != expected:
            return False
        expected *= size
    return True


def storage_indices(layout: Layout) -> np.ndarray:
    """The storage slot that each logical element reads.

    Args:
        layout: The layout to evaluate.

    Returns:
        An int64 array of ``layout.shape`` whose entry at ``idx`` is
        ``offset + sum(idx[k] * stride[k])``.
    """
    slots = np.full(layout.shape, layout.offset, dtype=np.int64)
    for d, (size, stride) in enumerate(zip(layout.shape, layout.stride, strict=True)):
        along = np.arange(size, dtype=np.int64) * stride
        # Reshape so the steps of dim d broadcast along that dim only.
        slots = slots + along.reshape((1,) * d + (size,) + (1,) * (layout.ndim - d - 1))
    return slots


def overlaps(layout: Layout) -> bool:
    """Whether some storage slot is read by more than one element.

    Writing through such a tensor is ambiguous, which is why in-place ops refuse it. A
    stride-0 dim of size > 1 always overlaps.
    """
    slots = storage_indices(layout).ravel()
    return len(np.unique(slots)) < slots.size


def broadcast_dims(layout: Layout) -> tuple[int, ...]:
    """The dims with stride 0 and size > 1: every index along them reads the same slots.

    These are what ``expand`` (and broadcasting) create; a size-1 dim with stride 0 is
    harmless and not listed.
    """
    return tuple(
        d
        for d, (size, stride) in enumerate(zip(layout.shape, layout.stride, strict=True))
        if stride == 0 and size > 1
    )


def infer_view_shape(shape: tuple[int, ...], numel: int) -> tuple[int, ...]:
    """Fill in a ``-1`` in a requested view shape and check the element count, as torch does.

    Args:
        shape: Requested shape; at most one entry may be ``-1``.
        numel: Number of elements of the tensor being viewed.

    Returns:
        The shape with ``-1`` replaced.

    Raises:
        ValueError: If the shape is malformed or holds a different number of elements.
    """
    shape = tuple(int(n) for n in shape)
    if shape.count(-1) > 1:
        raise ValueError(f"only one dim can be inferred with -1, got shape {shape}")
    if any(n < -1 for n in shape):
        raise ValueError(f"invalid size {min(shape)} in shape {shape}")
    known = math.prod(n for n in shape if n != -1)
    if -1 in shape:
        if known == 0:
            raise ValueError(f"cannot infer the -1 in {shape}: with another size 0 it could be any value")
        if numel % known == 0:
            return tuple(numel // known if n == -1 else n for n in shape)
    elif known == numel:
        return shape
    asked = f"a multiple of {known}" if -1 in shape else str(known)
    raise ValueError(
        f"shape {shape} is invalid: the number of elements differs "
        f"(the tensor has {numel} elements, the shape asks for {asked})"
    )


@dataclass(frozen=True)
class ViewVerdict:
    """Whether ``tensor.view(new_shape)`` is legal, the strides it would get, and why.

    Attributes:
        legal: True iff torch's ``view`` succeeds.
        stride: The strides of the view when legal, else None.
        reason: A sentence for the learner explaining the verdict.
    """

    legal: bool
    stride: tuple[int, ...] | None
    reason: str


def _dims(dims: list[int], word: str = "dim") -> str:
    """``dim 2`` or ``dims 0-2``, for reasons shown to learners."""
    lo, hi = min(dims), max(dims)
    return f"{word} {lo}" if lo == hi else f"{word}s {lo}-{hi}"


def explain_view(layout: Layout, new_shape: tuple[int, ...]) -> ViewVerdict:
    """Decide, as torch's ``view`` does, whether ``layout`` can be viewed as ``new_shape``.

    This is ATen's ``computeStride`` (aten/src/ATen/TensorUtils.cpp). Walking the old dims
    from the last, neighbouring dims are grouped while they are *contiguous with each other*
    (``stride[d] == stride[d+1] * size[d+1]``, size-1 dims always join): such a group walks
    its storage like one long dim, so it can be merged or split freely. The view is legal iff
    the new shape can be cut into consecutive chunks each having exactly the element count
    of one group; each chunk's strides are then contiguous strides scaled by the group's
    innermost stride.

    Args:
        layout: The layout being viewed.
        new_shape: The requested shape; one entry may be ``-1``.

    Returns:
        A :class:`ViewVerdict`; it never raises for a malformed shape but reports it.
    """
    try:
        shape = infer_view_shape(tuple(new_shape), layout.numel)
    except ValueError as err:
        return ViewVerdict(False, None, str(err))
    if layout.ndim == 0:
        return ViewVerdict(
            True, (1,) * len(shape), "A 0-d tensor holds one element; any shape of one element views it."
        )
    if layout.numel == 0:
        # With no elements, strides are never used: torch keeps the old ones for the same shape
        # and otherwise uses contiguous strides.
        stride = layout.stride if shape == layout.shape else contiguous_strides(shape)
        return ViewVerdict(
            True, stride, "The tensor has no elements, so any shape with 0 elements is a view."
        )

    new_stride = [0] * len(shape)
    view_d = len(shape) - 1
    base = layout.stride[-1]  # stride of the innermost dim of the current group
    tensor_numel = view_numel = 1
    group_end = layout.ndim - 1
    pieces: list[str] = []
    for d in range(layout.ndim - 1, -1, -1):
        tensor_numel *= layout.shape[d]
        joins_next = d > 0 and (layout.shape[d - 1] == 1 or layout.stride[d - 1] == tensor_numel * base)
        if joins_next:
            continue
        first_view_d = view_d
        while view_d >= 0 and (view_numel < tensor_numel or shape[view_d] == 1):
            new_stride[view_d] = view_numel * base
            view_numel *= shape[view_d]
            view_d -= 1
        if view_numel != tensor_numel:
            # The new dim just taken needs more elements than this group holds, so it would
            # have to merge the group with old dim d-1, which is elsewhere in memory.
            outer = next(k for k in range(d, group_end + 1) if layout.shape[k] != 1)
            needed = layout.stride[outer] * layout.shape[outer]
            return ViewVerdict(
                False,
                None,
                f"dims {d - 1} and {outer} (strides {layout.stride[d - 1]} and {layout.stride[outer]}) "
                f"are not adjacent in memory: merging them would need stride {layout.stride[d - 1]} == "
                f"{layout.stride[outer]}*{layout.shape[outer]} = {needed}. "
                f"New dim {view_d + 1} (size {shape[view_d + 1]}) would have to span both, so view() fails; "
                f"use .reshape() (which copies) or .contiguous() first.",
            )
        old_part = _dims(list(range(d, group_end + 1)), "old dim")
        if group_end > d:
            old_part += " (contiguous with each other)"
        new_part = (
            _dims(list(range(view_d + 1, first_view_d + 1)), "new dim")
            if first_view_d > view_d
            else "no new dims"
        )
        pieces.append(f"{old_part} → {new_part}")
        base = layout.stride[d - 1] if d > 0 else base
        tensor_numel = view_numel = 1
        group_end = d - 1
    groups = "; ".join(reversed(pieces))
    return ViewVerdict(
        True,
        tuple(new_stride),
        "Legal: each new dim fits inside one block of old dims that are contiguous with each other, "
        f"and such a block can be merged or split freely: {groups}.",
    )


# ---- the slot palette ------------------------------------------------------------------------
# One colour per storage slot, none repeated within SLOT_COLOR_COUNT slots (the most a picture or
# the page explorer draws). Colours are points of the OKLab colour space: lightness cycles through
# four levels, so slots up to three apart always differ in lightness, which every colour-vision
# deficiency preserves; the hue turns by the golden angle, so it never comes back to the same value.
SLOT_COLOR_COUNT = 128
_LIGHTNESS_LEVELS = (0.46, 0.88, 0.60, 0.74)
_CHROMA = 0.13
_GOLDEN_ANGLE = 180.0 * (3.0 - math.sqrt(5.0))


def _oklab_to_linear_srgb(lightness: float, a: float, b: float) -> tuple[float, float, float]:
    # Björn Ottosson's OKLab matrices.
    l_ = (lightness + 0.3963377774 * a + 0.2158037573 * b) ** 3
    m_ = (lightness - 0.1055613458 * a - 0.0638541728 * b) ** 3
    s_ = (lightness - 0.0894841775 * a - 1.2914855480 * b) ** 3
    return (
        4.0767416621 * l_ - 3.3077115913 * m_ + 0.2309699292 * s_,
        -1.2684380046 * l_ + 2.6097574011 * m_ - 0.3413193965 * s_,
        -0.0041960863 * l_ - 0.7034186147 * m_ + 1.7076147010 * s_,
    )


def _encode_srgb(value: float) -> float:
    value = min(max(value, 0.0), 1.0)
    return 12.92 * value if value <= 0.0031308 else 1.055 * value ** (1 / 2.4) - 0.055


def _slot_hex(slot: int) -> str:
    lightness = _LIGHTNESS_LEVELS[slot % len(_LIGHTNESS_LEVELS)]
    hue = math.radians((30.0 + slot * _GOLDEN_ANGLE) % 360.0)
    chroma = _CHROMA
    # Lower the chroma until the colour fits in sRGB, keeping its lightness and hue.
    while True:
        rgb = _oklab_to_linear_srgb(lightness, chroma * math.cos(hue), chroma * math.sin(hue))
        if all(-1e-9 <= v <= 1 + 1e-9 for v in rgb) or chroma <= 0:
            break
        chroma -= 0.005
    return "#" + "".join(f"{round(_encode_srgb(v) * 255):02x}" for v in rgb)


SLOT_COLORS: tuple[str, ...] = tuple(_slot_hex(k) for k in range(SLOT_COLOR_COUNT))


def slot_color(slot: int) -> tuple[float, float, float]:
    """The colour of storage slot ``slot`` as RGB in 0-1 (unique among the first 128 slots)."""
    code = SLOT_COLORS[slot % SLOT_COLOR_COUNT]
    return tuple(int(code[k : k + 2], 16) / 255 for k in (1, 3, 5))


def relative_luminance(rgb: tuple[float, float, float]) -> float:
    """WCAG 2.1's relative luminance of an sRGB colour given in 0-1."""
    linear = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in rgb]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast_ratio(first: tuple[float, float, float], second: tuple[float, float, float]) -> float:
    """WCAG 2.1's contrast ratio of two sRGB colours (1 to 21)."""
    lighter, darker = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def slot_ink(face: tuple[float, float, float]) -> str:
    """``"black"`` or ``"white"``: the text colour of higher WCAG contrast on ``face``.

    One of the two always reaches 4.5:1, the WCAG AA ratio for text.
    """
    on_black = contrast_ratio(face, (0.0, 0.0, 0.0))
    return "black" if on_black >= contrast_ratio(face, (1.0, 1.0, 1.0)) else "white"

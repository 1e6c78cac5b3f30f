"""Strided layouts as torch reports them: shape, stride, storage offset, and the slot each element reads.

A strided tensor is a window onto a flat storage, and every view operation (transpose, slicing,
``expand``, ``view`` ...) gives a new window onto the same storage. This module holds no rule of
its own about those windows: every fact it gives is read off a real tensor that torch built.

* A :class:`Layout` is a tensor's header as torch reports it: ``tuple(t.shape)``, ``t.stride()``
  and ``t.storage_offset()``.
* The slot each element reads is found by laying the header over a storage that holds
  ``0, 1, 2, ...`` (``torch.arange`` viewed with ``as_strided``): the value an element reads *is*
  its slot number. Contiguity is that tensor's ``is_contiguous()``.
* Whether ``view`` to a shape is legal is decided by calling torch's ``view``
  (:func:`view_verdict`); the reason given for a refusal is torch's own message.

Ops are applied to real tensors by :mod:`autograd_figures.chain`.

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
    "overlaps",
    "slot_color",
    "slot_ink",
    "slots_read",
    "view_verdict",
]


class ViewError(RuntimeError):
    """Raised for an op of a view chain that torch's ``view`` refuses, or that torch does by copying."""


@dataclass(frozen=True)
class Layout:
    """Shape, stride and storage offset of a strided tensor, as torch reports them.

    A ``Layout`` is plain data: it computes nothing about other layouts. The facts it gives beyond
    its three fields (:meth:`slots`, :meth:`is_contiguous`, :meth:`storage_size`) are read off a
    real tensor with this header that torch builds on demand.

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
        """The layout torch gives a new tensor of ``shape``, such as ``torch.arange(n).view(shape)``.

        Args:
            shape: Sizes of the dims.

        Returns:
            The layout of ``torch.empty(shape)`` (built on the meta device: nothing is allocated).
        """
        return cls.of(torch.empty(tuple(shape), device="meta"))

    @property
    def ndim(self) -> int:
        """Number of dims."""
        return len(self.shape)

    @property
    def numel(self) -> int:
        """Number of logical elements (the product of the sizes)."""
        return math.prod(self.shape)

    def storage_size(self) -> int:
        """Slots a storage needs for this layout: its offset and the storage torch allocates for it.

        Torch sizes the storage of ``torch.empty_strided(shape, stride)`` to hold every slot that
        layout reads; that is asked on the meta device, so nothing is allocated.
        """
        probe = torch.empty_strided(self.shape, self.stride, device="meta")
        return self.offset + probe.untyped_storage().nbytes() // probe.element_size()

    def over_slots(self) -> torch.Tensor:
        """A real tensor with this layout on a storage holding ``0, 1, 2, ...``: each value is its slot.

        Returns:
            ``torch.arange(storage_size()).as_strided(shape, stride, offset)`` (int64).
        """
        storage = torch.arange(self.storage_size(), dtype=torch.int64)
        return storage.as_strided(self.shape, self.stride, self.offset)

    def slots(self) -> np.ndarray:
        """The storage slot each logical element reads, as read from :meth:`over_slots`.

        Returns:
            An int64 array of ``shape``.
        """
        return self.over_slots().numpy()

    def is_contiguous(self) -> bool:
        """Torch's ``is_contiguous()`` for a tensor with this shape and stride (built on the meta device)."""
        return bool(torch.empty_strided(self.shape, self.stride, device="meta").is_contiguous())


def slots_read(tensor: torch.Tensor) -> torch.Tensor:
    """The storage slot each element of ``tensor`` reads, read by torch.

    Args:
        tensor: Any strided tensor.

    Returns:
        An int64 tensor of ``tensor``'s shape: ``tensor``'s header laid over a storage that holds
        ``0, 1, 2, ...`` (:meth:`Layout.over_slots`).
    """
    return Layout.of(tensor).over_slots()


def overlaps(layout: Layout) -> bool:
    """Whether some storage slot is read by more than one element (in the slots torch reads).

    Writing through such a tensor is ambiguous, which is why in-place ops refuse it.
    """
    slots = layout.slots().ravel()
    return len(np.unique(slots)) < slots.size


def broadcast_dims(layout: Layout) -> tuple[int, ...]:
    """The dims of size > 1 whose stride torch reports as 0: every index along them reads the same slots.

    These are what ``expand`` (and broadcasting) create; a size-1 dim with stride 0 is not listed.
    """
    return tuple(d for d, (size, stride) in enumerate(zip(layout.shape, layout.stride, strict=True))
                 if stride == 0 and size > 1)


@dataclass(frozen=True)
class ViewVerdict:
    """What torch's ``view`` did with a requested shape.

    Attributes:
        legal: True iff torch's ``view`` succeeded.
        stride: The strides of the view when legal, else None.
        reason: For a refusal, torch's own message; for a view, what torch returned.
        shape: The shape of the view when legal (with any ``-1`` filled in), else None.
    """

    legal: bool
    stride: tuple[int, ...] | None
    reason: str
    shape: tuple[int, ...] | None = None


def view_verdict(source: torch.Tensor | Layout, shape: tuple[int, ...]) -> ViewVerdict:
    """Call torch's ``view`` on a real tensor and report what it did.

    Args:
        source: The tensor to view, or a layout (laid over a storage as :meth:`Layout.over_slots`).
        shape: The requested shape; one entry may be ``-1``.

    Returns:
        A :class:`ViewVerdict`; torch's refusal is reported, never raised.
    """
    tensor = source.over_slots() if isinstance(source, Layout) else source
    shape = tuple(int(n) for n in shape)
    try:
        viewed = tensor.view(shape)
    except (RuntimeError, ValueError, TypeError) as err:
        return ViewVerdict(False, None, str(err))
    stride = tuple(viewed.stride())
    return ViewVerdict(
        True,
        stride,
        f"torch's view returned shape {tuple(viewed.shape)}, stride {stride}, "
        f"offset {viewed.storage_offset()}, on the same storage (nothing copied).",
        tuple(viewed.shape),
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

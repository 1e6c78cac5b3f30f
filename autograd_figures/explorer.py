"""An ipywidgets playground: build a chain of view ops and watch the layout change.

Every layout it shows is torch's: the chain's ops are applied with real torch calls to
``torch.arange(n.).view(shape)`` (:func:`~autograd_figures.chain.view_step`), and whether ``view``
to a typed shape is legal is decided by calling torch's ``view`` on the current tensor, whose
own message is shown when it refuses.

Defined in Chapter 1, "Views, strides and storage" (notebooks/views/views.ipynb).
"""

from __future__ import annotations

import base64
import html
import io
import math
from typing import Any

import ipywidgets as widgets
import torch

from autograd_figures.chain import EXAMPLES, Op, parse_op, parse_shape, start_tensor, view_chain, view_step
from autograd_figures.figures import draw_layout
from autograd_figures.layout import Layout, ViewError, ViewVerdict, view_verdict

__all__ = ["StrideExplorer", "explore"]

# The start tensor is allocated: a start shape of more elements than this is refused.
MAX_START_ELEMENTS = 4096


class StrideExplorer:
    """A widget to apply view ops one by one to ``torch.arange(n).view(shape)`` and see the layout.

    It shows the start shape, the chain of ops so far, a picture of the current layout
    (:func:`~autograd_figures.figures.draw_layout`) and, for a typed target shape, whether torch's
    ``view`` to it succeeds (:func:`~autograd_figures.layout.view_verdict`). Mistakes in typed text
    and ops torch refuses are shown as a message (torch's own, where torch refused), never raised.
    Display it by making it the last expression of a cell.

    It works from the keyboard alone: Tab moves through the fields and buttons in reading
    order, Enter in the op field applies the op (as the Apply button does), and the Reset
    button drops every op. After each action a live region (``role="status"``) says the
    chain and its shape, stride and offset, and the picture carries the same as its alt text.

    Attributes:
        tensor: The current tensor: the start tensor with the chain applied by torch.
        layout: The current tensor's layout, as torch reports it.
        chain: Texts of the applied ops, oldest first.
        verdict: The verdict for the "view as" shape, or None when there is none.
        message: The last error shown to the learner, or "" after a successful action.
        widget: The top-level ``VBox``.
    """

    def __init__(self, shape: str = "3, 6") -> None:
        self._shape: tuple[int, ...] = ()
        self._ops: list[Op] = []
        self.tensor = start_tensor(())
        self.layout = Layout.of(self.tensor)
        self.verdict: ViewVerdict | None = None
        self.message = ""
        self._view_shape: tuple[int, ...] | None = None

        self.shape_text = widgets.Text(value=shape, description="start shape", continuous_update=False)
        self.op_text = widgets.Text(placeholder=EXAMPLES, description="op", continuous_update=False)
        self.apply_button = widgets.Button(description="Apply", button_style="primary")
        # ipywidgets' primary blue gives white text 3.1:1; this blue gives 5.8:1 (WCAG AA: 4.5:1).
        self.apply_button.style.button_color = "#1565c0"
        self.undo_button = widgets.Button(description="Undo")
        self.reset_button = widgets.Button(description="Reset")
        self.chain_html = widgets.HTML()
        self.view_text = widgets.Text(
            placeholder="e.g. 2, 16", description="view as", continuous_update=False
        )
        self.verdict_html = widgets.HTML()
        self.message_html = widgets.HTML()
        self.status_html = widgets.HTML()
        self.output = widgets.Output()

        self.shape_text.observe(lambda change: self.set_shape(change["new"]), names="value")
        self.view_text.observe(lambda change: self.set_view(change["new"]), names="value")
        # The box sends its value on Enter (continuous_update=False): Enter applies the op.
        self.op_text.observe(lambda change: change["new"].strip() and self.apply(change["new"]), names="value")
        self.apply_button.on_click(lambda _: self.op_text.value.strip() and self.apply(self.op_text.value))
        self.undo_button.on_click(lambda _: self.undo())
        self.reset_button.on_click(lambda _: self.reset())

        self.widget = widgets.VBox(
            [
                self.shape_text,
                widgets.HBox([self.op_text, self.apply_button, self.undo_button, self.reset_button]),
                self.chain_html,
                self.message_html,
                widgets.HBox([self.view_text, self.verdict_html]),
                self.output,
                self.status_html,
            ]
        )
        self.set_shape(shape)

    @property
    def chain(self) -> list[str]:
        """Texts of the applied ops, oldest first."""
        return [op.text for op in self._ops]

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any] | None:
        return self.widget._repr_mimebundle_(**kwargs)

    def set_shape(self, text: str) -> None:
        """Start again from a contiguous tensor of the shape in ``text`` (e.g. ``"4, 8"``); clears the chain.
        """
        if self.shape_text.value != text:
            # Route code calls through the text box, whose observer calls back with this text.
            self.shape_text.value = text
            return
        try:
            shape = parse_shape(text)
            if not shape or any(n < 0 for n in shape):
                raise ValueError(
                    f"the start shape needs at least one dim and no negative sizes, got {text!r}"
                )
            if math.prod(shape) > MAX_START_ELEMENTS:
                raise ValueError(
                    f"the start shape {shape} has {math.prod(shape)} elements; the explorer starts from "
                    f"at most {MAX_START_ELEMENTS}"
                )
        except ValueError as err:
            self._fail(str(err))
            return
        self._shape, self._ops = shape, []
        self._succeed()

    def apply(self, text: str) -> None:
        """Parse one op (e.g. ``"[:, ::2]"``) and apply it to the current tensor with torch.
        """
        try:
            op = parse_op(text)
            tensor = view_step(self.tensor, op)
        except (ValueError, ViewError) as err:
            self._fail(str(err))
            return
        self._ops.append(op)
        self._show(tensor)
        self.op_text.value = ""
        self._succeed(recompute=False)

    def undo(self) -> None:
        """Drop the last op of the chain."""
        if not self._ops:
            self._fail("nothing to undo: the chain is empty")
            return
        self._ops.pop()
        self._succeed()

    def reset(self) -> None:
        """Drop the whole chain, keeping the start shape."""
        self._ops = []
        self._succeed()

    def set_view(self, text: str) -> None:
        """Ask whether the current layout can be viewed as the shape in ``text`` (``""`` clears it).
        """
        if self.view_text.value != text:
            # Route code calls through the text box, whose observer calls back with this text.
            self.view_text.value = text
            return
        if not text.strip():
            self._view_shape = None
        else:
            try:
                self._view_shape = parse_shape(text)
            except ValueError as err:
                self._view_shape = None
                self._fail(str(err))
                self._show_verdict()
                return
        self.message = ""
        self._show_message()
        self._show_verdict()

    def _fail(self, message: str) -> None:
        self.message = message
        self._show_message()

    def _show(self, tensor: torch.Tensor) -> None:
        self.tensor = tensor
        self.layout = Layout.of(tensor)

    def _succeed(self, *, recompute: bool = True) -> None:
        if recompute:
            # Replaying the chain from the start shape cannot fail: every op already applied once.
            self._show(view_chain(self._shape, self._ops))
        self.message = ""
        self._show_message()
        self._show_chain()
        self._show_verdict()
        self._redraw()
        self.status_html.value = f"<div role='status' aria-live='polite'>{html.escape(self.description)}</div>"

    @property
    def description(self) -> str:
        """The current chain and layout in words: the live region's text and the picture's alt text."""
        layout = self.layout
        code = "t" + "".join(op.code for op in self._ops)
        contiguous = "contiguous" if self.tensor.is_contiguous() else "not contiguous"
        return (
            f"{code} on the storage of torch.arange({math.prod(self._shape)}.): shape {layout.shape}, "
            f"stride {layout.stride}, offset {layout.offset}, {contiguous}"
        )

    def _show_message(self) -> None:
        self.message_html.value = (
            f"<span style='color:#b00020'>⚠ {html.escape(self.message)}</span>" if self.message else ""
        )

    def _show_chain(self) -> None:
        start = f"t = torch.arange({math.prod(self._shape)}.).view{self._shape}"
        code = "t" + "".join(op.code for op in self._ops)
        self.chain_html.value = (
            f"<code>{html.escape(start)}</code><br>chain: <code>{html.escape(code)}</code>"
            f" &nbsp; ({len(self._ops)} op{'s' if len(self._ops) != 1 else ''})"
        )

    def _show_verdict(self) -> None:
        if self._view_shape is None:
            self.verdict = None
            self.verdict_html.value = ""
            return
        self.verdict = view_verdict(self.tensor, self._view_shape)
        if self.verdict.legal:
            head = "<b style='color:#1b7e2a'>legal</b>: "
        else:
            head = "<b style='color:#b00020'>illegal</b>: "
        self.verdict_html.value = head + html.escape(self.verdict.reason)

    def _redraw(self) -> None:
        try:
            fig = draw_layout(self.tensor, title="t" + "".join(op.code for op in self._ops))
        except ValueError as err:
            self.output.outputs = (
                {"output_type": "stream", "name": "stdout", "text": f"(no picture: {err})\n"},
            )
            return
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=80)
        # Write the picture straight into the Output widget: this works with or without a kernel
        # and whatever matplotlib backend is active. As HTML, so that it carries its alt text.
        png = base64.b64encode(buffer.getvalue()).decode("ascii")
        alt = f"Storage slots and tensor grid of {self.description}"
        self.output.outputs = (
            {
                "output_type": "display_data",
                "data": {
                    "text/html": f'<img src="data:image/png;base64,{png}" alt="{html.escape(alt)}">',
                    "text/plain": f"<layout {self.layout}>",
                },
                "metadata": {},
            },
        )


def explore(shape: str = "3, 6") -> StrideExplorer:
    """Build a :class:`StrideExplorer` starting from ``torch.arange(n).view(shape)``.

    Args:
        shape: The start shape as typed, e.g. ``"4, 8"``.

    Returns:
        The explorer; make it the last expression of a cell to display it.
    """
    return StrideExplorer(shape)

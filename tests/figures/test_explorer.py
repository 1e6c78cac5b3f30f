"""autograd_figures.explorer: drive the widget as a learner would and check what it holds and shows."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import html  # noqa: E402
import re  # noqa: E402

import pytest  # noqa: E402
import torch  # noqa: E402

from autograd_figures import Layout, StrideExplorer, explore  # noqa: E402


def torch_refusal(tensor: torch.Tensor, shape: tuple[int, ...]) -> str:
    """Torch's own message for ``tensor.view(shape)``, which must fail."""
    with pytest.raises(RuntimeError) as refused:
        tensor.view(shape)
    return str(refused.value)


@pytest.fixture
def explorer() -> StrideExplorer:
    return explore("4, 8")


def _png(explorer: StrideExplorer) -> str:
    (output,) = explorer.output.outputs
    return re.search(r'src="data:image/png;base64,([^"]+)"', output["data"]["text/html"]).group(1)


def _alt(explorer: StrideExplorer) -> str:
    (output,) = explorer.output.outputs
    return html.unescape(re.search(r'alt="([^"]*)"', output["data"]["text/html"]).group(1))


def test_starts_contiguous_with_a_picture(explorer):
    assert explorer.layout == Layout((4, 8), (8, 1), 0)
    assert explorer.chain == []
    assert explorer.verdict is None
    assert explorer.message == ""
    assert len(_png(explorer)) > 1000
    assert "view(4, 8)" in explorer.chain_html.value


def test_apply_transpose_then_slice_and_undo(explorer):
    first = _png(explorer)
    explorer.apply("T")
    assert explorer.layout == Layout((8, 4), (1, 8), 0)
    assert _png(explorer) != first
    explorer.apply("[:, ::2]")
    assert explorer.layout == Layout((8, 2), (1, 16), 0)
    assert explorer.chain == ["T", "[:, ::2]"]
    assert "t.T[:, ::2]" in explorer.chain_html.value
    explorer.undo()
    assert explorer.chain == ["T"]
    assert explorer.layout == Layout((8, 4), (1, 8), 0)


def test_buttons_apply_undo_and_reset(explorer):
    explorer.op_text.value = "[1:3]"
    explorer.apply_button.click()
    assert explorer.layout == Layout((2, 8), (8, 1), 8)
    assert explorer.op_text.value == ""  # cleared for the next op
    explorer.op_text.value = "unsqueeze(0)"
    explorer.apply_button.click()
    assert explorer.layout.shape == (1, 2, 8)
    explorer.undo_button.click()
    assert explorer.chain == ["[1:3]"]
    explorer.reset_button.click()
    assert explorer.chain == []
    assert explorer.layout == Layout.contiguous((4, 8))


def test_view_verdicts_follow_the_current_layout(explorer):
    explorer.set_view("2, 16")
    assert explorer.verdict.legal
    assert explorer.verdict.stride == (16, 1)
    assert "legal" in explorer.verdict_html.value and "stride (16, 1)" in explorer.verdict_html.value
    explorer.apply("T")  # the verdict is recomputed for the new layout
    assert not explorer.verdict.legal
    refusal = torch_refusal(torch.arange(32.0).view(4, 8).T, (2, 16))
    assert explorer.verdict.reason == refusal  # torch's own words
    assert "illegal" in explorer.verdict_html.value
    assert html.escape(refusal) in explorer.verdict_html.value
    explorer.view_text.value = "2, 4, 4"  # typing in the box works too
    assert explorer.verdict.legal
    assert explorer.verdict.stride == (4, 1, 8)
    explorer.set_view("")
    assert explorer.verdict is None


def test_bad_input_shows_a_message_and_keeps_state(explorer):
    explorer.apply("T")
    explorer.apply("transpose(0, 5)")
    assert "out of range" in explorer.message
    assert explorer.message in explorer.message_html.value
    assert explorer.chain == ["T"]
    explorer.apply("import os")
    assert "parse" in explorer.message or "unknown" in explorer.message
    explorer.apply("view(32)")  # illegal on the transpose: torch's message, not an exception
    assert explorer.message == torch_refusal(torch.arange(32.0).view(4, 8).T, (32,))
    explorer.set_view("2, x")
    assert "integer" in explorer.message
    assert explorer.verdict is None
    explorer.apply("[0]")  # success clears the message
    assert explorer.message == ""
    explorer.reset()
    explorer.undo()
    assert "nothing to undo" in explorer.message


def test_set_shape_restarts_and_rejects_nonsense(explorer):
    explorer.apply("T")
    explorer.set_shape("2, 3, 4")
    assert explorer.layout == Layout((2, 3, 4), (12, 4, 1), 0)
    assert explorer.chain == []
    assert explorer.shape_text.value == "2, 3, 4"
    explorer.shape_text.value = "-3"
    assert "negative" in explorer.message
    assert explorer.layout.shape == (2, 3, 4)


def test_too_large_layout_says_so_in_the_output():
    explorer = StrideExplorer("10, 10")
    (output,) = explorer.output.outputs
    assert "max_slots" in output["text"]
    assert explorer.message == ""


def test_displays_as_its_vbox(explorer):
    bundle = explorer._repr_mimebundle_()
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == explorer.widget.model_id


def test_enter_in_the_op_field_applies_and_the_result_is_announced(explorer):
    # The text box sends its value when the reader presses Enter (continuous_update=False).
    explorer.op_text.value = "T"
    assert explorer.layout == Layout((8, 4), (1, 8), 0)
    assert explorer.op_text.value == ""
    assert "role='status'" in explorer.status_html.value
    assert "t.T" in explorer.status_html.value and "stride (1, 8)" in explorer.status_html.value
    assert "not contiguous" in explorer.status_html.value


def test_the_picture_says_what_it_shows(explorer):
    explorer.apply("[:, ::2]")
    alt = _alt(explorer)
    assert "t[:, ::2]" in alt and "shape (4, 4)" in alt and "stride (8, 2)" in alt


@pytest.mark.parametrize(
    ("op", "layout"),
    [
        ("narrow(1, 2, 3)", Layout((4, 3), (8, 1), 2)),
        ("split(3, 1)[2]", Layout((4, 2), (8, 1), 6)),
        ("diagonal(1)", Layout((4,), (9,), 1)),
        ("unfold(1, 4, 4)", Layout((4, 2, 4), (8, 4, 1), 0)),
        ("as_strided((2, 2), (1, 2), 3)", Layout((2, 2), (1, 2), 3)),
    ],
)
def test_the_other_view_ops_apply(explorer, op, layout):
    explorer.apply(op)
    assert explorer.message == ""
    assert explorer.layout == layout


def test_as_strided_outside_the_storage_is_refused_in_torchs_words(explorer):
    explorer.apply("as_strided((4, 8), (8, 1), 1)")
    with pytest.raises(RuntimeError) as refused:
        torch.arange(32.0).view(4, 8).as_strided((4, 8), (8, 1), 1)
    assert explorer.message == str(refused.value)
    assert "out of bounds for storage" in explorer.message
    assert explorer.chain == []


def test_an_op_that_copies_is_refused(explorer):
    explorer.apply("T")
    explorer.apply("flatten()")
    assert "copies here" in explorer.message
    assert explorer.chain == ["T"]
    assert explorer.layout == Layout((8, 4), (1, 8), 0)


def test_the_current_tensor_is_the_chain_torch_applied(explorer):
    explorer.apply("[1:, ::3]")
    explorer.apply("T")
    expected = torch.arange(32.0).view(4, 8)[1:, ::3].T
    assert torch.equal(explorer.tensor, expected)
    assert explorer.tensor.untyped_storage().size() == 32 * 4  # still the start tensor's storage
    assert explorer.layout == Layout.of(expected)


def test_a_huge_start_shape_is_refused_before_anything_is_allocated(explorer):
    explorer.set_shape("1000, 1000, 1000")
    assert "at most" in explorer.message
    assert explorer.layout == Layout((4, 8), (8, 1), 0)

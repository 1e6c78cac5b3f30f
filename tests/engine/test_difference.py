"""Two results are shown around their first difference: whatever their length, the part of each
that differs is in view, on both sides, so the two renderings never read alike."""

from __future__ import annotations

import string

import torch
from hypothesis import given
from hypothesis import strategies as st

from autograder.engine.difference import around, first_difference

TEXT = st.text(alphabet=string.ascii_letters + " []:,.", min_size=0, max_size=400)
PLAIN = st.recursive(st.one_of(st.integers(-5, 5), st.booleans(), TEXT),
                     lambda inner: st.one_of(st.lists(inner, max_size=6), st.tuples(inner, inner),
                                             st.dictionaries(st.sampled_from("abcdef"), inner, max_size=5)),
                     max_leaves=20)


@given(PLAIN, PLAIN)
def test_two_results_that_differ_never_read_alike(found, expected) -> None:
    if found == expected and type(found) is type(expected):
        return
    yours, reference = around(found, expected)
    assert yours != reference, (found, expected)


@given(TEXT, st.integers(0, 399), st.sampled_from("XYZ"))
def test_a_long_text_is_shown_where_it_first_differs(text: str, at: int, letter: str) -> None:
    at = min(at, len(text))
    changed = text[:at] + letter + text[at + 1:]
    if changed == text:
        return
    assert first_difference(changed, text) == [at]
    yours, reference = around(changed, text)
    assert letter in yours and yours != reference


def test_the_messages_of_two_errors_are_shown_where_they_differ() -> None:
    stem = "one of the variables needed for gradient computation has been modified by an inplace operation: "
    yours, reference = around(stem + "[torch.FloatTensor [4]], which is output 0 of MulBackward0",
                              stem + "[torch.FloatTensor [4]], which is output 0 of AddBackward0")
    assert "MulBackward0" in yours and "AddBackward0" in reference


def test_a_tensor_is_shown_at_its_first_differing_element() -> None:
    a = torch.arange(24.).view(2, 3, 4)
    b = a.clone()
    b[1, 2, 1] = -7
    assert first_difference(a, b) == [(1, 2, 1)]
    yours, reference = around(a, b)
    assert "at [1, 2, 1]" in yours and "-7" in reference and "-7" not in yours


def test_a_dict_is_shown_at_its_first_differing_key_and_inside_it() -> None:
    found = {"requires_grad": False, "values": torch.zeros(9), "a write to it": "changed t"}
    expected = {"requires_grad": False, "values": torch.zeros(9), "a write to it": "left t alone"}
    assert around(found, expected) == ("{…, 'a write to it': 'changed t'}", "{…, 'a write to it': 'left t alone'}")


def test_an_empty_shape_reads_as_one() -> None:
    assert around(["torch.int64", [1]], ["torch.int64", []]) == ("['torch.int64', [1]]", "['torch.int64', []]")


def test_a_message_where_none_was_expected_is_shown_whole() -> None:
    message = ("one of the variables needed for gradient computation has been modified by an inplace operation: "
               "[torch.FloatTensor [2]], which is output 0 of TanhBackward0, is at version 1; expected version 0")
    yours, reference = around({"value": 1, "backward": message}, {"value": 1, "backward": None})
    assert "which is output 0 of TanhBackward0, is at version 1" in yours and "None" in reference

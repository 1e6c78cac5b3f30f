"""Chapter 1's cases: their expectations agree with torch and with the curriculum's contract."""

import torch

from autograder.checks import exercises
from autograder.views import CLASSIFY_PROBES, base, classify_by_probe, same_storage, view_succeeds
from tests.cases import ChapterCases

CONTRACT_CLASSIFY = {
    "transpose": "view", "basic_slice": "view", "advanced_index": "copy", "boolean_mask": "copy",
    "view": "view", "reshape": "ambiguous", "contiguous": "ambiguous", "expand": "view",
    "clone": "copy", "detach": "view",
}


def test_probing_torch_reproduces_the_contract_classification():
    assert {key: classify_by_probe(key) for key in CLASSIFY_PROBES} == CONTRACT_CLASSIFY


def test_same_storage_sees_offsets_and_detach_but_not_copies():
    t = base()
    assert same_storage(t, t[1:]) and same_storage(t, t.detach()) and same_storage(t[0], t[3])
    assert not same_storage(t, t.clone()) and not same_storage(t, t[[0, 1]])


def test_view_succeeds_matches_the_chapter_examples():
    t = base()
    assert view_succeeds(t[:, :4], (4, 2, 2)) and view_succeeds(t.T, (2, 4, 4))
    assert not view_succeeds(t.T, (32,)) and not view_succeeds(t, (3, 11))


def test_case_inputs_are_fresh_on_every_call():
    case = exercises("views")["views-shares-storage"].cases[0]
    first, second = case.inputs(), case.inputs()
    assert not same_storage(first[0], second[0])
    first[0].zero_()
    assert not torch.equal(first[0], second[0])


class TestViewsCases(ChapterCases):
    CHAPTER = "views"
    NAMES = {"torch": torch}

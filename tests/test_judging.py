"""Judging observations against a key: what a test cell says, and when it names a misconception.

The exercises here are declared by the test itself (a module of its own name), with keys built by
hand, so each rule of the messages is checked on its own: unanswered is one line, a wrong result
shows the smallest input on which it differs, a misconception is named only when its model
reproduces every result, and keys survive the trip to a learner's installation as data."""

from __future__ import annotations

import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from autograder.engine import codec
from autograder.engine.cases import exercise
from autograder.engine.observe import CellObservation, Seen
from autograder.judging import (
    CaseKey,
    Digest,
    PointKey,
    judge_cell,
    keys_from_json,
    keys_to_json,
)

_declared = {}


def _exercise(name: str, **defaults):
    if name not in _declared:
        _declared[name] = exercise(f"judging-{name}", "answer", module="tests.test_judging", **defaults)
    return _declared[name]


def _point(shown: str, measure: int, expected, **models) -> PointKey:
    return PointKey(shown, measure, Seen(value=expected), {k: Seen(value=v) for k, v in models.items()})


@pytest.fixture(scope="module")
def double():
    declared = _exercise("double", returns="int")
    declared.case("small", "answer(n)", lambda _draw: (1,))
    declared.case("large", "answer(n)", lambda: (5,), hidden=True)
    return declared


def _key(points: list[PointKey], says: dict | None = None) -> CaseKey:
    return CaseKey(points, says or {})


DOUBLE_KEY = {"small": _key([_point("n=9", 9, 18, plus_two=11), _point("n=1", 1, 2, plus_two=3),
                             _point("n=4", 4, 8, plus_two=6)],
                            {"plus_two": "doubling were adding two."})}


def _judge(declared, found: list, key=DOUBLE_KEY, hidden=False):
    seen = CellObservation({"small": [Seen(value=v) if not isinstance(v, Seen) else v for v in found]})
    return judge_cell(declared, hidden, seen, key)


def test_an_unanswered_answer_is_told_so_in_one_line(double) -> None:
    decided = _judge(double, [Seen(unanswered=True)] * 3)
    assert decided.unanswered and decided.earned == 0
    assert decided.message() == "`answer` is not answered yet."


def test_a_wrong_answer_is_shown_its_smallest_failing_input(double) -> None:
    decided = _judge(double, [18, 5, 9])  # right on n=9, wrong on n=1 and n=4
    line = decided.failures[0].line
    assert line == "answer(n) on n=1: yours 5; reference 2."


def test_a_misconception_is_named_only_when_its_model_reproduces_every_result(double) -> None:
    named = _judge(double, [11, 3, 6]).message()
    assert named.endswith("Your answer behaves as if doubling were adding two.")
    # Right where the model is wrong (n=9): the model does not reproduce the answer.
    partly = _judge(double, [18, 3, 6])
    assert partly.failures[0].misconception is None
    assert partly.message().endswith("These results match none of the common mistakes.")
    assert "doubling" not in partly.message()


def test_a_result_of_the_wrong_kind_is_said_plainly(double) -> None:
    decided = _judge(double, [18.0, 2, 8])
    assert decided.failures[0].line == "answer(n) on n=9: yours is 18.0; it must be a Python int."
    assert "common mistakes" not in decided.message()  # a kind says nothing of a mistake
    assert "common mistakes" in _judge(double, [18.0, 5, 8]).message()  # a wrong int does


def test_a_raised_error_is_shown_in_one_line(double) -> None:
    failing = Seen(raised=("ZeroDivisionError", "division by zero\nmore detail"))
    line = _judge(double, [failing, 2, 8]).failures[0].line
    assert line == "answer(n) on n=9: yours raised ZeroDivisionError: division by zero; reference 18."


def test_the_header_names_the_exercise_and_its_answer_and_counts_points(double) -> None:
    header = _judge(double, [1, 1, 1]).message().splitlines()[0]
    assert header == "judging-double (answer): 1 of 1 checks failed, 0 of 1 points."


def test_a_value_answer_is_judged_by_digest_and_never_shown_its_expected_value() -> None:
    declared = _exercise("table", returns="str")
    declared.entry("a", "TABLE['a']")
    key = {"a": _key([PointKey("a", 0, Seen(value=Digest(codec.digest("view"))),
                               {"all-copy": Seen(value=Digest(codec.digest("copy")))})],
                     {"all-copy": "everything copied."})}
    right = judge_cell(declared, True, CellObservation({"a": [Seen(value="view")]}), key)
    wrong = judge_cell(declared, True, CellObservation({"a": [Seen(value="copy")]}), key)
    assert right.message() is None
    assert "'view'" not in wrong.message() and "TABLE['a']: 'copy' is not right." in wrong.message()
    assert wrong.message().endswith("Your answer behaves as if everything copied.")


def test_dict_results_show_the_first_entry_that_differs() -> None:
    declared = _exercise("report", returns="observation")
    declared.case("one", "answer(x)", lambda _draw: (0,))
    key = {"one": _key([PointKey("x=0", 0, Seen(value={"value": 1.0, "left alone": True}))])}
    wrong = judge_cell(declared, False, CellObservation({"one": [Seen(value={"value": 1.0, "left alone": False})]}),
                       key)
    assert wrong.failures[0].line == \
        "answer(x) on x=0: yours {…, 'left alone': False}; reference {…, 'left alone': True}."


def test_a_companions_form_check_says_what_kind_was_expected() -> None:
    declared = _exercise("form")
    declared.case("form", "answer(shape)", lambda: ((2, 3),), form="int-tuple", points=0)
    key = {"form": _key([PointKey("shape=(2, 3)", 2, Seen())])}
    good = judge_cell(declared, False, CellObservation({"form": [Seen(value=(3, 1))]}), key)
    bad = judge_cell(declared, False, CellObservation({"form": [Seen(value=[3, 1])]}), key)
    assert good.message() is None
    assert bad.failures[0].line == ("answer(shape) on shape=(2, 3) gave [3, 1]; it must give a tuple of Python ints, "
                                    "as t.stride() returns.")


@given(st.lists(st.one_of(st.integers(-5, 5), st.booleans(), st.text(max_size=4),
                          st.tuples(st.integers(), st.integers())), max_size=4))
def test_keys_survive_the_trip_to_a_learners_installation(values) -> None:
    points = [PointKey(f"p{i}", i, Seen(value=v), {"m": Seen(raised=("E", "text"))}) for i, v in enumerate(values)]
    points.append(PointKey("t", 9, Seen(value=torch.arange(3.0)), {"d": Seen(value=Digest("ab"))}))
    back = keys_from_json(keys_to_json({"g": {"c": CaseKey(points, {"m": "it said so."})}}))["g"]["c"]
    assert back.says == {"m": "it said so."}
    for mine, theirs in zip(points, back.points, strict=True):
        assert (theirs.shown, theirs.measure) == (mine.shown, mine.measure)
        if isinstance(mine.expected.value, torch.Tensor):
            assert torch.equal(theirs.expected.value, mine.expected.value)
        else:
            assert theirs.expected.value == mine.expected.value
            assert type(theirs.expected.value) is type(mine.expected.value)
        assert theirs.models == mine.models or isinstance(mine.expected.value, torch.Tensor)


def test_the_search_finds_a_counterexample_no_larger_than_a_known_small_one() -> None:
    """A slice whose size rounds down fails on any slice whose length is not a multiple of its step;
    the smallest the search shows must be no larger than a hand-made small one."""
    from answer_key.keys import case_key, key_of
    from autograder.engine.cases import lookup
    from autograder.engine.observe import observe_point
    from autograder.engine.values import measure
    from autograder.judging import judge_case

    exercise_ = lookup("views-reproduce")
    case = next(c for c in exercise_.cases if c.name == "sliced-negative")

    def floor(shape, stride, offset, dim, start, stop, step):
        sizes, steps = list(shape), list(stride)
        sizes[dim] = (stop - start) // step
        steps[dim] *= step
        return tuple(sizes), tuple(steps), offset + start * stride[dim]

    small = ((10, 2), (2, 1), 0, 0, 1, 4, 2)  # a 2-D layout, a slice of length 3 with step 2
    assert floor(*small) != key_of(exercise_).reference["sliced"](*small)
    for seed in range(5):
        key = case_key(case, key_of(exercise_), [seed])
        answer = {"sliced": floor}
        seen = [observe_point(case, answer, inputs) for inputs in case.draws(seed)]
        verdict = judge_case(case, seen, key)
        assert verdict.line is not None
        shown = min((p.measure for p, s in zip(key.points, seen, strict=True) if s.value != p.expected.value))
        assert shown <= measure(small), (seed, verdict.line)


@pytest.mark.parametrize(("grade_id", "key", "value", "told"), [
    ("views-classify", "ravel", "View", "it must be 'view', 'copy' or 'ambiguous'."),
    ("inplace-saves", "softplus", "result", "it must be 'input', 'output' or 'nothing'."),
    ("modules-batchnorm", "mean_dtype_after_to", "float16", "it must be a dtype as str(dtype) writes it"),
    ("modules-selftest", "q6", "Parameter", "it must be 'parameter' or 'buffer'."),
])
def test_a_value_the_task_does_not_allow_is_told_what_it_must_be(grade_id, key, value, told) -> None:
    """A value answer outside the task's words is told the words (never which one), in the visible
    cell that checks its form and in the hidden one, and is named no mistake."""
    from autograder.engine.cases import lookup
    from autograder.kernel import verdict

    exercise = lookup(grade_id)
    answer = {case.name: value for case in exercise.selected(True)}
    for hidden in (False, True):
        decided = verdict(grade_id, answer, hidden, 7)
        line = next(v.line for v in decided.failures if v.case.name.removesuffix(" (form)") == key)
        assert told in line and "behaves as if" not in decided.message(), line

"""Chapter 6's cases: trusted expectations agree with torch and the contract; catalogued answers
are told apart, in-process (the distributed cases on real ranks)."""

import pytest
import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

from autograder.buckets import (
    SELFTEST_CAP_MB,
    SELFTEST_FEATURES,
    SELFTEST_LAYERS,
    SELFTEST_SHARDED,
    agree_model,
    expected_agreement,
    expected_training,
    logging_model,
    perturb,
    rank_local_edit_facts,
    transfer_facts,
)
from autograder.checks import exercises
from tests.cases import ChapterCases
from tests.catalog.buckets import LOGGING_BUGGY, RIGHT


def namespace() -> dict:
    """What the chapter's setup cell defines before an answer cell runs."""
    return {"torch": torch, "nn": nn, "F": F, "dist": dist, "DDP": DDP}




def test_the_agree_model_makes_sum_preserving_changes_exact():
    base, swapped, reweighted = agree_model(), agree_model(), agree_model()
    perturb(swapped, "sum-preserving-swap", rank=1)
    perturb(reweighted, "checksum-preserving", rank=1)
    def total(m):
        return torch.stack([p.sum() for p in m.parameters()]).sum()
    def norms(m):
        return [p.norm() for p in m.parameters()]
    def checksums(m):  # the chapter's detector of section 2.5: per parameter, sum and index-weighted sum
        rows = []
        for p in m.parameters():
            values = p.detach().reshape(-1).double()
            rows.append((values.sum(), (values * torch.arange(1, values.numel() + 1)).sum()))
        return torch.tensor(rows)
    assert torch.equal(total(base), total(swapped)) and torch.equal(total(base), total(reweighted))
    assert all(torch.equal(a, b) for a, b in zip(norms(base), norms(swapped), strict=True))
    assert torch.equal(checksums(base), checksums(reweighted))
    assert not torch.equal(base[0].weight, swapped[0].weight)
    assert not torch.equal(base[0].weight, reweighted[0].weight)


@pytest.mark.parametrize("case", exercises("buckets")["buckets-ranks-agree"].cases, ids=lambda case: case.name)
def test_expected_agreement_is_true_only_without_perturbation(case):
    scenario, world = case.build(seed=0)
    assert expected_agreement(scenario, world) == [scenario == "identical"] * world


def test_the_simulated_ddp_training_matches_real_ddp_ranks():
    from autograder.buckets import observe_training

    names = namespace()
    exec(compile(RIGHT["buckets-safe-logging"][0][1], "<reference>", "exec"), names)
    found = observe_training(names["train_step_fixed"], 0, 3)
    expected = expected_training(0, 3)
    assert found["ranks_identical"]
    assert torch.allclose(found["params"], expected["params"], atol=1e-6)
    assert found["logged"] == pytest.approx(expected["logged"], rel=1e-6)
    untrained = torch.cat([p.detach().reshape(-1) for p in logging_model(0).parameters()])
    assert not torch.equal(expected["params"], untrained)


def test_the_buggy_step_diverges_on_real_ranks():
    from autograder.buckets import observe_training

    names = namespace()
    exec(compile(LOGGING_BUGGY, "<buggy>", "exec"), names)
    assert observe_training(names["train_step_fixed"], 0, 2)["ranks_identical"] is False


def test_a_rank_local_gradient_edit_passes_silently_and_ddp_averages():
    assert rank_local_edit_facts() == {"raised": False, "agree": False, "divisor": 2}


def test_the_self_test_facts_follow_the_rules_the_chapter_teaches():
    facts = transfer_facts()
    # Rebuilt buckets: the equal-sized gradients in arrival order, closed at the first sum that
    # reaches bucket_cap_mb; the question tells that rule from "one bucket" and from "a capacity".
    gradients = [torch.empty(SELFTEST_FEATURES, SELFTEST_FEATURES)] * SELFTEST_LAYERS
    buckets, _ = dist._compute_bucket_assignment_by_size(
        gradients, [SELFTEST_CAP_MB * 1024 * 1024], [False] * SELFTEST_LAYERS)
    assert len(buckets) not in (1, SELFTEST_LAYERS)
    assert [f["buckets after the rebuild"] for f in facts] == [len(buckets)] * len(facts)
    # FSDP2's shards: dim 0 cut as torch.chunk cuts it, unevenly here.
    out_features, in_features = SELFTEST_SHARDED[1], SELFTEST_SHARDED[0]
    pieces = torch.empty(out_features, in_features).chunk(len(facts))
    assert [f["local elements"] for f in facts] == [piece.numel() for piece in pieces]
    assert len({piece.numel() for piece in pieces}) > 1
    assert all(f["agree after a clone edit"] for f in facts)


class TestBucketsCases(ChapterCases):
    CHAPTER = "buckets"
    NAMES = namespace()

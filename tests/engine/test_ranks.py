"""The rank harness: results per rank, and every failure path bounded, reported and cleaned up."""

from __future__ import annotations

import os
import time
import types

import psutil
import pytest
import torch
import torch.distributed as dist

from autograder.engine.ranks import RankError, RanksTimeout, run_on_ranks


def _children() -> list[psutil.Process]:
    return [p for p in psutil.Process().children(recursive=True) if p.status() != psutil.STATUS_ZOMBIE]


@pytest.fixture(autouse=True)
def no_process_left():
    before = {p.pid for p in _children()}
    yield
    left = [p for p in _children() if p.pid not in before]
    assert not left, f"processes left behind: {left}"


def rank_and_sum(offset: float) -> tuple[int, int, float]:
    t = torch.tensor([dist.get_rank() + offset])
    dist.all_reduce(t)
    return dist.get_rank(), dist.get_world_size(), t.item()


def test_each_rank_returns_its_own_result_in_rank_order():
    assert run_on_ranks(rank_and_sum, 10.0) == [(0, 2, 21.0), (1, 2, 21.0)]


def test_world_size_is_configurable():
    assert [r[:2] for r in run_on_ranks(rank_and_sum, 0.0, world_size=3)] == [(0, 3), (1, 3), (2, 3)]


def _threads() -> int:
    return len(os.listdir("/proc/self/task"))


def test_every_rank_is_forked_while_no_other_thread_runs_in_the_caller(monkeypatch):
    """A rank forked while another thread of the caller holds a lock of the C library waits for it
    forever: the store's server thread held the resolver's lock while naming a rank that had just
    connected, and the rank forked next hung before the rendezvous. So the store starts only after
    the last fork."""
    threads_at_fork = []
    real_fork = os.fork

    def counting_fork() -> int:
        threads_at_fork.append(_threads())
        return real_fork()

    run_on_ranks(rank_and_sum, 0.0)  # the imports a first launch makes are behind us
    before = _threads()
    monkeypatch.setattr(os, "fork", counting_fork)
    assert [r[:2] for r in run_on_ranks(rank_and_sum, 0.0, world_size=3)] == [(0, 3), (1, 3), (2, 3)]
    assert threads_at_fork == [before] * 3


def test_tensors_come_back_by_value():
    def make():
        return torch.full((3,), float(dist.get_rank()))

    zero, one = run_on_ranks(make)
    assert torch.equal(zero, torch.zeros(3)) and torch.equal(one, torch.ones(3))


def test_what_ranks_print_is_shown_in_the_callers_output_rank_by_rank(capsys):
    def talk():
        print("step", dist.get_rank())
        os.write(2, b"from C\n")  # what C++ code writes to fd 2 is captured too

    run_on_ranks(talk)
    assert capsys.readouterr().out == "[rank 0] step 0\n[rank 0] from C\n[rank 1] step 1\n[rank 1] from C\n"


def failing_on_rank_one() -> None:
    if dist.get_rank() == 1:
        raise ValueError("only rank 1 fails")  # the failing line
    dist.barrier()


def test_an_exception_on_one_rank_is_raised_with_that_ranks_traceback():
    start = time.monotonic()
    with pytest.raises(RankError) as caught:
        run_on_ranks(failing_on_rank_one)
    text = str(caught.value)
    assert text.startswith("rank 1 raised ValueError: only rank 1 fails")
    assert 'raise ValueError("only rank 1 fails")  # the failing line' in text
    assert "failing_on_rank_one" in text and "autograder/engine/ranks.py" not in text
    # The other rank, blocked in barrier(), is stopped at once rather than after its timeout.
    assert time.monotonic() - start < 5


def test_a_hanging_rank_is_killed_at_the_wall_clock_bound():
    def hang():
        if dist.get_rank() == 0:
            print("rank 0 is about to hang")
            time.sleep(600)
        return "done"

    start = time.monotonic()
    with pytest.raises(RanksTimeout, match=r"rank\(s\) \[0\] did not finish"):
        run_on_ranks(hang, timeout=2.0)
    assert time.monotonic() - start < 10


def test_a_collective_without_its_partner_fails_after_the_process_group_timeout():
    def lonely():
        if dist.get_rank() == 0:
            dist.barrier()
        else:
            time.sleep(30)

    with pytest.raises(RankError, match="rank 0 raised"):
        run_on_ranks(lonely, pg_timeout=1.0, timeout=20.0)


@pytest.mark.parametrize(("how", "reported"), [("exit", "exit code 3"), ("signal", "killed by SIGKILL")])
def test_a_rank_that_dies_is_reported(how, reported):
    def die():
        if dist.get_rank() == 1:
            if how == "exit":
                os._exit(3)
            os.kill(os.getpid(), 9)
        dist.barrier()

    with pytest.raises(RankError, match=f"rank 1 died before returning a result \\({reported}\\)"):
        run_on_ranks(die)


def test_an_unpicklable_result_is_reported():
    with pytest.raises(RankError, match="cannot be sent back"):
        run_on_ranks(lambda: (lambda: None))


def test_functions_defined_in_notebook_style_dynamic_code_work():
    # A notebook cell is compiled from a string into the kernel's __main__; no module file exists.
    main = types.ModuleType("__main__")
    source = (
        "import torch.distributed as dist\n"
        "def cell_worker(k):\n"
        "    return k * (dist.get_rank() + 1)\n"
        "def cell_failure():\n"
        "    raise KeyError('from a cell')\n"
    )
    exec(compile(source, "<ipython-input-7>", "exec"), main.__dict__)
    assert run_on_ranks(main.cell_worker, 5) == [5, 10]
    with pytest.raises(RankError, match="KeyError: 'from a cell'") as caught:
        run_on_ranks(main.cell_failure)
    assert '<ipython-input-7>", line 5, in cell_failure' in str(caught.value)


def test_the_caller_can_use_distributed_again_after_a_failure():
    with pytest.raises(RankError):
        run_on_ranks(failing_on_rank_one)
    assert not dist.is_initialized()
    assert run_on_ranks(rank_and_sum, 0.0) == [(0, 2, 1.0), (1, 2, 1.0)]


def test_ranks_that_fail_together_report_the_lowest_rank_whichever_finished_first():
    def both_fail():
        if dist.get_rank() == 0:
            time.sleep(0.3)  # rank 1 reports first
        raise RuntimeError(f"failure on rank {dist.get_rank()}")

    with pytest.raises(RankError, match="^rank 0 raised RuntimeError: failure on rank 0"):
        run_on_ranks(both_fail)


def test_tracebacks_name_notebook_cells_and_installed_packages_the_same_on_every_machine():
    main = types.ModuleType("__main__")
    source = "import torch\ndef cell_worker():\n    return torch.ones(2) @ torch.ones(3)\n"
    exec(compile(source, "/tmp/ipykernel_4242/123456789.py", "exec"), main.__dict__)
    with pytest.raises(RankError) as caught:
        run_on_ranks(main.cell_worker)
    text = str(caught.value)
    assert 'File "<notebook cell>", line 3, in cell_worker' in text
    assert "ipykernel_4242" not in text and "site-packages" not in text

"""The rank harness: results per rank, and every failure path bounded, reported and cleaned up."""

from __future__ import annotations

import os
import time
import types

import psutil
import pytest
import torch
import torch.distributed as dist

from autograder.engine.ranks import RankError, RanksTimeout, launched_together, run_on_ranks


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


# --------------------------------------------------------------------------- launched together
def each_call(calls: list[tuple]) -> list:
    """Make every call, as a test cell's checks do: what each returned, or the error it raised."""
    found = []
    for fn, args, options in calls:
        try:
            found.append(run_on_ranks(fn, *args, **options))
        except Exception as err:  # noqa: BLE001 - the error is the call's result here
            found.append(err)
    return found


def together(calls: list[tuple]) -> list:
    with launched_together(lambda: each_call(calls)):
        return each_call(calls)


def pid_and_sum(offset: float) -> tuple[int, float]:
    print("offset", offset)
    return os.getpid(), rank_and_sum(offset)[2]


def test_calls_launched_together_return_and_print_what_each_would_alone_from_one_launch(capsys):
    calls = [(pid_and_sum, (offset,), {}) for offset in (1.0, 2.0, 3.0)]
    found = together(calls)
    assert [[total for _pid, total in call] for call in found] == [[3.0, 3.0], [5.0, 5.0], [7.0, 7.0]]
    assert len({call[0][0] for call in found}) == len({call[1][0] for call in found}) == 1  # one process per rank
    assert capsys.readouterr().out == "".join(
        f"[rank 0] offset {offset}\n[rank 1] offset {offset}\n" for offset in (1.0, 2.0, 3.0))


def test_a_call_that_raises_on_a_rank_reports_what_it_would_alone_and_ends_the_launch():
    calls = [(pid_and_sum, (1.0,), {}), (failing_on_rank_one, (), {}), (pid_and_sum, (3.0,), {})]
    first, failed, last = together(calls)
    with pytest.raises(RankError) as alone:
        run_on_ranks(failing_on_rank_one)
    assert str(failed) == str(alone.value)  # what it reports alone, its traceback included
    assert [total for _pid, total in last] == [7.0, 7.0]
    assert last[0][0] != first[0][0]  # launched anew: the launch ended with the failure


def noting(log: str, label: str, fail: bool = False) -> str:
    with open(log, "a") as notes:
        notes.write(f"{label} {dist.get_rank()}\n")
    if fail and dist.get_rank() == 1:
        raise ValueError("noted, then failed")
    dist.barrier()
    return label


def test_no_call_runs_twice(tmp_path):
    """A call may ask the job's supervisor for a draw, which it hands out once."""
    log = str(tmp_path / "calls")
    calls = [(noting, (log, "a"), {}), (noting, (log, "b", True), {}), (noting, (log, "c"), {})]
    found = together(calls)
    assert found[0] == ["a", "a"] and isinstance(found[1], RankError) and found[2] == ["c", "c"]
    assert sorted(open(log).read().split("\n")[:-1]) == ["a 0", "a 1", "b 0", "b 1", "c 0", "c 1"]


def dying_on_rank_one() -> None:
    if dist.get_rank() == 1:
        os._exit(3)
    dist.barrier()


def test_a_call_that_ends_its_rank_is_reported_as_alone_and_the_calls_before_it_keep_their_results():
    calls = [(pid_and_sum, (1.0,), {}), (dying_on_rank_one, (), {}), (pid_and_sum, (3.0,), {})]
    first, died, last = together(calls)
    assert [total for _pid, total in first] == [3.0, 3.0]
    assert isinstance(died, RankError) and str(died).startswith("rank 1 died before returning a result (exit code 3)")
    assert [total for _pid, total in last] == [7.0, 7.0]


def extra_collective_on_rank_zero() -> str:
    """Rank 0 calls one all_reduce more than rank 1: in a group left as it is, rank 1's next
    collective would meet it."""
    if dist.get_rank() == 0:
        dist.all_reduce(torch.zeros(1))
    return "returned"


def test_a_call_starts_only_once_every_rank_has_finished_the_one_before():
    quick = {"pg_timeout": 1.0, "timeout": 20.0}
    calls = [(extra_collective_on_rank_zero, (), quick), (pid_and_sum, (2.0,), quick)]
    unmatched, after = together(calls)
    # Alone, rank 0 waits for a partner that never comes and fails; launched together, rank 1
    # must not start the next call's all_reduce (which would meet rank 0's) in the meantime.
    assert isinstance(unmatched, RankError) and str(unmatched).startswith("rank 0 raised")
    assert [total for _pid, total in after] == [5.0, 5.0]


def sleepy(seconds: float) -> str:
    if dist.get_rank() == 0:
        time.sleep(seconds)
    return "woke"


def test_a_call_that_runs_past_its_own_bound_times_out_as_alone():
    calls = [(sleepy, (0.0,), {"timeout": 3.0}), (sleepy, (30.0,), {"timeout": 3.0}),
             (pid_and_sum, (1.0,), {"timeout": 3.0})]
    start = time.monotonic()
    woke, overran, after = together(calls)
    assert woke == ["woke", "woke"] and isinstance(overran, RanksTimeout)
    assert [total for _pid, total in after] == [3.0, 3.0]
    assert time.monotonic() - start < 20  # its own bound twice, not the launch's


def test_a_result_is_given_only_to_the_same_call_inside_the_block():
    calls = [(pid_and_sum, (1.0,), {}), (pid_and_sum, (2.0,), {})]
    with launched_together(lambda: each_call(calls)):
        (launched, _), = each_call(calls[:1])
        other = run_on_ranks(pid_and_sum, 9.0)
    assert [total for _pid, total in other] == [19.0, 19.0] and other[0][0] != launched[0]
    assert run_on_ranks(pid_and_sum, 2.0)[0][0] != launched[0]  # the unclaimed result is dropped

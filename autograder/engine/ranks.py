"""Run a function on N ranks of real ``torch.distributed`` (gloo on loopback), from a notebook cell.

Defined for Chapter 6, "Gradient buckets and flat shards" (notebooks/buckets/buckets.ipynb), and used
by its test cases::

    def worker():
        import torch.distributed as dist
        return dist.get_rank()

    run_on_ranks(worker)          # [0, 1]

Why it is built this way:

* **fork**, not spawn: a function defined in a notebook lives in the kernel's ``__main__``, which a
  spawned interpreter cannot import; a forked child already has it.
* The parent hosts the rendezvous store on a port the kernel picks (port 0), so two launches on one
  machine never race for a port. It listens on that port before forking, but starts the store's
  server on the socket only once every rank is forked: the server runs a thread that resolves the
  name of each rank that connects under a lock of the C library, and a rank forked while that
  thread held the lock waited for it forever.
* Each rank writes one pickled message (its result, or its exception and traceback) to a pipe, and
  everything it prints (Python and C++, stdout and stderr) to a second pipe; the parent prints that
  output in the calling cell, rank by rank, so nothing is lost on the kernel's own stderr.
* A rank that has reported flushes its output, closes it and, once every rank has joined the group,
  ends with ``os._exit(0)``: a process that used DDP sometimes aborts in its interpreter-exit
  destructors after the work is done, and a rank that left earlier would fail a partner still
  joining. Once every rank has reported, the parent kills their process groups rather than wait for
  each to tear down its process group and exit (half of a short launch's time).
* The parent imports what DDP's constructor imports lazily (``torch._dynamo``, about 800 modules)
  once, before forking: paid in every rank, it costs seconds per launch; inherited, nothing.
* Each rank computes on one thread: ranks that each start a thread per core oversubscribe the
  machine (two ranks on two cores ran a short DDP loop about ten times slower).
* A test cell's checks are launched together (:func:`launched_together`): forking a rank costs
  about 60 ms of CPU (its copy of the parent's page tables and the faults that follow), more than
  a short check. Each check still starts with every rank ready and nothing pending: the ranks meet
  in the store between checks. A check that fails ends the launch with the error it would have
  raised alone, and the checks after it are launched on their own.
* Every wait is bounded: a short process-group timeout makes a collective whose partner is gone fail
  instead of blocking, and a wall-clock bound kills the ranks (each is its own process group, and it
  dies with its parent) so that nothing is left behind, also when a rank hangs or dies.
"""

from __future__ import annotations

import contextlib
import ctypes
import datetime
import functools
import gc
import os
import pickle
import re
import selectors
import signal
import socket
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

__all__ = ["RankError", "RanksTimeout", "launched_together", "run_on_ranks"]

HOST = "127.0.0.1"
# What a rank raises when its partner in a collective has gone away.
_PARTNER_LOST = re.compile(r"Connection (closed|reset) by peer|Broken pipe")
# Seconds to wait for the other ranks once one has failed.
FAILURE_GRACE = 1.0
_PR_SET_PDEATHSIG = 1
# Store keys: how many ranks have joined the group, and that all have.
_FORMED = "autograd-state/formed"
_ALL_FORMED = "autograd-state/all-formed"
# Store key of a rank's report of one call of a launch that makes several (pickled, as a rank's result).
_CALL_DONE = "autograd-state/call/{call}/{rank}"
# Written by a rank to its output after each call of such a launch: what it printed up to there.
_CALL_MARK = "\x00autograd-state call done\x00\n"
# The store of this process's group, in a rank (a launch of several calls meets in it between calls).
_RANK_STORE: list[Any] = []
# Calls planned by launched_together (world size, timeouts, fn, args), and the outcomes of those
# launched: (fn, world size, args, per-rank results or the RankError, per-rank output).
_PLANNED: list[tuple] | None = None
_LAUNCHED: list[tuple] = []


class RankError(RuntimeError):
    """A rank raised, died or did not finish; the message holds its rank, traceback and output."""


class RanksTimeout(RankError):
    """The ranks did not all finish within the wall-clock bound; they were killed."""


class _Planned(Exception):  # noqa: N818 - not an error: how a planned call leaves its caller
    """Raised by :func:`run_on_ranks` while :func:`launched_together` plans: the call is noted, not run."""


class _CallTimeout(Exception):  # noqa: N818 - a call of a launch of several ran past its own bound
    pass


@dataclass
class _Rank:
    """The parent's view of one rank process."""

    rank: int
    pid: int
    result_fd: int
    output_fd: int
    payload: bytearray = field(default_factory=bytearray)
    output: bytearray = field(default_factory=bytearray)
    open_fds: set[int] = field(default_factory=set)
    status: int | None = None

    @property
    def finished_writing(self) -> bool:
        return self.result_fd not in self.open_fds

    def message(self) -> tuple | None:
        if not self.payload:
            return None
        return pickle.loads(bytes(self.payload))

    def printed(self) -> str:
        return self.output.decode("utf-8", errors="replace")


def run_on_ranks(
    fn: Callable[..., Any],
    *args: Any,
    world_size: int = 2,
    timeout: float = 60.0,
    pg_timeout: float = 5.0,
) -> list[Any]:
    """Call ``fn(*args)`` on ``world_size`` ranks of a fresh gloo process group; return each rank's result.

    Args:
        fn: The function each rank calls, inside an initialised process group (``dist.get_rank()``
            tells it which rank it is). It may be defined in a notebook. Its result must be picklable.
        *args: Arguments passed to ``fn`` on every rank (each rank gets its own copy).
        world_size: Number of ranks.
        timeout: Wall-clock bound in seconds for the whole launch; the ranks are killed after it.
        pg_timeout: Process-group timeout in seconds: a collective that waits longer raises. The
            rendezvous that forms the group may take up to ``timeout`` instead, so a busy machine
            (ranks slow to start) is not mistaken for a collective without its partner.

    Returns:
        ``[result of rank 0, result of rank 1, ...]``.

    Raises:
        RankError: a rank raised (its traceback is in the message), died, or returned a result that
            cannot be pickled. The other ranks are stopped.
        RanksTimeout: not every rank finished within ``timeout`` seconds.
    """
    if _PLANNED is not None:
        _PLANNED.append((world_size, timeout, pg_timeout, fn, args))
        raise _Planned
    for index, (done_fn, done_world, done_args, outcome, printed) in enumerate(_LAUNCHED):
        if done_fn is fn and done_world == world_size and _same_args(done_args, args):
            del _LAUNCHED[index]
            _relay(printed)
            if isinstance(outcome, RankError):
                raise outcome
            return outcome
    ranks, failure, _ = _launch(fn, args, world_size, timeout, pg_timeout)
    _relay([rank.printed() for rank in ranks])
    if failure is not None:
        raise failure
    return [rank.message()[1] for rank in ranks]


@contextlib.contextmanager
def launched_together(plan: Callable[[], Any]) -> Iterator[None]:
    """Within the block, the calls of :func:`run_on_ranks` that ``plan()`` makes are answered from
    launches that make several calls each (one per world size and timeouts): ``plan`` runs first
    with every such call noted and refused (it raises inside ``plan``, which should carry on), then
    the calls are launched, then the block makes the same calls and receives their results, and
    what the ranks printed for each, as if each had been launched alone.

    In such a launch every rank makes the calls in order and leaves its report of each in the
    store, where the ranks meet: a call starts only once every rank has finished the one before.
    A call that fails on any rank (raises, runs past its ``timeout``, kills its rank) ends the
    launch and reports the error a launch of its own would have raised; the calls after it were
    never started, and are launched alone when the block makes them. No call runs twice (a call
    may ask the job's supervisor for a draw, which it hands out once). Results are matched by
    function, world size and arguments (the same objects, or equal numbers and strings); one
    never made is dropped.
    """
    global _PLANNED
    _PLANNED = planned = []
    try:
        plan()
    finally:
        _PLANNED = None
    groups: dict[tuple, list[tuple]] = {}
    for world_size, timeout, pg_timeout, fn, args in planned:
        groups.setdefault((world_size, timeout, pg_timeout), []).append((fn, args))
    try:
        for (world_size, timeout, pg_timeout), calls in groups.items():
            _LAUNCHED.extend(_launch_together(calls, world_size, timeout, pg_timeout))
        yield
    finally:
        _LAUNCHED.clear()


def _same_args(a: tuple, b: tuple) -> bool:
    """Whether two calls' arguments are the same: the same objects, or equal plain values (an
    answer's own objects are never compared with ``==``, which they may define)."""
    return len(a) == len(b) and all(map(_same, a, b))


def _same(x: Any, y: Any) -> bool:
    if x is y:
        return True
    if type(x) is not type(y):
        return False
    if type(x) is tuple:
        return _same_args(x, y)
    return type(x) in (int, float, str, bool, bytes) and x == y


def _launch_together(calls: list[tuple[Callable, tuple]], world_size: int, timeout: float,
                     pg_timeout: float) -> list[tuple]:
    """Launch ``calls`` in one group: for each call started, its results (or the error that a
    launch of its own would raise) and what each rank printed while it ran."""
    if len(calls) < 2:
        return []
    ranks, failure, reports = _launch(_each, (calls, timeout), world_size, timeout * len(calls), pg_timeout,
                                      calls=len(calls))
    printed = [rank.printed().split(_CALL_MARK) for rank in ranks]
    launched = []
    for call, ((fn, args), by_rank) in enumerate(zip(calls, reports, strict=True)):
        shown = [out[call] if call < len(out) else "" for out in printed]
        if all(report is not None and report[0] == "ok" for report in by_rank):
            launched.append((fn, world_size, args, [report[1] for report in by_rank], shown))
            continue
        if any(report is not None for report in by_rank) or failure is not None:
            error = _call_failure(by_rank, failure) or RankError("the ranks stopped without reporting this call.")
            launched.append((fn, world_size, args, error, ["".join(out[call:]) for out in printed]))
        break
    return launched


def _call_failure(by_rank: list[tuple | None], failure: RankError | None) -> RankError | None:
    """The error a launch of this call alone would raise, from each rank's report of it (None: the
    rank made none) and the failure of the launch (a rank that died, ranks killed at its bound),
    ordered as :func:`_first_failure` orders a launch's failures."""
    found: list[tuple[int, int, RankError]] = []
    overran = [rank for rank, report in enumerate(by_rank) if report is not None and report[0] == "overran"]
    for rank, report in enumerate(by_rank):
        if report is not None and report[0] == "error":
            found.append(_raised(rank, *report[1:]))
    if failure is not None and not isinstance(failure, RanksTimeout):
        found.append((0, -1, failure))
    if found:
        return min(found, key=lambda item: item[:2])[2]
    if overran:
        return RanksTimeout(f"rank(s) {overran} did not finish within the time limit and were killed; "
                            "what they printed is shown above.")
    return failure


def _each(calls: list[tuple[Callable, tuple]], timeout: float) -> None:
    """A rank's part of a launch of several calls: each call, its report left in the store, then
    the ranks meet there; stops after the first call that failed on any rank. A call that runs
    past ``timeout`` seconds here is stopped and reported as overrunning."""
    import torch.distributed as dist

    store, rank, world_size = _RANK_STORE[0], dist.get_rank(), dist.get_world_size()

    def overran(_signum: int, _frame: Any) -> None:
        raise _CallTimeout

    signal.signal(signal.SIGALRM, overran)
    for call, (fn, args) in enumerate(calls):
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            report: tuple = ("ok", fn(*args))
        except _CallTimeout:
            report = ("overran",)
        except Exception as err:  # noqa: BLE001 - reported as a launch of its own would report it
            report = ("error", f"{type(err).__name__}: {err}", _portable_traceback(err))
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        try:
            data = pickle.dumps(report)
        except Exception as err:  # noqa: BLE001 - as a launch of its own reports it
            report = ("error", f"the result of rank {rank} cannot be sent back: {err}", "")
            data = pickle.dumps(report)
        sys.stdout.flush()
        sys.stderr.flush()
        os.write(1, _CALL_MARK.encode())
        store.set(_CALL_DONE.format(call=call, rank=rank), data)
        if report[0] != "ok":
            return  # at once: a partner blocked in a collective fails when this rank has left
        keys = [_CALL_DONE.format(call=call, rank=other) for other in range(world_size)]
        store.wait(keys)
        if not all(pickle.loads(store.get(key))[0] == "ok" for key in keys):
            return


def _launch(fn: Callable, args: tuple, world_size: int, timeout: float, pg_timeout: float,
            calls: int = 0) -> tuple[list[_Rank], RankError | None, list[list[tuple | None]]]:
    """Fork the ranks, collect what each reports and printed, stop them: the ranks, the failure
    that explains the others (None when every rank returned), and, for a launch of ``calls``
    calls (:func:`_each`), each call's report by each rank (None where a rank made none)."""
    import torch.distributed as dist

    _preload()
    listener = socket.create_server((HOST, 0), backlog=socket.SOMAXCONN)
    port = listener.getsockname()[1]
    ranks: list[_Rank] = []
    store = None
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        for rank in range(world_size):
            ranks.append(_fork_rank(rank, world_size, port, (timeout, pg_timeout), fn, args, listener.fileno()))
        # Ranks that connect before the server starts wait in the socket's backlog.
        store = dist.TCPStore(HOST, port, world_size, True, timeout=datetime.timedelta(seconds=timeout),
                              wait_for_workers=False, master_listen_fd=listener.detach())
        failure = _collect(ranks, time.monotonic() + timeout)
        reports = [[_report(store, call, rank) for rank in range(world_size)] for call in range(calls)]
    finally:
        _stop(ranks)
        listener.close()
        del store
    return ranks, failure, reports


def _report(store: Any, call: int, rank: int) -> tuple | None:
    key = _CALL_DONE.format(call=call, rank=rank)
    return pickle.loads(store.get(key)) if store.check([key]) else None


@functools.cache
def _preload() -> None:
    """Import in the parent what ranks would otherwise each import on their first DDP step."""
    import torch._dynamo  # noqa: F401 - imported for the forked ranks to inherit


def _fork_rank(rank: int, world_size: int, port: int, timeouts: tuple[float, float], fn: Callable,
               args: tuple, listener_fd: int) -> _Rank:
    result_read, result_write = os.pipe()
    output_read, output_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the rank; it never returns
        try:
            for fd in (result_read, output_read, listener_fd):
                os.close(fd)
            _rank_main(rank, world_size, port, timeouts, fn, args, result_write, output_write)
        finally:
            os._exit(1)
    os.close(result_write)
    os.close(output_write)
    for fd in (result_read, output_read):
        os.set_blocking(fd, False)
    return _Rank(rank, pid, result_read, output_read, open_fds={result_read, output_read})


def _rank_main(rank: int, world_size: int, port: int, timeouts: tuple[float, float], fn: Callable,
               args: tuple, result_fd: int, output_fd: int) -> None:
    """Body of a rank process: set up, call ``fn``, report, end without running exit handlers.

    ``timeouts`` is (rendezvous, collective) in seconds.
    """
    # What the rank inherited is never collected here. A graded job closes every descriptor it does
    # not keep by number, so objects it inherited may still name descriptors that this rank's store
    # then reuses; collected midway through a launch, they closed the store's ("Bad file
    # descriptor" between two calls launched together, at random).
    gc.freeze()
    os.setpgrp()  # its own process group, so a kill reaches whatever it starts
    _die_with_parent()
    # Python and C++ output of this rank go to the parent, which prints it in the cell.
    os.dup2(output_fd, 1)
    os.dup2(output_fd, 2)
    os.close(output_fd)
    sys.stdout = open(1, "w", buffering=1, closefd=False)  # noqa: SIM115 - lives until os._exit
    sys.stderr = open(2, "w", buffering=1, closefd=False)  # noqa: SIM115
    import torch
    import torch.distributed as dist

    torch.set_num_threads(1)
    rendezvous, collective = (datetime.timedelta(seconds=seconds) for seconds in timeouts)
    joined = None
    try:
        store = dist.TCPStore(HOST, port, world_size, False, timeout=rendezvous)
        dist.init_process_group("gloo", store=store, rank=rank, world_size=world_size, timeout=rendezvous)
        # Gloo waits for its peers with the group's timeout; only once all are connected may a
        # collective without its partner fail fast.
        dist.distributed_c10d._set_pg_timeout(collective)
        if store.add(_FORMED, 1) == world_size:
            store.set(_ALL_FORMED, "1")
        joined = store
        _RANK_STORE[:] = [store]
        message: tuple = ("ok", fn(*args))
    except BaseException as err:  # noqa: BLE001 - every failure of the rank is reported, then the rank ends
        message = ("error", f"{type(err).__name__}: {err}", _portable_traceback(err))
    try:
        data = pickle.dumps(message)
    except Exception as err:  # noqa: BLE001 - an unpicklable result is the caller's error to read
        data = pickle.dumps(("error", f"the result of rank {rank} cannot be sent back: {err}", ""))
    with open(result_fd, "wb") as pipe:
        pipe.write(data)
    sys.stdout.flush()
    sys.stderr.flush()
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    _leave_once_formed(joined, rendezvous)
    os._exit(0)


def _leave_once_formed(joined: Any, rendezvous: datetime.timedelta) -> None:
    """Keep this rank's connections open until every rank has joined the group (or the parent ends
    the launch): a rank that leaves while a partner is still connecting to it fails that partner's
    ``init_process_group`` ("Connection closed by peer"), even when neither called a collective (an
    unanswered exercise, which every rank reports at once). A partner's later collectives that
    this rank never joins still fail at once, as they should. ``joined``: the store, once this rank
    has joined (a rank that could not join leaves at once)."""
    if joined is None:
        return
    try:
        joined.wait([_ALL_FORMED], rendezvous)
    except Exception:  # noqa: BLE001, S110 - a partner that never joins, or the store gone: leave
        pass


_NOTEBOOK_CELL = re.compile(r"/ipykernel_\d+/\d+\.py$")


def _portable_traceback(err: BaseException) -> str:
    """The traceback of a rank as the caller reads it: without this module's frame, with installed
    packages named from their import root and notebook cells as ``<notebook cell>`` (the same text on
    every machine and every run, so a notebook can keep it as output)."""
    report = traceback.TracebackException.from_exception(err)  # reads each frame's line now
    pending, seen = [report], set()
    while pending:
        current = pending.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        frames = [frame for frame in current.stack if frame.filename != __file__]
        for frame in frames:
            frame.filename = _portable_path(frame.filename)
        current.stack = traceback.StackSummary.from_list(frames)
        pending += [current.__cause__, current.__context__]
    return "".join(report.format())


def _portable_path(path: str) -> str:
    if _NOTEBOOK_CELL.search(path):
        return "<notebook cell>"
    head, marker, tail = path.partition("/site-packages/")
    return tail if marker else path


def _die_with_parent() -> None:
    """Ask Linux to kill this rank when the process that forked it dies (a restarted kernel)."""
    try:
        ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass


def _collect(ranks: list[_Rank], deadline: float) -> RankError | None:
    """Read every rank's pipes until all finished, one failed, or the deadline passed."""
    selector = selectors.DefaultSelector()
    failed = False
    for rank in ranks:
        for fd in rank.open_fds:
            selector.register(fd, selectors.EVENT_READ, rank)
    try:
        while any(not rank.finished_writing for rank in ranks):
            if _first_failure(ranks) is not None:
                # Ranks that fail together report together: wait a moment for the others, so the
                # lowest failing rank is reported whichever finished first; a rank blocked in a
                # collective whose partner failed is not waited for longer than that.
                if not failed:
                    deadline = min(deadline, time.monotonic() + FAILURE_GRACE)
                    failed = True
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return _first_failure(ranks) if failed else _timeout(ranks)
            for key, _ in selector.select(timeout=min(remaining, 0.5)):
                rank: _Rank = key.data
                chunk = os.read(key.fd, 1 << 16)
                if chunk:
                    (rank.payload if key.fd == rank.result_fd else rank.output).extend(chunk)
                else:
                    selector.unregister(key.fd)
                    os.close(key.fd)
                    rank.open_fds.discard(key.fd)
        # Output written just before a rank ended may still be in its pipe.
        _drain(ranks, selector, deadline=min(deadline, time.monotonic() + 2.0))
    finally:
        selector.close()
    return _first_failure(ranks)


def _drain(ranks: list[_Rank], selector: selectors.BaseSelector, deadline: float) -> None:
    while selector.get_map() and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=0.1):
            rank = key.data
            chunk = os.read(key.fd, 1 << 16)
            if chunk:
                rank.output.extend(chunk)
            else:
                selector.unregister(key.fd)
                os.close(key.fd)
                rank.open_fds.discard(key.fd)


def _first_failure(ranks: list[_Rank]) -> RankError | None:
    """The failure that explains the others, among ranks that have finished.

    A rank that died or raised makes its partners fail too, in their next collective ("Connection
    closed by peer"). So a death is reported before an exception, an exception before such a
    consequence, and among equals the lowest rank (deterministic when ranks fail alike).
    """
    found: list[tuple[int, int, RankError]] = []
    for rank in ranks:
        if not rank.finished_writing:
            continue
        message = rank.message()
        if message is None:
            _reap(rank, wait=1.0)
            error = RankError(f"rank {rank.rank} died before returning a result ({_describe_status(rank.status)}).")
            found.append((0, rank.rank, error))
        elif message[0] == "error":
            found.append(_raised(rank.rank, *message[1:]))
    return min(found, key=lambda item: item[:2])[2] if found else None


def _raised(rank: int, summary: str, text: str) -> tuple[int, int, RankError]:
    """A rank's exception, ranked for :func:`_first_failure`: after a death, before a partner's
    lost connection (the consequence of another rank's failure)."""
    error = RankError(f"rank {rank} raised {summary}\n\nTraceback of rank {rank}:\n{text}")
    return 2 if _PARTNER_LOST.search(summary) else 1, rank, error


def _timeout(ranks: list[_Rank]) -> RanksTimeout:
    waiting = [rank.rank for rank in ranks if not rank.finished_writing]
    return RanksTimeout(f"rank(s) {waiting} did not finish within the time limit and were killed; "
                        "what they printed is shown above.")


def _describe_status(status: int | None) -> str:
    if status is None:
        return "still running; killed"
    if os.WIFSIGNALED(status):
        return f"killed by {signal.Signals(os.WTERMSIG(status)).name}"
    return f"exit code {os.WEXITSTATUS(status)}"


def _reap(rank: _Rank, wait: float) -> None:
    """Collect the rank's exit status, waiting at most ``wait`` seconds."""
    deadline = time.monotonic() + wait
    while rank.status is None:
        try:
            pid, status = os.waitpid(rank.pid, os.WNOHANG)
        except ChildProcessError:
            rank.status = 0
            return
        if pid:
            rank.status = status
            return
        if time.monotonic() >= deadline:
            return
        time.sleep(0.001)


def _stop(ranks: list[_Rank]) -> None:
    """Kill every rank's process group (the rank and whatever it started), then reap each rank.

    A rank that has reported has nothing left to do but exit, so it is not waited for; killing
    every group before reaping any lets the kernel tear the ranks down side by side.
    """
    for rank in ranks:
        try:
            os.killpg(rank.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    for rank in ranks:
        _reap(rank, wait=5.0)
        for fd in list(rank.open_fds):
            os.close(fd)
            rank.open_fds.discard(fd)


def _relay(printed: list[str]) -> None:
    """Print what each rank printed, in rank order, in the caller's output (a notebook cell's)."""
    for rank, text in enumerate(printed):
        for line in text.splitlines():
            print(f"[rank {rank}] {line}")

"""The zygote: a root process with torch already imported that forks one sandbox per submission.

The grader starts one template per process (``python -m autograder.pipeline.sandbox.zygote``, on a
socket of the grader's), which imports torch, NumPy, IPython and the course's packages once and then
only forks zygotes, one per worker of each pool, whatever chapter or limits the pool grades with
(:func:`serve`): importing them costs about 3 s of CPU, forking a few milliseconds. The template
never runs a job, and a zygote holds nothing of it but what the imports left. A zygote claims a
sandbox user of its own, builds the jails its jobs run in (:mod:`autograder.pipeline.sandbox.jail`,
in a mount namespace of its own), then reads jobs on stdin (a frame each,
:class:`~autograder.pipeline.sandbox.wire.Job`, followed by a frame of the pieces of grader code its
trials run on) and answers each with one line.

A job that starts with its chapter's locked prefix goes, as its frames came, to a root "prefix
holder" that ran the prefix once (:mod:`autograder.pipeline.sandbox.prefix`), and the holder's
answer goes back as it came. Any other job, or one whose prefix failed, is launched from here
(:mod:`autograder.pipeline.sandbox.launch`). Either way the child is forked into a PID namespace
and a jail of its own, confines itself as the sandbox user and runs the plan
(:mod:`autograder.pipeline.sandbox.runner`), and is supervised by the process that forked it; the
zygote itself never runs submission code, and kills every process of the sandbox user when the
job ends (never the holder, which is root).
"""

from __future__ import annotations

import dataclasses
import fcntl
import json
import os
import select
import socket
import sys
import threading

from autograder.pipeline.sandbox import confine, jail, launch, wire
from autograder.pipeline.sandbox.prefix import Holders

JOBS = 0  # the zygote reads its jobs' frames from stdin


def warm() -> None:
    """Import what every chapter needs, so that no submission pays for it."""
    os.environ.setdefault("MPLBACKEND", "Agg")
    import IPython.core.interactiveshell  # noqa: F401
    import matplotlib.pyplot  # noqa: F401
    import numpy  # noqa: F401
    import stack_data  # noqa: F401 - what IPython formats the first traceback of a job with
    import torch
    import torch.distributed  # noqa: F401
    import torch.nn  # noqa: F401

    import autograder.engine.cases  # noqa: F401
    import autograder.engine.observe  # noqa: F401
    import autograder.pipeline.sandbox.runner  # noqa: F401
    from autograder.engine.numerics import THREADS

    try:
        import autograd_figures  # noqa: F401
    except ImportError:
        pass
    # One core per worker (the grader runs one worker per core), and the numerics every key and
    # every learner's own check compute with (autograder.engine.numerics).
    torch.set_num_threads(THREADS)
    # torch.compile reports progress through tqdm where it is installed (the instructor's tools
    # bring it); tqdm's monitor thread and its lock shared between processes would outlive the
    # cell, and a prefix holding a thread or a shared mapping cannot be forked.
    tqdm = sys.modules.get("tqdm")
    if tqdm is not None:
        tqdm.tqdm.monitor_interval = 0
        tqdm.tqdm.set_lock(threading.RLock())
    _rehearse()


def _rehearse() -> None:
    """Pay once, before forking, for what the first cell of every notebook would pay again:
    IPython's traceback formatting, matplotlib's fonts and figure machinery, and what
    ``torch.testing.assert_close`` imports on its first call (``torch.distributed.tensor`` and
    SymPy: 3 s, which every job whose regression test compares with it paid again)."""
    import io
    from contextlib import redirect_stdout

    import matplotlib.pyplot as plt
    import torch
    from IPython.core.interactiveshell import InteractiveShell

    torch.testing.assert_close(torch.zeros(2), torch.zeros(2))

    figure, axes = plt.subplots()
    axes.text(0.5, 0.5, "warm")
    figure.canvas.draw()
    plt.close(figure)
    shell = InteractiveShell.instance(colors="NoColor")
    with redirect_stdout(io.StringIO()):
        shell.run_cell("import torch\ntorch.zeros(2, 3).T.view(6)", store_history=False)
    InteractiveShell.clear_instance()


def claim_user() -> tuple[str, int, int, object]:
    """The first sandbox user no other zygote on this machine holds (a lock in /run, root's):
    its name, uid and gid, and the lock.

    Every process of a sandbox user is killed when a job ends, so two graders on one machine
    (two shards, two test workers) must never share one.
    """
    for index in range(256):
        handle = open(f"/run/{confine.USER_PREFIX}{index}.lock", "a")  # noqa: SIM115 - held for life
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            continue
        return (f"{confine.USER_PREFIX}{index}", *confine.sandbox_user(index), handle)
    raise RuntimeError("every sandbox user is taken")


def serve(control: socket.socket) -> int:
    """The template: import once, then fork a zygote for each request on ``control`` (a byte with two
    descriptors, the zygote's stdin and stdout) and answer it with the zygote's pidfd (the zygote is
    this process's child, not the grader's: the grader waits on and kills it through that). Ends
    when the grader closes its end."""
    warm()
    while True:
        confine.reap()  # zygotes that ended: their pidfds already told the grader
        if not select.select([control], [], [], 1.0)[0]:
            continue
        try:
            request, fds, _flags, _address = socket.recv_fds(control, 1, 2)
        except OSError:
            return 0
        if not request or len(fds) != 2:
            for fd in fds:
                os.close(fd)
            return 0
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                control.close()  # its fd 0 becomes the jobs' pipe, which the socket object must not close later
                os.setsid()
                os.dup2(fds[0], JOBS)
                os.dup2(fds[1], sys.stdout.fileno())
                for fd in fds:
                    os.close(fd)
                code = main()
            finally:
                os._exit(code)
        for fd in fds:
            os.close(fd)
        pidfd = os.pidfd_open(pid)  # before this loop reaps it: the pid names this child
        socket.send_fds(control, [b"z"], [pidfd])
        os.close(pidfd)


def main() -> int:
    """A zygote, forked by the template with its jobs' pipe on stdin and its answers' on stdout."""
    name, uid, gid, _lock = claim_user()
    trees = jail.build(uid, gid, name)
    confine.become_subreaper()
    confine.kill_all(uid)
    out = sys.stdout
    out.write(wire.Ready(True, uid).to_line())
    out.flush()
    holders = Holders(uid, gid, trees["main"])
    while (text := wire.read_frame(JOBS)) is not None:
        out.write(answer(text, holders, uid, gid, trees))
        out.flush()
    holders.close()
    return 0


def _pieces() -> dict[str, str]:
    """The frame of pieces of grader code that follows every job's frame."""
    text = wire.read_frame(JOBS)
    return {} if text is None else json.loads(text)


def answer(text: str, holders: Holders, uid: int, gid: int, trees: dict[str, str]) -> str:
    """The answer line to a job's frame: its prefix holder's when the job ran from its chapter's
    prefix, otherwise its own run from the top; either way no process of the sandbox user
    outlives it."""
    job = wire.Job.from_line(text)
    relayed = holders.relay(job, text, JOBS)
    if relayed.line is not None:
        found = relayed.line
    else:
        root = trees["bare" if job.plan.bare is not None else "main"]
        result = launch.run(job, uid, gid, root, _pieces)
        found = dataclasses.replace(result, prefix=relayed.why).to_line(job.number)
    confine.kill_all(uid)
    confine.reap()
    return found


if __name__ == "__main__":
    sys.exit(serve(socket.socket(fileno=0)))  # the template's stdin: its socket to the grader

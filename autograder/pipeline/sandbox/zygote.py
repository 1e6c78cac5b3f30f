"""The zygote: a root process with torch already imported that forks one sandbox per submission.

Started by the grader (``python -m autograder.pipeline.sandbox.zygote``), it claims a sandbox user of its
own, imports torch, NumPy, IPython and the course's packages once, then reads jobs (one JSON line
each, :class:`~autograder.pipeline.sandbox.wire.Job`) on stdin and answers each with one line.

A job that starts with its chapter's locked prefix goes, as the line it came in, to a root
"prefix holder" that ran the prefix once (:mod:`autograder.pipeline.sandbox.prefix`), and the
holder's answer goes back as it came. Any other job, or one whose prefix failed, is launched from
here (:mod:`autograder.pipeline.sandbox.launch`). Either way the child is forked, confines itself
as the sandbox user and runs the plan (:mod:`autograder.pipeline.sandbox.runner`), and is
supervised by the process that forked it; the zygote itself never runs submission code, and kills
every process of the sandbox user when the job ends (never the holder, which is root).
"""

from __future__ import annotations

import dataclasses
import fcntl
import os
import sys

from autograder.pipeline.sandbox import confine, launch, wire
from autograder.pipeline.sandbox.prefix import Holders


def warm() -> None:
    """Import what every chapter needs, so that no submission pays for it."""
    os.environ.setdefault("MPLBACKEND", "Agg")
    import IPython.core.interactiveshell  # noqa: F401
    import matplotlib.pyplot  # noqa: F401
    import numpy  # noqa: F401
    import torch
    import torch.distributed  # noqa: F401
    import torch.nn  # noqa: F401

    import autograder.engine.cases  # noqa: F401
    import autograder.engine.observe  # noqa: F401
    import autograder.pipeline.sandbox.runner  # noqa: F401

    try:
        import autograd_figures  # noqa: F401
    except ImportError:
        pass
    # One core per worker: the grader runs one worker per core.
    torch.set_num_threads(1)
    _rehearse()


def _rehearse() -> None:
    """Pay once, before forking, for what the first cell of every notebook would pay again:
    IPython's traceback formatting, matplotlib's fonts and figure machinery."""
    import io
    from contextlib import redirect_stdout

    import matplotlib.pyplot as plt
    from IPython.core.interactiveshell import InteractiveShell

    figure, axes = plt.subplots()
    axes.text(0.5, 0.5, "warm")
    figure.canvas.draw()
    plt.close(figure)
    shell = InteractiveShell.instance(colors="NoColor")
    with redirect_stdout(io.StringIO()):
        shell.run_cell("import torch\ntorch.zeros(2, 3).T.view(6)", store_history=False)
    InteractiveShell.clear_instance()


def claim_user() -> tuple[int, int, object]:
    """The first sandbox user no other zygote on this machine holds (a lock in /run, root's).

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
        return (*confine.sandbox_user(index), handle)
    raise RuntimeError("every sandbox user is taken")


def main() -> int:
    uid, gid, _lock = claim_user()
    warm()
    confine.become_subreaper()
    confine.kill_all(uid)
    out = sys.stdout
    out.write(wire.Ready(True, uid).to_line())
    out.flush()
    holders = Holders(uid, gid)
    for line in sys.stdin:
        out.write(answer(line, holders, uid, gid))
        out.flush()
    holders.close()
    return 0


def answer(line: str, holders: Holders, uid: int, gid: int) -> str:
    """The answer line to a job line: its prefix holder's when the job ran from its chapter's
    prefix, otherwise its own run from the top; either way no process of the sandbox user
    outlives it."""
    job = wire.Job.from_line(line)
    relayed = holders.relay(job, line)
    if relayed.line is not None:
        found = relayed.line
    else:
        result = launch.run(job, uid, gid)
        found = dataclasses.replace(result, prefix=relayed.why).to_line(job.number)
    confine.kill_all(uid)
    confine.reap()
    return found


if __name__ == "__main__":
    sys.exit(main())

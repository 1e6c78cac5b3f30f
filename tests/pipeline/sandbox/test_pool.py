"""The pool's zygotes: every zygote of a grader process is forked by one template, which imported
torch once; the template holds no job, a zygote holds nothing of it, and it ends with its grader."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from autograder.pipeline.sandbox import wire
from autograder.pipeline.sandbox.confine import Limits, is_root
from autograder.pipeline.sandbox.pool import Pool, Template

pytestmark = pytest.mark.skipif(not is_root(), reason="the grading sandbox needs root (to create users and namespaces)")

SMALL = Limits(wall=20, cpu=8, probe=10)


def zygote_pids(pool: Pool) -> list[int]:
    """The pids of a pool's zygotes, read from their pidfds (they are the template's children)."""
    pids = []
    for worker in pool.idle.queue:
        info = Path(f"/proc/self/fdinfo/{worker.process.pidfd}").read_text()
        pids.append(int(next(line.split()[1] for line in info.splitlines() if line.startswith("Pid:"))))
    return pids


def parent_of(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("PPid:")))


def printed_by_a_job(pool: Pool, source: str) -> str:
    plan = wire.Plan("views", [wire.CodeStep("cell", textwrap.dedent(source))])
    result = pool.submit(plan, SMALL).result()
    return result.report


def test_the_zygotes_of_every_pool_of_a_process_come_from_one_template_and_run_jobs() -> None:
    parents = set()
    for _ in range(2):
        with Pool(2, SMALL) as pool:
            pids = zygote_pids(pool)
            assert len(set(pids)) == 2
            parents |= {parent_of(pid) for pid in pids}
            assert "forked fine" in printed_by_a_job(pool, "print('forked', 'fine')")
    assert len(parents) == 1 and os.getpid() not in parents, parents
    assert parents == {Template._current.process.pid}


def test_a_zygote_holds_nothing_of_the_templates_socket() -> None:
    with Pool(1, SMALL) as pool:
        (zygote,) = zygote_pids(pool)
        template = Template._current.process.pid
        socket_of_template = os.readlink(f"/proc/{template}/fd/0")
        assert socket_of_template.startswith("socket:")
        held = {os.readlink(fd) for fd in Path(f"/proc/{zygote}/fd").iterdir()}
        assert socket_of_template not in held, held
        assert os.readlink(f"/proc/{zygote}/fd/0").startswith("pipe:")


def test_a_template_that_died_is_started_again() -> None:
    with Pool(1, SMALL):
        pass
    dead = Template._current.process
    dead.kill()
    dead.wait(timeout=30)
    with Pool(1, SMALL) as pool:
        assert "after again" in printed_by_a_job(pool, "print('after', 'again')")
    assert Template._current.process.pid != dead.pid


GRADER = """
import os, time
from autograder.pipeline.sandbox.confine import Limits
from autograder.pipeline.sandbox.pool import Pool, Template

with Pool(1, Limits()):
    pass
child = os.fork()
if child == 0:  # a child of the grader that outlives it, as a forked check or rank may
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)  # the test reads the grader's output to its end
    os.dup2(quiet, 2)
    time.sleep(60)
    os._exit(0)
print(Template._current.process.pid, child, flush=True)
"""


def alive(pid: int) -> bool:
    try:
        return "State:\tZ" not in Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False


def test_the_template_ends_with_its_grader_whatever_the_graders_forked_children_do() -> None:
    """The grader exits without closing anything: its socket closes with it, and the template,
    reading nothing more, ends. A child the grader forked closed its copy of the socket at the fork."""
    grader = subprocess.run([sys.executable, "-c", GRADER], capture_output=True, text=True, timeout=180, check=True)
    template, child = map(int, grader.stdout.split())
    try:
        deadline = time.monotonic() + 20
        while alive(template) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert alive(child), "the grader's child should still be sleeping"
        assert not alive(template), "the template outlived its grader"
    finally:
        os.kill(child, signal.SIGKILL)

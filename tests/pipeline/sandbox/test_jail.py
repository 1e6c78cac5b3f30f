"""What a job can see: only its allow-list, only its own processes, and nothing another job left.

Each test runs real code in a real job. A job walks the whole file system it was given and reports
every file it could reach that its allow-list (:func:`autograder.pipeline.sandbox.jail.allowed`)
does not name; it tries the paths a forger would try; it lists the processes it can see; and two
jobs, at the same time or one after the other, look for what the other left."""

from __future__ import annotations

import json
import textwrap
import time

import pytest

from autograder.engine import bare
from autograder.pipeline.course import ROOT
from autograder.pipeline.sandbox import jail, wire
from autograder.pipeline.sandbox.confine import Limits, is_root
from autograder.pipeline.sandbox.pool import Pool

pytestmark = pytest.mark.skipif(not is_root(), reason="the grading sandbox needs root (to create users and namespaces)")

SMALL = Limits(wall=60, cpu=40, memory=3 * 2**30, processes=64, file_size=2**20, output=2**18, flood=4 * 2**20,
               probe=10)
# Places a forger looks: the course's tests and keys, the shared design notes, wheels on the machine,
# root's caches, the system's secrets and other packages.
OUTSIDE = [str(ROOT / "tests" / "catalog" / "views.py"), str(ROOT / "answer_key" / "views.py"),
           str(ROOT / "autograder" / "judging.py"), str(ROOT / "autograder" / "kernel.py"),
           str(ROOT / "autograder" / "pipeline" / "cli.py"), str(ROOT / "notebooks" / "views" / "views.ipynb"),
           str(ROOT / "README.md"), "/work/shared/DESIGN.md", "/opt", "/root/.cache", "/etc/shadow", "/etc/passwd-",
           "/usr/lib/python3/dist-packages", "/usr/bin/sh", "/home", "/var", "/sys/kernel"]
# What a job's walk reports: every file it reached, outside /proc (its own processes) and /tmp (its
# own scratch), that is not under an allowed path; and which OUTSIDE paths it could open or list.
WALK = """
import json, os
allowed = {allowed}
extra = ("/etc/passwd", "/etc/group", "/etc/hosts", "/etc/nsswitch.conf", "/dev/null", "/dev/zero", "/dev/full",
         "/dev/random", "/dev/urandom")
def inside(path):
    return path in extra or any(path == a or path.startswith(a.rstrip("/") + "/") for a in allowed)
stray, files = [], 0
for folder, dirs, names in os.walk("/"):
    if folder in ("/proc", "/tmp", "/dev/shm"):
        dirs[:] = []
        continue
    for name in names:
        path = os.path.join(folder, name)
        files += 1
        if not inside(os.path.realpath(path)) and not os.path.islink(path):
            stray.append(path)
opened = []
for path in {outside}:
    try:
        if os.path.isdir(path):
            os.listdir(path)
        else:
            open(path, "rb").close()
        opened.append(path)
    except OSError:
        pass
WALKED = json.dumps({{"stray": stray[:50], "files": files, "opened": opened}})
"""


@pytest.fixture(scope="module")
def pool():
    with Pool(2, SMALL) as pool:
        yield pool


def _printed(result: wire.JobResult, cell: str = "cell") -> str:
    reports = wire.Reports.read(result.report)
    return "".join(getattr(o, "text", "") + getattr(o, "evalue", "") for o in reports.cells[cell].outputs)


def _walk(kind: str) -> str:
    found = jail.allowed(kind)
    return textwrap.dedent(WALK).format(allowed=sorted(found.paths), outside=OUTSIDE)


def test_a_job_reaches_only_what_its_allow_list_names(pool: Pool) -> None:
    result = pool.submit(wire.Plan("views", [wire.CodeStep("cell", _walk("main") + "\nprint(WALKED)")])).result()
    walked = json.loads(_printed(result))
    assert walked["files"] > 1000, walked  # the interpreter, torch and the course's observing modules are there
    assert walked["stray"] == [], walked["stray"]
    assert walked["opened"] == [], walked["opened"]


def test_a_bare_job_reaches_only_the_interpreter(pool: Pool) -> None:
    answer = _walk("bare") + "\ndef walked(x):\n    return WALKED\n"
    calls = [{"case": "walk", "answer": "walked", "subject": "walked", "args": bare.encode_args((1,))}]
    result = pool.submit(wire.Plan("views", [], bare=bare.job([answer], calls))).result()
    (line,) = bare.read_results(result.report)
    walked = json.loads(line["seen"]["value"]["v"])
    assert walked["files"] > 500, walked
    assert walked["stray"] == [], walked["stray"]
    assert walked["opened"] == [], walked["opened"]
    allowed = jail.allowed("bare").paths
    assert not any("site-packages" in p for p in allowed), allowed


def test_the_allow_lists_hold_no_key_no_judging_and_no_tests() -> None:
    for kind in jail.KINDS:
        for path in jail.allowed(kind).paths:
            assert not path.startswith((str(ROOT / "answer_key"), str(ROOT / "tests"), str(ROOT / "notebooks"))), path
            assert path not in (str(ROOT / "autograder" / "judging.py"), str(ROOT / "autograder" / "kernel.py"),
                                str(ROOT / "autograder"), str(ROOT / "autograder" / "pipeline")), path


def test_a_job_sees_only_its_own_processes(pool: Pool) -> None:
    source = """
        import os, subprocess, sys
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
        print(sorted(int(p) for p in os.listdir("/proc") if p.isdigit()), os.getpid())
    """
    result = pool.submit(wire.Plan("views", [wire.CodeStep("cell", textwrap.dedent(source))])).result()
    pids, mine = _printed(result).rsplit("]", 1)
    pids = json.loads(pids + "]")
    # pid 1 is the job's first process, 2 the one that runs the notebook, then the child it started
    assert int(mine) == 2 and pids == [1, 2, 3], (pids, mine)


def test_jobs_running_at_once_cannot_see_each_other(pool: Pool) -> None:
    """One job publishes everywhere it can (a process's command line, files in /tmp, /dev/shm and
    its scratch folder, an abstract socket) and waits; a second job, running meanwhile on the other
    worker, looks everywhere and finds nothing."""
    publish = """
        import os, socket, subprocess, sys, time
        marker = "published-by-the-other-job"
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(20)", marker])
        for folder in ("/tmp", "/dev/shm", "."):
            with open(os.path.join(folder, marker), "w") as handle:
                handle.write(marker)
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind("\\0" + marker)
        server.listen()
        time.sleep(8)
    """
    look = """
        import os, socket
        marker = "published-by-the-other-job"
        found = []
        for pid in (p for p in os.listdir("/proc") if p.isdigit()):
            try:
                if marker.encode() in open(f"/proc/{pid}/cmdline", "rb").read():
                    found.append(f"process {pid}")
            except OSError:
                pass
        for folder in ("/tmp", "/dev/shm", "/tmp/scratch"):
            if os.path.exists(os.path.join(folder, marker)):
                found.append(folder)
        try:
            socket.socket(socket.AF_UNIX, socket.SOCK_STREAM).connect("\\0" + marker)
            found.append("abstract socket")
        except OSError:
            pass
        print("found", found)
    """
    publishing = pool.submit(wire.Plan("views", [wire.CodeStep("cell", textwrap.dedent(publish))]))
    time.sleep(4)  # the publisher has started and published
    looking = pool.submit(wire.Plan("views", [wire.CodeStep("cell", textwrap.dedent(look))]))
    assert _printed(looking.result()).strip() == "found []"
    assert not publishing.done() or publishing.result().seconds >= 8  # they ran at the same time
    publishing.result()


def test_a_job_finds_nothing_an_earlier_job_left(pool: Pool) -> None:
    """The jobs of one submission run one after another on one worker: nothing of the first
    remains for the second."""
    leave = "open('/tmp/left', 'w').write('x'); open('/dev/shm/left', 'w').write('x'); open('left', 'w').write('x')"
    look = "import os; print([p for p in ('/tmp/left', '/dev/shm/left', 'left') if os.path.exists(p)])"
    first, second = pool.submit_together([
        _task(leave), _task(look),
    ])
    first.result()
    assert _printed(second.result()).strip() == "[]"


def _task(source: str):
    from autograder.pipeline.sandbox.pool import Task

    return Task(wire.Plan("views", [wire.CodeStep("cell", source)]))

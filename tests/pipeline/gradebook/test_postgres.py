"""One class graded into one PostgreSQL gradebook by two shards running at the same time, as two
machines would. The test starts its own PostgreSQL server on loopback and stops it afterwards."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from autograder.engine.cases import exercises
from autograder.pipeline.gradebook.ledger import shard_of
from autograder.pipeline.grading.grade import scores
from autograder.pipeline.sandbox.confine import is_root
from tests.catalog.views import RIGHT, WRONG
from tests.conftest import copy_course
from tests.submissions import submit

pytestmark = [
    pytest.mark.nbgrader,
    pytest.mark.skipif(not is_root(), reason="the grading sandbox needs root (to create users and namespaces)"),
]
CHAPTER = "views"
DB_USER = "autograd-pg"


def _binary(name: str) -> str | None:
    found = shutil.which(name) or sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found if isinstance(found, str) else (found[-1] if found else None)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def postgres():
    """``postgresql+psycopg://`` URL of a fresh server on a free loopback port (stopped afterwards)."""
    initdb, pg_ctl = _binary("initdb"), _binary("pg_ctl")
    if not initdb or not pg_ctl:
        pytest.skip("PostgreSQL server binaries (initdb, pg_ctl) not installed: apt-get install postgresql")
    pytest.importorskip("psycopg", reason="the psycopg driver is not installed (requirements.txt)")
    try:
        pwd.getpwnam(DB_USER)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", DB_USER],
                       check=True, capture_output=True, timeout=30)
    entry = pwd.getpwnam(DB_USER)
    folder = Path(tempfile.mkdtemp(prefix="gradebook-pg-"))
    os.chown(folder, entry.pw_uid, entry.pw_gid)
    port = _free_port()

    def as_db_user(*command: str) -> subprocess.CompletedProcess:
        return subprocess.run(["runuser", "-u", DB_USER, "--", *command], capture_output=True, text=True,
                              timeout=120, cwd=folder)

    made = as_db_user(initdb, "-D", str(folder / "data"), "-U", "grader", "--auth=trust", "-E", "UTF8")
    assert made.returncode == 0, made.stderr
    started = as_db_user(pg_ctl, "-D", str(folder / "data"), "-l", str(folder / "log"), "-w", "-t", "60",
                         "-o", f"-p {port} -k {folder} -c listen_addresses=127.0.0.1", "start")
    assert started.returncode == 0, started.stderr + (folder / "log").read_text()
    try:
        yield f"postgresql+psycopg://grader@127.0.0.1:{port}/postgres"
    finally:
        as_db_user(pg_ctl, "-D", str(folder / "data"), "-m", "immediate", "-w", "-t", "60", "stop")
        shutil.rmtree(folder, ignore_errors=True)


def test_two_shards_grade_one_class_into_one_postgres_gradebook(postgres, tmp_path) -> None:
    course = copy_course(tmp_path / "course")
    course.nbgrader("generate_assignment", CHAPTER, "--force", db=postgres)
    right = {g: RIGHT[g][0][1] for g in exercises(CHAPTER)}
    students = {f"s{n}": {**right, "views-can-view": WRONG["views-can-view"][0][1]} if n % 2 else right
                for n in range(6)}
    for student, answers in students.items():
        submit(course, CHAPTER, student, answers)
    assert {shard_of(s, 2) for s in students} == {0, 1}, "both shards must have work"

    command = [sys.executable, "-m", "autograder.pipeline.cli", "--root", str(course.root), "--db", postgres,
               "grade", CHAPTER, "--workers", "1", "--shard"]
    shards = [subprocess.Popen([*command, f"{i}/2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
              for i in range(2)]
    for shard in shards:
        out, err = shard.communicate(timeout=600)
        assert shard.returncode == 0, out + err

    table = scores(course, CHAPTER, db=postgres)
    assert set(table) == set(students)
    total = sum(ex.points(False) + ex.points(True) for ex in exercises(CHAPTER).values())
    for student in students:
        earned = sum(table[student].values())
        assert (earned == total) == (students[student] == right), (student, earned)
    assert not (course.root / "gradebook.db").exists(), "nothing may fall back to the SQLite gradebook"

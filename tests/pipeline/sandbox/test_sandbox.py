"""The grading sandbox's limits, one by one: each test runs real code in a real sandbox and checks
that the limit holds and that nothing it started outlives its job."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from autograder.pipeline.sandbox import wire
from autograder.pipeline.sandbox.confine import Limits, is_root, processes_of
from autograder.pipeline.sandbox.pool import Pool

pytestmark = pytest.mark.skipif(not is_root(), reason="the grading sandbox needs root (to create users and namespaces)")

SMALL = Limits(wall=20, cpu=8, memory=3 * 2**30, processes=64, file_size=2**20, output=2**16, flood=4 * 2**20, probe=10)


@pytest.fixture(scope="module")
def private(tmp_path_factory) -> Path:
    """A folder the sandbox must not see: stands for the course root and its gradebook."""
    folder = tmp_path_factory.mktemp("course")
    (folder / "gradebook.db").write_text("scores")
    folder.chmod(0o755)
    return folder


@pytest.fixture(scope="module")
def pool(private: Path):
    with Pool(1, SMALL) as pool:
        yield pool


def run(pool: Pool, source: str, limits: Limits = SMALL) -> tuple[wire.JobResult, str]:
    """Run one cell; returns the job result and everything the cell printed or raised."""
    plan = wire.Plan("views", [wire.CodeStep("cell", textwrap.dedent(source))])
    result = pool.submit(plan, limits).result()
    printed = []
    for line in result.report.splitlines():
        message = json.loads(line)
        if message.get("cell") == "cell":
            printed += [o.get("text", "") + o.get("ename", "") + ": " + o.get("evalue", "") for o in message["outputs"]]
    assert not processes_of(pool.idle.queue[0].uid), "a process of the sandbox user outlived its job"
    return result, "\n".join(printed)


def test_runs_as_an_unprivileged_user_that_cannot_become_root(pool: Pool) -> None:
    _, printed = run(pool, """
        import os
        print("uid", os.getuid(), os.geteuid(), os.getgroups())
        try:
            os.setuid(0)
        except PermissionError:
            print("setuid refused")
    """)
    assert "uid 0" not in printed and "setuid refused" in printed


def test_has_no_network_but_loopback(pool: Pool) -> None:
    _, printed = run(pool, """
        import socket
        try:
            socket.create_connection(("1.1.1.1", 53), timeout=2)
            print("internet reachable")
        except OSError as err:
            print("no internet:", type(err).__name__)
        server = socket.create_server(("127.0.0.1", 0))
        client = socket.create_connection(server.getsockname(), timeout=2)
        peer, _ = server.accept()
        client.sendall(b"ping")
        print("loopback", peer.recv(4))
    """)
    assert "no internet" in printed and "internet reachable" not in printed
    assert "loopback b'ping'" in printed


def test_writes_only_to_its_scratch_folder(pool: Pool, private: Path) -> None:
    _, printed = run(pool, f"""
        import os
        from pathlib import Path
        Path("mine.txt").write_text("ok")
        print("scratch write", Path("mine.txt").read_text(), os.getcwd())
        for target in ["{private}/gradebook.db", "{private}/new.txt", "{Path.cwd()}/x.txt", "/etc/x", "/work/x",
                       "/usr/x", "/root/x"]:
            try:
                with open(target, "a") as handle:
                    handle.write("owned")
                print("WROTE", target)
            except OSError as err:
                print("refused", target, type(err).__name__)
        try:
            print("sees course:", sorted(os.listdir("{private}")))
        except OSError:
            print("sees course: nothing")
    """)
    assert "scratch write ok" in printed and "WROTE" not in printed
    assert "sees course: []" in printed or "sees course: nothing" in printed
    assert (private / "gradebook.db").read_text() == "scores"


def test_memory_is_bounded(pool: Pool) -> None:
    _, printed = run(pool, """
        try:
            block = bytearray(8 * 2**30)
            print("allocated")
        except MemoryError:
            print("refused: MemoryError")
    """)
    assert "refused: MemoryError" in printed


def test_a_cpu_bound_loop_is_stopped(pool: Pool) -> None:
    limits = Limits(**{**SMALL.as_dict(), "cpu": 2, "wall": 30})
    result, _ = run(pool, "while True:\n    pass", limits)
    assert "SIGXCPU" in result.status or "SIGKILL" in result.status, result.status
    assert result.seconds < 20


def test_a_sleeping_cell_is_stopped_at_the_wall_clock_limit(pool: Pool) -> None:
    limits = Limits(**{**SMALL.as_dict(), "wall": 3})
    result, _ = run(pool, "import time, signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\ntime.sleep(600)", limits)
    assert result.reason.startswith("timed out") and result.seconds < 10


def test_process_count_is_bounded_and_every_process_is_killed(pool: Pool) -> None:
    _, printed = run(pool, """
        import os, subprocess, sys, time
        daemon = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True)
        children = 0
        try:
            for _ in range(1000):
                if os.fork() == 0:
                    os.setsid()
                    time.sleep(600)
                    os._exit(0)
                children += 1
        except OSError as err:
            print("fork refused after", children, type(err).__name__)
        print("alive in its namespace", len([p for p in os.listdir("/proc") if p.isdigit()]))
    """)
    assert "fork refused after" in printed
    assert int(printed.split("fork refused after ")[1].split()[0]) < SMALL.processes
    # every one of them was alive when the cell ended; run() checks that none outlived the job
    assert int(printed.split("alive in its namespace ")[1].split()[0]) >= 60


def test_file_size_is_bounded(pool: Pool) -> None:
    _, printed = run(pool, """
        import signal
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        try:
            with open("big", "wb") as handle:
                handle.write(b"x" * (8 * 2**20))
            print("wrote 8 MB")
        except OSError as err:
            print("refused:", type(err).__name__)
    """)
    assert "refused: OSError" in printed


def test_output_is_capped_and_a_flood_is_stopped(pool: Pool) -> None:
    result, printed = run(pool, "for _ in range(100):\n    print('x' * 100_000)")
    assert len(printed) < 2 * SMALL.output and "more characters of output dropped" in printed
    flood, _ = run(pool, "import os\nwhile True:\n    os.write(1, b'y' * 65536)")
    assert flood.reason.startswith("flooded")


def test_two_torch_distributed_ranks_run_on_loopback(pool: Pool) -> None:
    _, printed = run(pool, """
        import os
        import socket
        import torch
        import torch.distributed as dist
        # the store's server starts after the forks (autograder.engine.ranks says why)
        listener = socket.create_server(("127.0.0.1", 0))
        port = listener.getsockname()[1]
        pids = []
        for rank in range(2):
            pid = os.fork()
            if pid == 0:
                client = dist.TCPStore("127.0.0.1", port, 2, is_master=False)
                dist.init_process_group("gloo", store=client, rank=rank, world_size=2)
                value = torch.tensor([rank + 1.0])
                dist.all_reduce(value)
                client.set(f"sum{rank}", str(value.item()))
                dist.destroy_process_group()
                os._exit(0)
            pids.append(pid)
        store = dist.TCPStore("127.0.0.1", port, 2, is_master=True, wait_for_workers=False,
                              master_listen_fd=listener.detach())
        for pid in pids:
            os.waitpid(pid, 0)
        print("sums", store.get("sum0").decode(), store.get("sum1").decode())
    """)
    assert "sums 3.0 3.0" in printed, printed

"""Kernels for the tests' plain ``nbgrader autograde`` runs and JupyterLab, forked from one
process that has already imported what every chapter's setup cell imports first (torch, pytest,
IPython, ipykernel; not the course's package, which sets how the kernel shows errors when a cell
imports it) and the parts of torch the chapters' cells import later (``torch._dynamo``,
``torch.func``, ``torch.distributed.fsdp``, …).

A catalogue class runs each student's notebook in a fresh kernel; importing torch and the kernel
machinery again is a third of what a companion's notebook costs. Here nbgrader's ``Execute`` step
is given a kernel manager whose kernels a fork server starts: each is a new process, in a session of
its own, with the environment, working folder and command line jupyter_client asked for, that runs
``ipykernel_launcher`` as ``python -m ipykernel_launcher`` would. Nothing a notebook runs happens
before the fork, so every student's kernel starts from the same state a fresh interpreter reaches
after those imports. matplotlib is not imported before the fork: the kernel chooses its backend
when it starts, as a fresh one does.

:func:`forked_kernels` makes the nbgrader processes and Jupyter servers started inside it use these
kernels (through a config folder on ``JUPYTER_CONFIG_PATH``, whose ``nbgrader_config.py`` and
``jupyter_server_config.py`` name the kernel managers). nbval keeps fresh kernels: it checks what
a learner's kernel prints, and a forked kernel's stack is not a fresh one's (the server runs under
``python -c``, whose ``<string>`` frame sits below every cell's: a traceback of a forward call
that anomaly mode shows holds one frame more).
One server serves a test process for its whole run: it holds nothing of any notebook.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from jupyter_client.manager import AsyncKernelManager
from jupyter_client.provisioning.local_provisioner import LocalProvisioner

ROOT = Path(__file__).resolve().parents[1]
ADDRESS = "AUTOGRAD_STATE_KERNEL_SERVER"
LAUNCHER = "ipykernel_launcher"
_PR_SET_PDEATHSIG = 1


class _Forked:
    """A kernel the server forked, with the part of ``Popen`` that jupyter_client's provisioner uses.

    It is the server's child, not this process's: the server reaps it, and it is gone when
    ``/proc`` no longer lists it as running."""

    stdin = stdout = stderr = None

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                state = Path(f"/proc/{self.pid}/stat").read_text().rpartition(")")[2].split()[0]
            except (FileNotFoundError, IndexError):
                state = "X"
            if state in ("Z", "X"):
                self.returncode = 0
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(LAUNCHER, timeout)
            time.sleep(0.02)
        return self.returncode

    def send_signal(self, signum: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signum)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)


class ForkedProvisioner(LocalProvisioner):
    """jupyter_client's local provisioner, with the kernel process asked of the fork server."""

    async def launch_kernel(self, cmd: list[str], **kwargs: Any) -> Any:
        request = {"argv": cmd, "env": dict(kwargs.get("env") or os.environ),
                   "cwd": str(kwargs.get("cwd") or os.getcwd())}
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.connect(os.environ[ADDRESS])
            connection.sendall(json.dumps(request).encode() + b"\n")
            answer = connection.makefile("rb").readline()
        pid = json.loads(answer)["pid"]
        self.process = _Forked(pid)
        self.pid = self.pgid = pid  # the kernel leads a session of its own
        self.cwd = request["cwd"]
        return self.connection_info


class _Forking:
    """A kernel manager whose kernels the fork server starts (through :class:`ForkedProvisioner`)."""

    async def _async_pre_start_kernel(self, **kw: Any):
        if self.provisioner is None:
            self.kernel_id = self.kernel_id or kw.pop("kernel_id", None) or os.urandom(16).hex()
            self.provisioner = ForkedProvisioner(kernel_id=self.kernel_id, kernel_spec=self.kernel_spec, parent=self)
        return await super()._async_pre_start_kernel(**kw)


class ForkedKernelManager(_Forking, AsyncKernelManager):
    """The kernel manager nbgrader's ``Execute`` step is given inside :func:`forked_kernels`."""


def __getattr__(name: str) -> type:
    """``ForkedServerKernelManager``, a Jupyter server's, defined when its server asks for it (importing
    Jupyter server in every test process that imports this module would cost each of them)."""
    if name != "ForkedServerKernelManager":
        raise AttributeError(name)
    from jupyter_server.services.kernels.kernelmanager import ServerKernelManager

    manager = type(name, (_Forking, ServerKernelManager), {"__module__": __name__})
    globals()[name] = manager
    return manager


def _warm() -> None:
    # Besides what a setup cell imports, what the chapters' cells import on first use (about 1.5 s
    # together): the compiler's tracing and functionalization, the distributed wrappers,
    # checkpointing. None of it starts a thread.
    import ipykernel.ipkernel  # noqa: F401
    import ipykernel.kernelapp  # noqa: F401
    import IPython  # noqa: F401
    import numpy  # noqa: F401
    import pytest  # noqa: F401
    import torch  # noqa: F401
    import torch._dynamo.backends.common  # noqa: F401
    import torch.distributed.fsdp  # noqa: F401
    import torch.func  # noqa: F401
    import torch.fx.experimental.proxy_tensor  # noqa: F401
    import torch.nn.functional  # noqa: F401
    import torch.nn.parallel  # noqa: F401
    import torch.utils.checkpoint  # noqa: F401
    # Not the course's package: imported by a setup cell once IPython runs, it sets how the
    # kernel shows errors (autograder.engine.tracebacks); imported here, it would find no shell.


def _kernel(request: dict) -> None:
    """The forked child: become the kernel jupyter_client asked for; never returns."""
    code = 1
    try:
        os.setsid()
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        import random

        import numpy

        random.seed()  # a fresh interpreter seeds both from the system
        numpy.random.seed()
        argv = request["argv"]
        from ipykernel import kernelapp

        sys.argv = [argv[0], *argv[argv.index(LAUNCHER) + 1:]]
        kernelapp.launch_new_instance(argv=sys.argv[1:])
        code = 0
    finally:
        os._exit(code)


def serve(address: str) -> None:
    """The fork server: import once, then fork one kernel per connection."""
    ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)  # it ends with the test process, however that ends
    _warm()
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # kernels are reaped as they end
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(address)
        server.listen(8)
        print("ready", flush=True)
        while True:
            connection, _ = server.accept()
            with connection:
                request = json.loads(connection.makefile("rb").readline())
                pid = os.fork()
                if pid == 0:
                    server.close()
                    connection.close()
                    _kernel(request)
                connection.sendall(json.dumps({"pid": pid}).encode() + b"\n")


class _Server:
    """This process's fork server, started on first use and killed when the process ends (a
    process forked from this one leaves it alone)."""

    _folder: Path | None = None
    _process: subprocess.Popen | None = None

    @classmethod
    def folder(cls) -> Path:
        """Its folder: its socket, and the nbgrader and Jupyter server configs that name the kernel
        managers."""
        if cls._process is None or cls._process.poll() is not None:
            cls._folder = Path(tempfile.mkdtemp(prefix="forked-kernels-"))
            (cls._folder / "nbgrader_config.py").write_text(
                f"import sys\nsys.path.insert(0, {str(ROOT)!r})\nfrom tests.warm_kernels import ForkedKernelManager\n\n"
                "c.Execute.kernel_manager_class = ForkedKernelManager\n")
            (cls._folder / "jupyter_server_config.py").write_text(
                f"import sys\nsys.path.insert(0, {str(ROOT)!r})\n\n"
                "c.MappingKernelManager.kernel_manager_class = 'tests.warm_kernels.ForkedServerKernelManager'\n")
            address = str(cls._folder / "server.sock")
            cls._process = subprocess.Popen(
                [sys.executable, "-c", f"from tests.warm_kernels import serve; serve({address!r})"],
                cwd=ROOT, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, start_new_session=True)
            assert cls._process.stdout.readline().strip() == b"ready", "no kernel server"
        return cls._folder

    @classmethod
    def stop(cls) -> None:
        if cls._process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(cls._process.pid, signal.SIGKILL)
            cls._process.wait()
            cls._process = None

    @classmethod
    def forget(cls) -> None:
        cls._process = None


atexit.register(_Server.stop)
os.register_at_fork(after_in_child=_Server.forget)


@contextlib.contextmanager
def forked_kernels() -> Iterator[None]:
    """nbgrader processes and Jupyter servers started inside use kernels forked from this process's
    warm server."""
    folder = _Server.folder()
    saved = {name: os.environ.get(name) for name in (ADDRESS, "JUPYTER_CONFIG_PATH")}
    os.environ[ADDRESS] = str(folder / "server.sock")
    os.environ["JUPYTER_CONFIG_PATH"] = os.pathsep.join(filter(None, [str(folder), saved["JUPYTER_CONFIG_PATH"]]))
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value

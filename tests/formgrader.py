"""formgrader as an instructor runs it: ``jupyter server`` in the course folder, as root
(``--allow-root``), on loopback, with a token; its HTTP API called as the formgrader page calls it."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

TOKEN = "autograd-state-test"


class Formgrader:
    """A Jupyter server with nbgrader's formgrader for the course at ``root``, for a ``with`` block."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def __enter__(self) -> Formgrader:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.server = subprocess.Popen(
            [sys.executable, "-m", "jupyter", "server", "--allow-root", "--no-browser", "--ip=127.0.0.1",
             f"--port={self.port}", f"--IdentityProvider.token={TOKEN}", f"--ServerApp.root_dir={self.root}"],
            cwd=self.root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 120
        while True:
            try:
                self.get("/api/status")
                return self
            except OSError:
                if self.server.poll() is not None or time.monotonic() > deadline:
                    self.__exit__()
                    raise RuntimeError(f"jupyter server did not start:\n{self.log}") from None
                time.sleep(0.1)

    def __exit__(self, *exc: object) -> None:
        self.server.terminate()
        try:
            self.log = self.server.communicate(timeout=60)[0]
        except subprocess.TimeoutExpired:
            self.server.kill()
            self.log = self.server.communicate()[0]

    def get(self, path: str):
        return self._call("GET", path)

    def post(self, path: str):
        return self._call("POST", path)

    def _call(self, method: str, path: str):
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", method=method,
                                         data=b"" if method == "POST" else None,
                                         headers={"Authorization": f"token {TOKEN}"})
        with urllib.request.urlopen(request, timeout=300) as answer:
            return json.loads(answer.read() or b"null")

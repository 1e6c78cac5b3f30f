"""nbgrader's own autograde tests as the conformance bar of the course's recorder.

Runs ``nbgrader/tests/apps/test_nbgrader_autograde.py`` of the installed nbgrader twice in the
same run: as nbgrader ships it, and with :class:`autograder.pipeline.gradebook.recorder.AutogradeRecorder`
in ``Autograde``'s place (``bench/recorder_in_place.py``), then prints each test's outcome both
ways. With ``--repo``, first checks that the installed test file is the one in nbgrader's
repository at ``--ref`` (a bare git directory, e.g. the one the project's tools fetch).

    .venv/bin/python bench/nbgrader_conformance.py [--repo DIR --ref REF] [--workers 2]

Not part of the test suite: each pass takes minutes (every test starts kernels).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
TESTS = "nbgrader/tests/apps/test_nbgrader_autograde.py"


def installed_tests() -> tuple[str, Path]:
    import nbgrader

    return nbgrader.__version__, Path(nbgrader.__file__).parent.parent / TESTS


def outcomes(report: Path) -> dict[str, str]:
    found = {}
    for case in ElementTree.parse(report).iter("testcase"):
        kinds = [child.tag for child in case if child.tag in ("failure", "error", "skipped")]
        found[case.get("name")] = kinds[0] if kinds else "passed"
    return found


def run(workers: int, plugin: bool, folder: Path) -> tuple[dict[str, str], str]:
    report = folder / ("recorder.xml" if plugin else "nbgrader.xml")
    env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--pyargs",
               "nbgrader.tests.apps.test_nbgrader_autograde", f"--junitxml={report}", "-W", "ignore"]
    if workers > 1:
        command += ["-n", str(workers)]
    if plugin:
        env["PYTHONPATH"] = os.pathsep.join([str(BENCH), str(ROOT), env.get("PYTHONPATH", "")])
        command += ["-p", "recorder_in_place"]
    result = subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True)
    lines = result.stdout.strip().splitlines()
    said = [line for line in lines if line.startswith("recorder in place:")] + lines[-1:]
    return outcomes(report), "; ".join(said) if said else result.stderr


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, default=None, help="nbgrader's repository (a bare git directory)")
    parser.add_argument("--ref", default="HEAD", help="the ref of --repo to compare the installed tests with")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    version, path = installed_tests()
    print(f"nbgrader {version}: {path}")
    if args.repo:
        theirs = subprocess.run(["git", f"--git-dir={args.repo}", "show", f"{args.ref}:{TESTS}"], capture_output=True,
                                check=True).stdout
        same = theirs == path.read_bytes()
        print(f"{TESTS} at {args.ref} of {args.repo}: {'identical to' if same else 'DIFFERENT from'} the installed one")
        if not same:
            return 1
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        plain, plain_summary = run(args.workers, False, folder)
        recorder, recorder_summary = run(args.workers, True, folder)
    print("\n| test | nbgrader's Autograde | AutogradeRecorder |\n|---|---|---|")
    for name in sorted(set(plain) | set(recorder)):
        print(f"| {name} | {plain.get(name, '-')} | {recorder.get(name, '-')} |")
    print(f"\nnbgrader's Autograde: {plain_summary}\nAutogradeRecorder:   {recorder_summary}")
    return 0 if plain == recorder and all(v in ("passed", "skipped") for v in recorder.values()) else 1


if __name__ == "__main__":
    sys.exit(main())

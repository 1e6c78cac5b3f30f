"""A pytest plugin for nbgrader's own tests: its ``autograde`` app grades with the course's recorder.

``nbgrader.apps.autogradeapp`` makes its converter as ``Autograde(...)``; this puts
:class:`autograder.pipeline.gradebook.recorder.AutogradeRecorder` in that name's place for the session, and
counts the submissions it set up, so a run that never reached the recorder cannot pass for one that
did. Used by ``bench/nbgrader_conformance.py``.
"""

from __future__ import annotations

RAN = {"submissions": 0}


def pytest_configure(config) -> None:
    import nbgrader.apps.autogradeapp as app

    from autograder.pipeline.gradebook.recorder import AutogradeRecorder

    class Counted(AutogradeRecorder):
        def init_assignment(self, assignment_id: str, student_id: str) -> None:
            RAN["submissions"] += 1
            super().init_assignment(assignment_id, student_id)

    app.Autograde = Counted


def pytest_terminal_summary(terminalreporter) -> None:
    terminalreporter.write_line(f"recorder in place: {RAN['submissions']} submission(s) set up by AutogradeRecorder")

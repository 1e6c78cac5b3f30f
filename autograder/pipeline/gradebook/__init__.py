"""nbgrader's gradebook and what comes out of it: scores, flags, ledger, feedback, reports, exports."""

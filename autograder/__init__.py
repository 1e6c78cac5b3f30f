"""Autograd State's autograder: the checks that chapter test cells call.

Test cells import only :func:`grade` (and, through it, one chapter module of cases). The
instructor pipeline lives in :mod:`autograder.pipeline` and is never imported from here, so a
learner's kernel does not load it.

Importing it (every chapter's setup cell does) also makes the running IPython show an error a cell
raises with the cells' own frames and the message only (:mod:`autograder.tracebacks`).
"""

from autograder import tracebacks
from autograder.checks import grade

tracebacks.install()

__all__ = ["grade"]

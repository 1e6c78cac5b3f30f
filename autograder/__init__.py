"""Autograd State's autograder: the checks that chapter test cells call.

Test cells import only :func:`grade` (and, through it, one chapter module of cases). The
instructor pipeline lives in :mod:`autograder.pipeline` and is never imported from here, so a
learner's kernel does not load it.
"""

from autograder.checks import grade

__all__ = ["grade"]

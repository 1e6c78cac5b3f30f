"""The trusted answer key: reference answers, the models of catalogued mistakes, and the keys
they make.

Only the trusted grader (``autograd-state grade``) and an instructor's kernel import this
package. The grading sandbox cannot: its mount namespace hides this folder, as it hides the
gradebook, so nothing that runs beside a submission can compute what an answer should give. A
learner's installation does not carry it either: its visible checks compare against the keys of
:func:`answer_key.keys.visible_keys`, shipped as data.

One module per assignment, named as the observing side's (``answer_key.views`` keys the cases of
``autograder.chapters.views``).
"""

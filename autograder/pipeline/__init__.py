"""The instructor and maintainer pipeline around nbgrader: release, book, grade, feedback.

Nothing here is imported by chapter notebooks; it imports the chapter cases, never the reverse.
"""

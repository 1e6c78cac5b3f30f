"""Generate the student edition of each chapter with nbgrader's own ``generate_assignment``."""

from __future__ import annotations

from autograder.pipeline.course import Course


def release(course: Course, chapters: list[str] | None = None, db: str | None = None) -> list[str]:
    """Write ``release/<chapter>/<chapter>.ipynb`` for each chapter (all by default).

    Args:
        course: The course checkout.
        chapters: Chapter names; all chapters when None.
        db: Gradebook URL. Instructors release into their gradebook; the book build passes a
            throwaway one so that building the site never touches a real gradebook.

    Returns:
        The chapters released.
    """
    chapters = chapters or course.chapters()
    for chapter in chapters:
        if not course.source_notebook(chapter).exists():
            raise FileNotFoundError(f"no instructor source {course.source_notebook(chapter)}")
    if len(chapters) > 1 and sorted(chapters) == course.chapters():
        # Every chapter in one nbgrader run (its assignment id is a glob): nbgrader starts once,
        # not once per chapter, which was most of a course's release time.
        course.nbgrader("generate_assignment", "*", "--force", db=db)
    else:
        for chapter in chapters:
            course.nbgrader("generate_assignment", chapter, "--force", db=db)
    return chapters

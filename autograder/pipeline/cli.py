"""``autograd-state``: one command line for the course's maintainers and instructors.

    autograd-state release [CHAPTER ...]    student editions into release/ (nbgrader generate_assignment)
    autograd-state book                     release, stage and build the site into _build/html
    autograd-state book --edition instructor  also the instructor edition (solutions shown, collapsed)
    autograd-state grade CHAPTER            nbgrader autograde, then zero and flag tampered exercises
    autograd-state feedback CHAPTER         feedback HTML for learners (hidden tests removed)
    autograd-state export                   grades.csv from the gradebook
    autograd-state normalize [NOTEBOOK ...] execute instructor notebooks and store them normalised
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from autograder.pipeline.course import Course


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="autograd-state", description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=None, help="course root (default: this checkout)")
    parser.add_argument("--db", default=None, help="gradebook URL (default: sqlite:///<root>/gradebook.db)")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("release", help="generate student editions").add_argument("chapters", nargs="*")
    book = commands.add_parser("book", help="build the static site from the student editions")
    book.add_argument(
        "--edition", choices=("student", "instructor"), default="student",
        help="instructor: also build the edition with solutions and hidden tests, into _build/instructor",
    )
    commands.add_parser("grade", help="autograde a chapter's submissions").add_argument("chapter")
    commands.add_parser("feedback", help="generate learner feedback").add_argument("chapter")
    commands.add_parser("export", help="export grades to grades.csv")
    commands.add_parser("normalize", help="execute and store instructor notebooks").add_argument(
        "notebooks", nargs="*", type=Path
    )
    args = parser.parse_args(argv)
    course = Course(args.root.resolve()) if args.root else Course()

    if args.command == "release":
        from autograder.pipeline.release import release

        for chapter in release(course, args.chapters or None, db=args.db):
            print(f"released {course.release_notebook(chapter).relative_to(course.root)}")
    elif args.command == "book":
        from autograder.pipeline.book import build_book

        site = build_book(course, edition=args.edition)
        print(f"The {args.edition} edition of the book is built: open {site / 'index.html'}")
    elif args.command == "grade":
        from autograder.pipeline.grade import autograde

        flags = autograde(course, args.chapter, db=args.db)
        for flag in flags:
            print(f"flagged {flag.student} {flag.grade_id or flag.chapter}: {flag.reason}")
        print(f"graded {args.chapter}; {len(flags)} flag(s) in autograded/{args.chapter}-flags.csv")
    elif args.command == "feedback":
        course.nbgrader("generate_feedback", args.chapter, "--force", db=args.db)
        print(f"feedback written under {course.root / 'feedback'}")
    elif args.command == "export":
        course.nbgrader("export", db=args.db)
        print(f"grades written to {course.root / 'grades.csv'}")
    elif args.command == "normalize":
        from autograder.pipeline.normalize import execute_and_normalize

        for path in args.notebooks or [course.source_notebook(c) for c in course.chapters()]:
            execute_and_normalize(path)
            print(f"normalized {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

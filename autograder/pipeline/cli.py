"""``autograd-state``: one command line for the course's maintainers and instructors.

    autograd-state release [CHAPTER ...]    student editions into release/ (nbgrader generate_assignment)
    autograd-state book                     release, stage and build the site into _build/html
    autograd-state book --edition instructor  also the instructor edition (solutions shown, collapsed)
    autograd-state book --pdf               also print the student edition to _build/pdf/autograd-state.pdf
    autograd-state collect CHAPTER SOURCE   a folder or archive of notebooks into submitted/ (problems reported)
    autograd-state grade CHAPTER            grade in the sandbox into nbgrader's gradebook; zero tampered exercises
    autograd-state feedback CHAPTER         feedback HTML for learners (hidden tests removed)
    autograd-state export                   grades.csv from the gradebook
    autograd-state report CHAPTER           class report: score spread and frequent misconceptions (PNG, HTML, CSV)
    autograd-state day CHAPTER SOURCE       collect, grade, feedback, export and report in one go
    autograd-state normalize [NOTEBOOK ...] execute instructor notebooks and store them normalised
"""

from __future__ import annotations

import argparse
import os
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
    book.add_argument("--pdf", action="store_true", help="also print the student edition to _build/pdf/")
    collect = commands.add_parser("collect", help="collect submissions into submitted/")
    collect.add_argument("chapter")
    collect.add_argument("source", type=Path, help="folder, .zip or .tar(.gz) of notebooks")
    _grading_options(commands.add_parser("grade", help="grade a chapter's submissions in the sandbox"))
    commands.add_parser("feedback", help="generate learner feedback").add_argument("chapter")
    commands.add_parser("export", help="export grades to grades.csv")
    commands.add_parser("report", help="class report of a chapter").add_argument("chapter")
    day = _grading_options(commands.add_parser("day", help="collect, grade, feedback, export, report"))
    day.add_argument("source", type=Path, help="folder, .zip or .tar(.gz) of notebooks")
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
        if args.pdf:
            from autograder.pipeline.book import print_book

            print(f"The student edition is printed: {print_book(course, course.build / 'html')}")
    elif args.command == "collect":
        _collect(course, args)
    elif args.command == "grade":
        return _grade(course, args)
    elif args.command == "feedback":
        course.nbgrader("generate_feedback", args.chapter, "--force", db=args.db)
        print(f"feedback written under {course.root / 'feedback'}")
    elif args.command == "export":
        course.nbgrader("export", db=args.db)
        print(f"grades written to {course.root / 'grades.csv'}")
    elif args.command == "report":
        from autograder.pipeline.report import class_report

        print(f"class report: open {class_report(course, args.chapter, db=args.db)}")
    elif args.command == "day":
        _collect(course, args)
        if _grade(course, args):
            return 2
        for step in (["feedback", args.chapter], ["export"], ["report", args.chapter]):
            main([*(["--root", str(course.root)]), *(["--db", args.db] if args.db else []), *step])
    elif args.command == "normalize":
        from autograder.pipeline.normalize import execute_and_normalize

        for path in args.notebooks or [course.source_notebook(c) for c in course.chapters()]:
            execute_and_normalize(path)
            print(f"normalized {path}")
    return 0


def _grading_options(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument("chapter")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="sandboxes in parallel (cores)")
    parser.add_argument("--shard", default=None, metavar="I/N", help="grade shard I of N (0-based) of the students")
    parser.add_argument("--force", action="store_true", help="regrade submissions already graded as they are")
    parser.add_argument("--timeout", type=float, default=None, help="seconds of wall-clock time per submission")
    parser.add_argument("--unsafe-nbgrader", action="store_true",
                        help="plain `nbgrader autograde` (runs tests in the submission's kernel; no sandbox)")
    return parser


def _collect(course: Course, args: argparse.Namespace) -> None:
    from autograder.pipeline.collect import collect

    students, problems = collect(course, args.chapter, args.source)
    for problem in problems:
        print(f"not collected: {problem.path}: {problem.reason}")
    print(f"collected {len(students)} submission(s) of {args.chapter}; {len(problems)} file(s) not used "
          f"(submitted/{args.chapter}-collect.csv)")


def _grade(course: Course, args: argparse.Namespace) -> int:
    if args.unsafe_nbgrader:
        from autograder.pipeline.grade import autograde

        flags = autograde(course, args.chapter, db=args.db)
    else:
        from autograder.pipeline.confine import Limits
        from autograder.pipeline.pool import SandboxUnavailable
        from autograder.pipeline.sandboxed import grade_chapter

        shard = None
        if args.shard:
            index, _, count = args.shard.partition("/")
            shard = (int(index), int(count))
            if not 0 <= shard[0] < shard[1]:
                raise SystemExit(f"--shard {args.shard}: expected I/N with 0 <= I < N")
        limits = Limits(wall=args.timeout) if args.timeout else None
        try:
            outcome = grade_chapter(course, args.chapter, db=args.db, workers=args.workers, shard=shard,
                                    limits=limits, force=args.force)
        except SandboxUnavailable as err:
            print(f"cannot grade safely here: {err}. Run as root on Linux (or pass --unsafe-nbgrader).",
                  file=sys.stderr)
            return 2
        flags = outcome.flags
        print(f"graded {len(outcome.graded)} submission(s); {len(outcome.skipped)} unchanged and already graded")
    for flag in flags:
        print(f"flagged {flag.student} {flag.grade_id or flag.chapter}: {flag.reason}")
    print(f"graded {args.chapter}; {len(flags)} flag(s) in autograded/{args.chapter}-flags.csv")
    return 0


if __name__ == "__main__":
    sys.exit(main())

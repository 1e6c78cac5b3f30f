"""``autograd-state``: one command line for the course's maintainers and instructors.

    autograd-state release [CHAPTER ...]    student editions into release/ (nbgrader generate_assignment)
    autograd-state release --changed        only the chapters whose source changed since they were released
    autograd-state book                     release, stage and build the site into _build/html
    autograd-state book --edition instructor  also the instructor edition (solutions shown, collapsed)
    autograd-state book --pdf               also print the student edition to _build/pdf/autograd-state.pdf
    autograd-state collect CHAPTER SOURCE   a folder, archive or LMS download into submitted/ (problems reported)
    autograd-state grade CHAPTER            grade in the sandbox into nbgrader's gradebook; zero tampered exercises
    autograd-state feedback CHAPTER         feedback HTML for learners (hidden tests removed)
    autograd-state export [--format F]      the gradebook as nbgrader's grades.csv, or for Canvas or Moodle
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
    release = commands.add_parser("release", help="generate student editions")
    release.add_argument("chapters", nargs="*")
    release.add_argument("--changed", action="store_true",
                         help="only the chapters whose source or nbgrader_config.py changed since they were "
                              "released into this gradebook")
    book = commands.add_parser("book", help="build the static site from the student editions")
    book.add_argument(
        "--edition", choices=("student", "instructor"), default="student",
        help="instructor: also build the edition with solutions and hidden tests, into _build/instructor",
    )
    book.add_argument("--pdf", action="store_true", help="also print the student edition to _build/pdf/")
    collect = _bound_options(commands.add_parser("collect", help="collect submissions into submitted/"))
    collect.add_argument("chapter")
    collect.add_argument("source", type=Path, help="folder, .zip or .tar(.gz) of notebooks: nbgrader's layout, "
                                                   "Canvas's Download Submissions, Moodle's Download all submissions")
    _roster_option(collect)
    _grading_options(commands.add_parser("grade", help="grade a chapter's submissions in the sandbox"))
    commands.add_parser("feedback", help="generate learner feedback").add_argument("chapter")
    export = _export_options(commands.add_parser("export", help="export the gradebook for nbgrader, Canvas or Moodle"))
    export.add_argument("--output", type=Path, default=None,
                        help="file to write (default: grades.csv, grades-canvas.csv, grades-moodle.csv)")
    commands.add_parser("report", help="class report of a chapter").add_argument("chapter")
    day = _grading_options(commands.add_parser("day", help="collect, grade, feedback, export, report"))
    day.add_argument("source", type=Path, help="folder, .zip or .tar(.gz) of notebooks, or an LMS's download")
    _roster_option(day)
    _export_options(day)
    commands.add_parser("normalize", help="execute and store instructor notebooks").add_argument(
        "notebooks", nargs="*", type=Path
    )
    args = parser.parse_args(argv)
    course = Course(args.root.resolve()) if args.root else Course()

    if args.command == "release":
        from autograder.pipeline.site.release import changed, release

        chapters = args.chapters or None
        if args.changed:
            chapters = [c for c in changed(course, args.db) if not args.chapters or c in args.chapters]
            if not chapters:
                print("every chapter's student edition is up to date")
                return 0
        for chapter in release(course, chapters, db=args.db, progress=True):
            print(f"released {course.release_notebook(chapter).relative_to(course.root)}")
    elif args.command == "book":
        from autograder.pipeline.site.book import build_book

        site = build_book(course, edition=args.edition, progress=True)
        print(f"The {args.edition} edition of the book is built: open {site / 'index.html'}")
        if args.pdf:
            from autograder.pipeline.site.book import print_book

            print(f"The student edition is printed: {print_book(course, course.build / 'html')}")
    elif args.command == "collect":
        _collect(course, args)
    elif args.command == "grade":
        return _grade(course, args)
    elif args.command == "feedback":
        from autograder.pipeline.gradebook.feedback import generate_feedback

        print(f"feedback written under {generate_feedback(course, args.chapter, db=args.db, progress=True)}")
    elif args.command == "export":
        _export(course, args)
    elif args.command == "report":
        from autograder.pipeline.gradebook.report import class_report

        print(f"class report: open {class_report(course, args.chapter, db=args.db, progress=True)}")
    elif args.command == "day":
        if _collect(course, args):
            return 2
        if _grade(course, args):
            return 2
        export = ["export", "--format", args.format, "--match", args.match]
        for step in (["feedback", args.chapter], export, ["report", args.chapter]):
            main([*(["--root", str(course.root)]), *(["--db", args.db] if args.db else []), *step])
    elif args.command == "normalize":
        from autograder.pipeline.site.normalize import execute_and_normalize

        for path in args.notebooks or [course.source_notebook(c) for c in course.chapters()]:
            execute_and_normalize(path)
            print(f"normalized {path}")
    return 0


def _grading_options(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument("chapter")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="sandboxes in parallel (cores)")
    parser.add_argument("--shard", default=None, metavar="I/N|auto",
                        help="grade shard I of N (0-based) of the students; auto: from the Slurm array, "
                             "Kubernetes Indexed Job or CI matrix variables")
    parser.add_argument("--shard-count", type=int, default=None, metavar="N",
                        help="with --shard auto on a Kubernetes Indexed Job: the Job's completions")
    parser.add_argument("--force", action="store_true", help="regrade submissions already graded as they are")
    parser.add_argument("--student", dest="students", action="append", default=None, metavar="ID",
                        help="grade only this student (repeat for several)")
    parser.add_argument("--timeout", type=float, default=None, help="seconds of wall-clock time per submission")
    parser.add_argument("--no-prefix", dest="prefix", action="store_false",
                        help="run every submission from its first cell instead of forking it from the "
                             "chapter's locked cells, run once (the grades are the same; for diagnosis)")
    parser.add_argument("--nbgrader-recording", dest="one_session", action="store_false",
                        help="record each submission through nbgrader's own Autograde converter, which opens "
                             "the gradebook at every step, instead of one session for the run (the grades are "
                             "the same; for diagnosis)")
    parser.add_argument("--unsafe-nbgrader", action="store_true",
                        help="plain `nbgrader autograde` (runs tests in the submission's kernel; no sandbox)")
    return _bound_options(parser)


def _bound_options(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    from autograder.pipeline.intake.bounds import Bounds, option, variable

    limits = parser.add_argument_group("limits on what a submission may hold (also AUTOGRAD_STATE_MAX_* variables)")
    for name in Bounds.option_names():
        limits.add_argument(option(name), dest=f"max_{name}", type=int, default=None, metavar="N",
                            help=f"default {getattr(Bounds(), name)} ({variable(name)})")
    return parser


def _roster_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--roster", type=Path, default=None, metavar="CSV",
                        help="the LMS's roster: Canvas's gradebook export, Moodle's grading worksheet or gradebook "
                             "export; maps each learner to the identifiers the LMS's grade import matches on")


def _export_options(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument("--format", choices=("csv", "canvas", "moodle"), default="csv",
                        help="csv: nbgrader's grades.csv; canvas, moodle: each LMS's grade import (default: csv)")
    parser.add_argument("--match", choices=("email", "idnumber", "username"), default="email",
                        help="moodle: the user field Moodle's import maps from (default: email); learners "
                             "without it are left out and named")
    return parser


def _bounds(args: argparse.Namespace):
    """The limits the options give, also put in the environment so every grading step sees them."""
    from autograder.pipeline.intake.bounds import Bounds, variable

    try:
        bounds = Bounds.from_env(**{n: getattr(args, f"max_{n}") for n in Bounds.option_names()})
    except ValueError as err:
        raise SystemExit(str(err)) from None
    for name in Bounds.option_names():
        os.environ[variable(name)] = str(getattr(bounds, name))
    return bounds


def _collect(course: Course, args: argparse.Namespace) -> int:
    from autograder.pipeline.intake.collect import collect
    from autograder.pipeline.intake.lms import RosterError, read_roster

    roster = None
    if args.roster:
        try:
            roster = read_roster(args.roster.read_text(encoding="utf-8-sig"))
        except (OSError, UnicodeDecodeError, RosterError) as err:
            print(f"cannot read the roster {args.roster}: {err}", file=sys.stderr)
            return 2
    students, problems = collect(course, args.chapter, args.source, _bounds(args), roster=roster, db=args.db,
                                 progress=True)
    said = {"refused": "not collected", "dropped": "not collected", "collected": "collected"}
    for problem in problems:
        who = f" ({problem.student})" if problem.student else ""
        print(f"{said[problem.action]}: {problem.path}{who}: {problem.reason}")
    unused = sum(p.action in ("refused", "dropped") for p in problems)
    print(f"collected {len(students)} submission(s) of {args.chapter}; {unused} file(s) not used "
          f"(submitted/{args.chapter}-collect.csv)")
    return 0


def _export(course: Course, args: argparse.Namespace) -> None:
    from autograder.pipeline.gradebook.export import export

    notes: list[str] = []
    path = export(course, args.format, output=args.output, db=args.db, match=args.match, notes=notes,
                  progress=True)
    for note in notes:
        print(f"note: {note}")
    print(f"grades written to {path} ({args.format})")


def _grade(course: Course, args: argparse.Namespace) -> int:
    from autograder.pipeline.gradebook.flags import explain

    bounds = _bounds(args)
    if args.unsafe_nbgrader:
        from autograder.pipeline.grading.grade import autograde

        if args.shard or args.students:
            raise SystemExit("--shard and --student grade in the sandbox; --unsafe-nbgrader grades the whole class")
        flags = autograde(course, args.chapter, db=args.db, bounds=bounds)
    else:
        from autograder.pipeline.gradebook.ledger import Ledger
        from autograder.pipeline.gradebook.shards import ShardError, resolve

        shard = None
        if args.shard:
            try:
                found = resolve(args.shard, os.environ, args.shard_count)
            except ShardError as err:
                raise SystemExit(str(err)) from None
            print(f"grading {found}")
            shard = (found.index, found.count)
        students = set(args.students) if args.students else None
        ledger = Ledger.of(course, args.chapter, shard)
        check = ledger.check(course, args.chapter, args.db or course.gradebook_url, bounds, shard, students, args.force)
        if not check.todo:  # nothing to grade: answered without importing the grader
            from autograder.pipeline.gradebook.flags import Flag, write_flags

            skipped = [*check.unchanged, *check.refused]
            flags = [Flag(s, args.chapter, g, r) for s in skipped for g, r in ledger.flags(s)]
            name = f"-shard{shard[0]}of{shard[1]}" if shard else ""
            write_flags(course.autograded / f"{args.chapter}{name}-flags.csv", flags)
            print(f"graded 0 submission(s), 0 of them forked from the chapter's locked cells; "
                  f"{len(check.unchanged)} unchanged and already graded")
        else:
            from autograder.pipeline.grading.sandboxed import grade_chapter
            from autograder.pipeline.sandbox.confine import Limits
            from autograder.pipeline.sandbox.pool import SandboxUnavailable

            limits = Limits(wall=args.timeout) if args.timeout else None
            try:
                outcome = grade_chapter(course, args.chapter, db=args.db, workers=args.workers, shard=shard,
                                        limits=limits, force=args.force, prefix=args.prefix,
                                        one_session=args.one_session, students=students, bounds=bounds)
            except SandboxUnavailable as err:
                print(f"cannot grade safely here: {err}. Run as root on Linux (or pass --unsafe-nbgrader).",
                      file=sys.stderr)
                return 2
            flags = outcome.flags
            print(f"graded {len(outcome.graded)} submission(s), {len(outcome.forked)} of them forked from the "
                  f"chapter's locked cells; {len(outcome.skipped)} unchanged and already graded")
            if outcome.changed_elsewhere:
                print(f"graded again {len(outcome.changed_elsewhere)} submission(s) whose gradebook scores or "
                      "autograded notebook had changed since `grade` recorded them (another route wrote them: "
                      f"formgrader's Autograde, `nbgrader autograde`, an edit): {', '.join(outcome.changed_elsewhere)}")
    for flag in flags:
        print(f"flagged {flag.student} {flag.grade_id or flag.chapter}: {explain(flag.reason)}")
    print(f"graded {args.chapter}; {len(flags)} flag(s) in autograded/{args.chapter}-flags.csv")
    return 0


if __name__ == "__main__":
    sys.exit(main())

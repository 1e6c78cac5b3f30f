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
    autograd-state similarity CHAPTER       similar answers in the class, for the instructor (HTML, CSV)
    autograd-state day CHAPTER SOURCE       collect, grade, feedback, export, report and similarity in one go
    autograd-state normalize [NOTEBOOK ...] execute instructor notebooks and store them normalised

An error is one line on stderr that says what to do (exit status 2); ``--debug`` shows its traceback.
Every command that writes an output for learners ends with the chapter's roll: each learner once,
with their state (:mod:`autograder.pipeline.gradebook.roll`).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from autograder.pipeline.course import Course


class CommandError(Exception):
    """An error the instructor can act on: its text is one line that says what to do."""


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return _run(args)
    except Exception as err:  # noqa: BLE001 - every error is told in one line; --debug shows where it came from
        from autograder.pipeline.progress import end_line

        end_line()
        if args.debug:
            raise
        print(f"autograd-state {args.command}: {_one_line(err)}", file=sys.stderr)
        return 2


def _one_line(err: Exception) -> str:
    """What an error says to the instructor, in one line, and what to do about it."""
    if isinstance(err, CommandError):
        return str(err)
    if isinstance(err, OSError) and err.filename is not None:
        return f"{err.filename}: {(err.strerror or str(err)).lower()}; check the path"
    first = (str(err).strip().splitlines() or [""])[0][:300]
    return f"{type(err).__name__}: {first} (run again with --debug to see where it failed)"


def _path(text: str) -> Path:
    """A path as given, with ``~`` expanded where the shell did not (inside quotes)."""
    return Path(text).expanduser()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="autograd-state", description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=_path, default=None, help="course root (default: this checkout)")
    parser.add_argument("--db", default=None, help="gradebook URL (default: sqlite:///<root>/gradebook.db)")
    parser.add_argument("--debug", action="store_true", help="on an error, show its traceback")
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
    collect.add_argument("source", type=_path, help="folder, .zip or .tar(.gz) of notebooks: nbgrader's layout, "
                                                    "Canvas's Download Submissions, Moodle's Download all submissions")
    _roster_option(collect)
    _grading_options(commands.add_parser("grade", help="grade a chapter's submissions in the sandbox"))
    commands.add_parser("feedback", help="generate learner feedback").add_argument("chapter")
    export = _export_options(commands.add_parser("export", help="export the gradebook for nbgrader, Canvas or Moodle"))
    export.add_argument("--output", type=_path, default=None,
                        help="file to write (default: grades.csv, grades-canvas.csv, grades-moodle.csv)")
    commands.add_parser("report", help="class report of a chapter").add_argument("chapter")
    similarity = commands.add_parser("similarity", help="similar answers in a chapter's class, for the instructor")
    similarity.add_argument("chapter")
    _against_option(similarity)
    day = _grading_options(commands.add_parser("day", help="collect, grade, feedback, export, report, similarity"))
    day.add_argument("source", type=_path, help="folder, .zip or .tar(.gz) of notebooks, or an LMS's download")
    _roster_option(day)
    _export_options(day)
    _against_option(day)
    commands.add_parser("normalize", help="execute and store instructor notebooks").add_argument(
        "notebooks", nargs="*", type=_path
    )
    return parser


def _run(args: argparse.Namespace) -> int:
    if args.root is not None and not (args.root / "nbgrader_config.py").exists():
        raise CommandError(f"--root {args.root}: not a course (no nbgrader_config.py in it); give the course's folder")
    course = Course(args.root.resolve()) if args.root else Course()
    if getattr(args, "chapter", None) is not None:
        _known_chapter(course, args.chapter, released=args.command != "release")

    if args.command == "release":
        from autograder.pipeline.site.release import changed, release

        for chapter in args.chapters:
            _known_chapter(course, chapter, released=False)
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
        _grade(course, args)
    elif args.command == "feedback":
        _feedback(course, args)
    elif args.command == "export":
        _export(course, args)
    elif args.command == "report":
        from autograder.pipeline.gradebook.report import class_report

        print(f"class report: open {class_report(course, args.chapter, db=args.db, progress=True)}")
        _print_roll(course, args.chapter, args.db)
    elif args.command == "similarity":
        _similarity(course, args)
    elif args.command == "day":  # each step as its command, the chapter's roll once at the end
        _collect(course, args, roll=False)
        _grade(course, args, roll=False)
        _feedback(course, args, roll=False)
        _export(course, args)
        from autograder.pipeline.gradebook.report import class_report

        print(f"class report: open {class_report(course, args.chapter, db=args.db, progress=True)}")
        _similarity(course, args)
        _print_roll(course, args.chapter, args.db)
    elif args.command == "normalize":
        from autograder.pipeline.site.normalize import execute_and_normalize

        for path in args.notebooks or [course.source_notebook(c) for c in course.chapters()]:
            if not path.exists():
                raise CommandError(f"{path}: no such notebook; check the path")
            execute_and_normalize(path)
            print(f"normalized {path}")
    return 0


def _known_chapter(course: Course, chapter: str, released: bool) -> None:
    """Stop, saying what to do, at a chapter the course does not have or has not released."""
    if not course.source_notebook(chapter).exists():
        raise CommandError(f"no chapter {chapter!r} in this course; the chapters are {', '.join(course.chapters())}")
    if released and not course.release_notebook(chapter).exists():
        raise CommandError(f"{chapter} is not released yet: run `autograd-state release {chapter}` first")


def _print_roll(course: Course, chapter: str, db: str | None, note: str = "") -> None:
    """Print the chapter's roll: every learner once, with their state."""
    from autograder.pipeline.gradebook.roll import roll, summary

    for line in summary(chapter, roll(course, chapter, db)):
        print(line)
    if note:
        print(note)


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
    parser.add_argument("--roster", type=_path, default=None, metavar="CSV",
                        help="the LMS's roster: Canvas's gradebook export, Moodle's grading worksheet or gradebook "
                             "export; maps each learner to the identifiers the LMS's grade import matches on")


def _export_options(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument("--format", choices=("csv", "canvas", "moodle"), default="csv",
                        help="csv: nbgrader's grades.csv; canvas, moodle: each LMS's grade import (default: csv)")
    parser.add_argument("--match", choices=("email", "idnumber", "username"), default="email",
                        help="moodle: the user field Moodle's import maps from (default: email); learners "
                             "without it are left out and named")
    parser.add_argument("--assignment", dest="assignments", action="append", default=None, metavar="CHAPTER",
                        help="export this chapter (repeat for several; default: every chapter with a submission)")
    return parser


def _against_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--against", type=_path, action="append", default=[], metavar="DIR",
                        help="also compare with an earlier term's submissions: its course folder or its submitted/ "
                             "folder (<student>/<chapter>/<chapter>.ipynb); repeat for several terms")


def _similarity(course: Course, args: argparse.Namespace) -> None:
    from autograder.pipeline.gradebook.similarity import THRESHOLD
    from autograder.pipeline.gradebook.similarity_report import OVERALL, similarity_report

    for folder in args.against:
        if not folder.is_dir():
            raise CommandError(f"--against {folder}: no such folder; give an earlier term's course folder or its "
                               "submitted/ folder")
    try:
        written = similarity_report(course, args.chapter, args.against, progress=True)
    except FileNotFoundError as err:  # an earlier term's folder without this chapter
        raise CommandError(f"--against {err}; give the folder that holds that term's submissions") from None
    print(f"similarity report: open {written.index}")
    counts = written.standing_out
    where = [f"{counts[OVERALL]} overall"] if OVERALL in counts else []
    where += [f"{n} in {grade_id}" for grade_id, n in sorted(counts.items()) if grade_id != OVERALL]
    print(f"{args.chapter}: {written.compared} learner(s) compared; pairs at or above {THRESHOLD:g}: "
          f"{', '.join(where) or 'none'} (leads for a conversation, never verdicts)")
    for learner, why in sorted(written.unread.items()):
        print(f"not compared: {learner}: {why}")


def _bounds(args: argparse.Namespace):
    """The limits the options give, also put in the environment so every grading step sees them."""
    from autograder.pipeline.intake.bounds import Bounds, variable

    try:
        bounds = Bounds.from_env(**{n: getattr(args, f"max_{n}") for n in Bounds.option_names()})
    except ValueError as err:
        raise CommandError(str(err)) from None
    for name in Bounds.option_names():
        os.environ[variable(name)] = str(getattr(bounds, name))
    return bounds


def _collect(course: Course, args: argparse.Namespace, roll: bool = True) -> None:
    from autograder.pipeline.intake.collect import collect
    from autograder.pipeline.intake.lms import RosterError, read_roster

    if not args.source.exists():
        raise CommandError(f"{args.source}: no such file or folder; give the folder or archive of submissions")
    roster = None
    if args.roster:
        try:
            roster = read_roster(args.roster.read_text(encoding="utf-8-sig"))
        except (OSError, UnicodeDecodeError, RosterError) as err:
            why = (err.strerror or str(err)).lower() if isinstance(err, OSError) else str(err)
            raise CommandError(f"cannot read the roster {args.roster}: {why}; give the CSV the LMS exports") from None
    try:
        students, problems = collect(course, args.chapter, args.source, _bounds(args), roster=roster, db=args.db,
                                     progress=True)
    except ValueError as err:  # not a folder, zip or tar
        raise CommandError(f"{err}; give a folder, .zip or .tar(.gz) of notebooks") from None
    said = {"refused": "not collected", "dropped": "not collected", "collected": "collected"}
    for problem in problems:
        who = f" ({problem.student})" if problem.student else ""
        print(f"{said[problem.action]}: {problem.path}{who}: {problem.reason}")
    unused = sum(p.action in ("refused", "dropped") for p in problems)
    print(f"collected {len(students)} submission(s) of {args.chapter}; {unused} file(s) not used "
          f"(submitted/{args.chapter}-collect.csv)")
    if roll:
        _print_roll(course, args.chapter, args.db)


def _export(course: Course, args: argparse.Namespace) -> None:
    from autograder.pipeline.gradebook.export import ExportError, export

    notes: list[str] = []
    try:
        path = export(course, args.format, output=getattr(args, "output", None), db=args.db, match=args.match,
                      notes=notes, progress=True, assignments=args.assignments)
    except ExportError as err:
        raise CommandError(str(err)) from None
    for note in notes:
        print(f"note: {note}")
    print(f"grades written to {path} ({args.format})")


def _feedback(course: Course, args: argparse.Namespace, roll: bool = True) -> None:
    from autograder.pipeline.gradebook.feedback import generate_feedback

    print(f"feedback written under {generate_feedback(course, args.chapter, db=args.db, progress=True)}")
    if roll:
        _print_roll(course, args.chapter, args.db, "each learner graded or untouched has a feedback page; "
                                                   "the others have none")


def _grade(course: Course, args: argparse.Namespace, roll: bool = True) -> None:
    from autograder.pipeline.gradebook.flags import explain, submissions

    bounds = _bounds(args)
    if args.students:
        have = {student for student, _ in submissions(course, args.chapter)}
        unknown = [s for s in dict.fromkeys(args.students) if s not in have]
        if unknown:
            listed = ", ".join(sorted(have)[:20]) or "none yet"
            raise CommandError(f"--student {', '.join(map(repr, unknown))}: no submission of {args.chapter} by that "
                               f"student in submitted/ (students with one: {listed}); check the id, or collect "
                               "theirs first")
    if args.unsafe_nbgrader:
        from autograder.pipeline.grading.grade import autograde

        if args.shard or args.students:
            raise CommandError("--shard and --student grade in the sandbox; --unsafe-nbgrader grades the whole "
                               "class: leave them out")
        flags = autograde(course, args.chapter, db=args.db, bounds=bounds)
    else:
        from autograder.pipeline.gradebook.ledger import Ledger
        from autograder.pipeline.gradebook.shards import ShardError, resolve

        shard = None
        if args.shard:
            try:
                found = resolve(args.shard, os.environ, args.shard_count)
            except ShardError as err:
                raise CommandError(str(err)) from None
            print(f"grading {found}")
            shard = (found.index, found.count)
        students = set(args.students) if args.students else None
        ledger = Ledger.of(course, args.chapter, shard)
        check = ledger.check(course, args.chapter, args.db or course.gradebook_url, bounds, shard, students, args.force)
        if not check.todo:  # nothing to grade: answered without importing the grader
            from autograder.pipeline.gradebook.flags import Flag

            skipped = [*check.unchanged, *check.refused]
            flags = [Flag(s, args.chapter, g, r) for s in skipped for g, r in ledger.flags(s)]
            name = f"-shard{shard[0]}of{shard[1]}" if shard else ""
            ledger.write_flags(course.autograded / f"{args.chapter}{name}-flags.csv", args.chapter)
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
                raise CommandError(f"cannot grade safely here: {err}. Run as root on Linux (or pass "
                                   "--unsafe-nbgrader)") from None
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
    if roll:
        _print_roll(course, args.chapter, args.db)


if __name__ == "__main__":
    sys.exit(main())

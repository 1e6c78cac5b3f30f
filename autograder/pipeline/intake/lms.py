"""Who handed in a file: the names nbgrader, Canvas and Moodle give submissions, and the rosters
the LMSs export.

**Names.** A file of a class download is read as one of these, first match wins:

- *Canvas*, "Download Submissions" (``lib/content_zipper.rb``, ``get_filename`` and
  ``add_upload_submission``): ``<name>[_LATE]_<user id>_<file id>_<file name>``. ``<name>`` is
  the learner's sortable name, lower case, without spaces or punctuation (``smithbob``); anonymous
  grading writes ``anon_<anonymous id>`` in place of ``<name>_<user id>``. A file uploaded again
  under a name the learner already used is renamed ``<stem>-<n>.ipynb`` (``Attachment.
  make_unique_filename``, ``app/models/attachment.rb``), and the later upload has the larger file id.
- *Moodle*, "Download all submissions" (``mod/assign/locallib.php``, ``download_submissions``): one
  folder per learner and plugin, ``<full name>_<participant id>_assignsubmission_file_/<file name>``,
  or, with "Download submissions in folders" off, the file ``<full name>_<participant
  id>_assignsubmission_file_<file name>``; ``Participant`` in place of the name under blind
  marking. A file uploaded under a name already there becomes ``<stem> (<n>).ipynb``
  (``file_storage::get_unused_filename``, ``lib/filestorage/file_storage.php``). The participant
  id is the assignment's own (``assign_user_mapping``): Moodle's grading worksheet lists it as
  ``Participant <id>`` under ``Identifier``.
- *nbgrader and plain archives*: ``<student>/<chapter>.ipynb``, ``<student>/<chapter>/<chapter>.ipynb``,
  ``<student>_<chapter>.ipynb``, ``<student>-<chapter>.ipynb``.

**Rosters.** What an instructor exports from the LMS, to map each learner of a download to the
identifiers the LMS's grade import matches on:

- *Canvas*: the gradebook export (*Grades → Export*): ``Student`` (``Last, First``), ``ID``
  (the user id of the download's names), ``SIS User ID``, ``SIS Login ID``, ``Section``, …
- *Moodle*: the assignment's grading worksheet (*Submissions → Download grading worksheet*):
  ``Identifier`` (``Participant <id>``), ``Full name``, and the identity fields the site shows
  (``Email address`` by default; ``ID number``, ``Username`` where shown). A gradebook export
  (*Grades → Export*: ``First name``, ``Last name``, ``ID number``, ``Email address``) has no
  participant id: its rows are matched by full name, and a name two learners share is refused.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import PurePosixPath

STUDENT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@+-]{0,99}")
_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
_MOODLE_FOLDER = re.compile(r"(?P<prefix>.+)_(?P<id>\d+)_assignsubmission_(?P<plugin>[a-z0-9]+)_")
_MOODLE_FILE = re.compile(r"(?P<prefix>.+)_(?P<id>\d+)_assignsubmission_(?P<plugin>[a-z0-9]+)_(?P<file>[^/]+)")
_PARTICIPANT = re.compile(r"\s*\S.*?\s+(?P<id>\d+)\s*")  # "Participant 123", in the site's language


def accepted_forms(chapter: str) -> str:
    """Every name :func:`name_of` accepts, as a refusal lists them."""
    c = chapter
    return (f"<student>/{c}.ipynb, <student>/{c}/{c}.ipynb, <student>_{c}.ipynb or <student>-{c}.ipynb "
            f"(nbgrader, plain archives); Canvas's <name>[_LATE]_<user id>_<file id>_{c}[-<n>].ipynb; "
            f"Moodle's <full name>_<participant id>_assignsubmission_file_/{c}[ (<n>)].ipynb "
            f"or <full name>_<participant id>_assignsubmission_file_{c}[ (<n>)].ipynb")


@dataclass(frozen=True)
class Named:
    """Who a file of a download belongs to, as its name says.

    Attributes:
        learner: Groups one learner's files: ``canvas:<user id>``, ``moodle:<participant id>``,
            ``nbgrader:<student>``.
        lms: ``canvas``, ``moodle`` or ``""``.
        lms_id: The Canvas user id (``anon_…`` when graded anonymously), the Moodle participant id,
            or the student id the name gives.
        name: The learner's name as the LMS wrote it (``smithbob``, ``Bob Smith``).
        order: Sorts a learner's files, the newest last (Canvas: the file id; else the file's date).
        late: Canvas marked the submission late.
    """

    learner: str
    lms: str
    lms_id: str
    name: str
    order: tuple = ()
    late: bool = False


def name_of(relative: str, chapter: str, mtime: float = 0.0) -> Named | None:
    """Who a file of a download belongs to (``relative``: its path in the download), or None."""
    path = PurePosixPath(relative.replace("\\", "/"))
    found = _canvas(path, chapter) or _moodle(path, chapter, mtime)
    if found is None and not _lms_shaped(path):  # an LMS's file of another name is not nbgrader's layout
        found = _nbgrader(path, chapter, mtime)
    return found


def _lms_shaped(path: PurePosixPath) -> bool:
    """Named as Canvas or Moodle name a learner's files, whatever the file's own name."""
    if any(_MOODLE_FOLDER.fullmatch(part) for part in path.parts[:-1]) or _MOODLE_FILE.fullmatch(path.name):
        return True
    return bool(re.fullmatch(r"\w*?_(?:LATE_)?(?:\d+|anon_[A-Za-z0-9]+)_\d+_.+", path.name))


def _canvas(path: PurePosixPath, chapter: str) -> Named | None:
    display = rf"(?P<display>{re.escape(chapter)}(?:-(?:\d+|{_UUID}))?\.ipynb)"
    # A learner's name never holds _<digits>_ (sanitize_user_name), so the user id is the first
    # such field that leaves a file id and this chapter's name after it; a name is tried before an
    # anonymous id, so a learner called Anon keeps their user id.
    named = re.fullmatch(rf"(?P<name>\w*?)_(?:(?P<late>LATE)_)?(?P<user>\d+)_(?P<file>\d+)_{display}", path.name)
    if named:
        return Named(f"canvas:{named['user']}", "canvas", named["user"], named["name"], (int(named["file"]),),
                     late=bool(named["late"]))
    anonymous = re.fullmatch(rf"(?:(?P<late>LATE)_)?(?P<user>anon_[A-Za-z0-9]+)_(?P<file>\d+)_{display}", path.name)
    if anonymous:
        return Named(f"canvas:{anonymous['user']}", "canvas", anonymous["user"], "", (int(anonymous["file"]),),
                     late=bool(anonymous["late"]))
    return None


def _moodle(path: PurePosixPath, chapter: str, mtime: float) -> Named | None:
    display = re.compile(rf"{re.escape(chapter)}(?: \(\d+\))?\.ipynb")
    for part in path.parts[:-1]:
        folder = _MOODLE_FOLDER.fullmatch(part)
        if folder:
            if folder["plugin"] != "file" or not display.fullmatch(path.name):
                return None
            return Named(f"moodle:{folder['id']}", "moodle", folder["id"], folder["prefix"], (mtime, path.name))
    flat = _MOODLE_FILE.fullmatch(path.name)
    if flat and flat["plugin"] == "file" and display.fullmatch(flat["file"]):
        return Named(f"moodle:{flat['id']}", "moodle", flat["id"], flat["prefix"], (mtime, path.name))
    return None


def _nbgrader(path: PurePosixPath, chapter: str, mtime: float) -> Named | None:
    candidate = _owner(path, chapter)
    if not candidate or not STUDENT_ID.fullmatch(candidate):
        return None
    return Named(f"nbgrader:{candidate}", "", candidate, candidate, (mtime, str(path)))


def _owner(path: PurePosixPath, chapter: str) -> str | None:
    """The student id nbgrader's layout or a plain archive puts in the path, fit or not."""
    if path.name == f"{chapter}.ipynb":
        owners = [p for p in path.parts[:-1] if p != chapter]
        return owners[-1] if owners else None
    match = re.fullmatch(rf"(.+?)[_-]{re.escape(chapter)}\.ipynb", path.name)
    return match.group(1) if match else None


def unfit_student_id(relative: str, chapter: str) -> str | None:
    """Why the student id a path is named with cannot be one (which character), or None when the
    path is not named so or the id is fit: a folder ``ann lee/views.ipynb`` names ``ann lee``,
    whose space nbgrader's layout cannot hold."""
    path = PurePosixPath(relative.replace("\\", "/"))
    candidate = None if _lms_shaped(path) else _owner(path, chapter)
    if not candidate or STUDENT_ID.fullmatch(candidate):
        return None
    if len(candidate) > 100:
        what = f"is {len(candidate)} characters long, over 100"
    elif not candidate[0].isascii() or not candidate[0].isalnum():
        what = f"starts with {_character(candidate[0])}"
    else:
        what = f"holds {_character(next(c for c in candidate if not re.fullmatch(r'[A-Za-z0-9._@+-]', c)))}"
    return (f"{candidate!r} cannot be a student id: it {what} (a student id is letters, digits and . _ @ + -, "
            "starting with a letter or digit); rename the folder or file to the learner's id and collect again")


def _character(char: str) -> str:
    names = {" ": "a space", "\t": "a tab", "/": "a slash", "\\": "a backslash"}
    return names.get(char, f"the character {char!r} (U+{ord(char):04X})")


@dataclass(frozen=True)
class Identity:
    """A learner as the course records them: nbgrader's student id and the LMS's identifiers."""

    student: str
    first_name: str | None = None
    last_name: str | None = None
    email: str | None = None
    lms_user_id: str | None = None
    login: str | None = None  # the LMS login (Canvas SIS Login ID, Moodle username), if the roster has it
    sis_user_id: str | None = None  # Canvas's SIS User ID
    section: str | None = None  # Canvas's Section


@dataclass
class Roster:
    """The learners of a roster CSV, keyed as downloads name them."""

    lms: str
    by_id: dict[str, Identity] = field(default_factory=dict)  # Canvas user id, Moodle participant id
    by_name: dict[str, Identity | None] = field(default_factory=dict)  # full name; None where two share it
    everyone: list[Named] = field(default_factory=list)  # each learner as a download would name them

    def learners(self) -> list[tuple[Named, Identity]]:
        """Every learner of the roster, named as the LMS's download names them (so a learner with no
        file is identified as one with a file would be), with the roster's identity."""
        return [(named, found) for named in self.everyone if (found := self.find(named)) is not None]

    def find(self, named: Named) -> Identity | None:
        if named.lms != self.lms:
            return None
        found = self.by_id.get(named.lms_id)
        if found is None and not self.by_id:
            found = self.by_name.get(_fold(named.name))
        return found


class RosterError(ValueError):
    """A roster file that is none of the layouts :func:`read_roster` knows."""


def read_roster(text: str) -> Roster:
    """A roster from the text of a Canvas gradebook export or a Moodle grading worksheet or
    gradebook export (the layout is recognised from the header).

    Raises:
        RosterError: a header of no known layout, naming the columns each layout needs.
    """
    text = text.lstrip("\ufeff")
    rows: list[list[str]] = []
    for delimiter in ",;\t":  # the LMSs write commas; a spreadsheet in some locales, semicolons or tabs
        rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
        if rows and {h.strip() for h in rows[0]} & {"Student", "ID", "Identifier", "Full name", "First name"}:
            break
    if not rows:
        raise RosterError("the roster is empty")
    header = [h.strip() for h in rows[0]]
    records = [dict(zip(header, (v.strip() for v in row), strict=False)) for row in rows[1:] if any(row)]
    if "Student" in header and "ID" in header:
        return _canvas_roster(records)
    if "Identifier" in header or ("First name" in header and "Last name" in header) or "Full name" in header:
        return _moodle_roster(records, header)
    raise RosterError(f"the roster's columns ({', '.join(header[:8])}) are neither Canvas's gradebook export "
                      "(Student, ID, SIS User ID, SIS Login ID, Section) nor Moodle's grading worksheet "
                      "(Identifier, Full name, Email address) or gradebook export (First name, Last name, "
                      "Email address)")


def _canvas_roster(records: Iterable[dict[str, str]]) -> Roster:
    roster = Roster("canvas")
    for record in records:
        user = record.get("ID", "")
        if not user.isdigit():  # "Points Possible", the "Student, Test" row has an id but is kept
            continue
        last, _, first = record.get("Student", "").partition(", ")
        roster.by_id[user] = Identity(student="", first_name=first or None, last_name=last or None,
                                      lms_user_id=user, login=record.get("SIS Login ID") or None,
                                      sis_user_id=record.get("SIS User ID") or None,
                                      section=record.get("Section") or None)
        roster.everyone.append(Named(f"canvas:{user}", "canvas", user, canvas_name(record.get("Student", ""))))
    return roster


def canvas_name(sortable_name: str) -> str:
    """A learner's name as Canvas writes it in a download's file names (``sanitize_user_name``:
    the sortable name in lower case, word characters only): ``Smith, Bob`` → ``smithbob``."""
    return re.sub(r"\W", "", sortable_name).lower()


def _moodle_roster(records: Iterable[dict[str, str]], header: list[str]) -> Roster:
    roster = Roster("moodle")
    for record in records:
        full = record.get("Full name") or " ".join(p for p in (record.get("First name"), record.get("Last name")) if p)
        if not full:
            continue
        first, last = record.get("First name"), record.get("Last name")
        if first is None and last is None:
            first, _, last = full.rpartition(" ")
        identity = Identity(student="", first_name=first or None, last_name=last or None,
                            email=record.get("Email address") or None, lms_user_id=record.get("ID number") or None,
                            login=record.get("Username") or None)
        participant = _PARTICIPANT.fullmatch(record.get("Identifier", ""))
        if participant:
            roster.by_id[participant["id"]] = identity
            roster.everyone.append(Named(f"moodle:{participant['id']}", "moodle", participant["id"], full))
        else:
            roster.everyone.append(Named(f"moodle:{_fold(full)}", "moodle", "", full))
        key = _fold(full)
        roster.by_name[key] = None if key in roster.by_name else identity
    return roster


def _fold(name: str) -> str:
    """A name compared as Moodle writes it in a download (clean_filename keeps letters, spaces)."""
    return " ".join(unicodedata.normalize("NFC", name).casefold().split())


def slug(name: str) -> str:
    """A student id from a learner's name: ``Bob Smith`` → ``bob-smith``; empty when nothing is left."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    text = re.sub(r"[^A-Za-z0-9._@+-]+", "-", ascii_name.strip()).strip("-._@+").lower()
    return text[:100] if text and STUDENT_ID.fullmatch(text[:100]) else ""


def identify(
    learners: dict[str, Named], roster: Roster | None, known: dict[str, Identity]
) -> tuple[dict[str, Identity], list[tuple[str, str]]]:
    """The identity of each learner of a download.

    The student id is chosen so that a learner keeps theirs in every chapter: the gradebook's
    student with the same LMS identifier first (``known``), then the LMS login from the roster,
    then (Moodle) the email address in lower case, then the name (Canvas: as in the download, ``smithbob``;
    Moodle: the full name, ``bob-smith``) — the first that no other learner holds — and else the
    name with the LMS's id appended (``smithbob-12345``).

    Args:
        learners: ``Named.learner`` → one of that learner's files' :class:`Named`.
        roster: The roster, or None.
        known: The gradebook's students, keyed ``student:<id>``, ``lms:<lms_user_id>`` and
            ``email:<address, case-folded>``.

    Returns:
        The identities by learner, and notes ``(learner, text)`` for learners the roster lacks.
    """
    identities: dict[str, Identity] = {}
    notes: list[tuple[str, str]] = []
    taken: set[str] = set()
    for key, named in learners.items():  # names from nbgrader's layout are the student ids themselves
        if not named.lms:
            identities[key] = Identity(student=named.lms_id)
            taken.add(named.lms_id)
    for key in sorted(k for k, named in learners.items() if named.lms):
        named = learners[key]
        found = roster.find(named) if roster else None
        if roster and found is None:
            notes.append((key, f"not in the {roster.lms.capitalize()} roster given: the grade export cannot match "
                               "this learner until the roster lists them"))
        identity = found or Identity(student="")
        if named.lms == "canvas" and not named.lms_id.startswith("anon_"):
            identity = replace(identity, lms_user_id=named.lms_id)
        previous = (known.get(f"lms:{identity.lms_user_id}") if identity.lms_user_id else None) \
            or (known.get(f"email:{identity.email.casefold()}") if identity.email else None)
        base = named.name if named.lms == "canvas" else slug(named.name)

        def free(candidate: str | None, identity: Identity = identity) -> bool:
            return bool(candidate) and bool(STUDENT_ID.fullmatch(candidate)) and candidate not in taken \
                and not _held_by_another(candidate, identity, known)

        if previous and previous.student not in taken:
            student = previous.student
        else:
            email = identity.email.casefold() if identity.email and named.lms == "moodle" else None
            candidates = [identity.login, email, base]
            student = next((c for c in candidates if free(c)), None) \
                or f"{base or named.lms}-{named.lms_id}".replace("_", "-")
        identities[key] = replace(identity, student=student)
        taken.add(student)
    return identities, notes


def _held_by_another(student: str, identity: Identity, known: dict[str, Identity]) -> bool:
    """The gradebook has ``student`` for a learner with other LMS identifiers."""
    holder = known.get(f"student:{student}")
    if holder is None:
        return False
    if identity.lms_user_id and holder.lms_user_id == identity.lms_user_id:
        return False
    if identity.email and holder.email and holder.email.casefold() == identity.email.casefold():
        return False
    return True

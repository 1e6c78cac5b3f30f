"""Who handed in a file: the names Canvas and Moodle give a class download, generated as their source
generates them, read back to the learner; the rosters they export; stable student ids."""

from __future__ import annotations

import re
import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.pipeline.intake.lms import Identity, Named, RosterError, accepted_forms, identify, name_of, read_roster

CHAPTER = "views-closed-book"
ATTACHMENT_UNSAFE = re.compile(r'[\x00/\\:*?"<>|]+')
NAMES = st.text(st.characters(codec="utf-8", categories=("L", "Nd", "Zs"), include_characters="_,'-."),
                min_size=1, max_size=30)


def canvas_entry(sortable_name: str | None, user: int, attachment: int, display: str, late: bool,
                 anonymous: str | None = None) -> str:
    """The zip entry Canvas writes (lib/content_zipper.rb: get_filename, sanitize_user_name,
    sanitize_file_name, add_upload_submission, sanitize_attachment_filename)."""
    name = None
    if anonymous is None:
        name = re.sub(r"_(\d+)_", r"\1", sortable_name).lower()
    who = f"anon_{anonymous}" if anonymous is not None else str(user)
    prefix = "_".join(p for p in (name, "LATE" if late else None, who) if p is not None)
    prefix = re.sub(r"[^\w]", "", prefix)
    return f"{prefix}_{attachment}_{ATTACHMENT_UNSAFE.sub('_', display)}"


def unique_display(name: str, attempt: int) -> str:
    """Attachment.make_unique_filename (app/models/attachment.rb): <stem>-<n>, after 7 a UUID."""
    if attempt == 0:
        return name
    stem, ext = name.removesuffix(".ipynb"), ".ipynb"
    return f"{stem}-{attempt}{ext}" if attempt < 8 else f"{stem}-{uuid.uuid4()}{ext}"


@given(NAMES, st.integers(1, 10**15), st.integers(1, 10**15), st.integers(0, 9), st.booleans())
def test_canvas_names_give_back_the_user_and_the_file(name, user, attachment, attempt, late) -> None:
    entry = canvas_entry(name, user, attachment, unique_display(f"{CHAPTER}.ipynb", attempt), late)
    found = name_of(entry, CHAPTER)
    assert found is not None, entry
    assert (found.learner, found.lms, found.lms_id, found.order, found.late) == \
        (f"canvas:{user}", "canvas", str(user), (attachment,), late)


@given(st.text(st.sampled_from("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ123456789"), min_size=5, max_size=5),
       st.integers(1, 10**9), st.booleans())
def test_canvas_anonymous_names_give_back_the_anonymous_id(anonymous, attachment, late) -> None:
    entry = canvas_entry(None, 0, attachment, f"{CHAPTER}.ipynb", late, anonymous)
    found = name_of(entry, CHAPTER)
    assert found is not None and found.order == (attachment,)
    if anonymous.isdigit():  # anon_12345 reads as the learner "anon", user 12345: a name wins (below)
        assert found.learner == f"canvas:{anonymous}"
    else:
        assert (found.learner, found.late) == (f"canvas:anon_{anonymous}", late)


def test_a_learner_called_anon_is_not_taken_for_an_anonymous_one() -> None:
    found = name_of(f"anon_12345_7000_{CHAPTER}.ipynb", CHAPTER)
    assert found is not None and found.learner == "canvas:12345" and found.name == "anon"


def clean_filename(text: str) -> str:
    """Moodle's clean_param(PARAM_FILE) (lib/moodlelib.php): no control characters, & < > " ` | ' : \\ /."""
    return re.sub(r"[\x00-\x1f\x7f&<>\"`|':\\/]", "", text)


def moodle_entry(fullname: str, participant: int, filename: str, folders: bool, group: str = "") -> str:
    """The zip entry Moodle writes (mod/assign/locallib.php: download_submissions)."""
    prefix = clean_filename(f"{(group + fullname).replace('_', ' ')}_{participant}")
    if folders:
        return f"{clean_filename(f'{prefix}_assignsubmission_file_')}/{filename}"
    return clean_filename(f"{prefix}_assignsubmission_file_{filename}")


@given(NAMES, st.integers(1, 10**9), st.integers(0, 3), st.booleans(), st.sampled_from(["", "Group A-"]),
       st.floats(0, 2e9))
def test_moodle_names_give_back_the_participant(name, participant, copies, folders, group, mtime) -> None:
    filename = f"{CHAPTER}.ipynb" if copies == 0 else f"{CHAPTER} ({copies}).ipynb"  # get_unused_filename
    entry = moodle_entry(name, participant, filename, folders, group)
    found = name_of(entry, CHAPTER, mtime)
    assert found is not None, entry
    assert (found.learner, found.lms, found.lms_id) == (f"moodle:{participant}", "moodle", str(participant))
    assert found.order[0] == mtime


def test_moodle_blind_marking_and_other_plugins() -> None:
    found = name_of(f"Participant_5101_assignsubmission_file_/{CHAPTER}.ipynb", CHAPTER)
    assert found is not None and found.learner == "moodle:5101"
    assert name_of("Ada Lovelace_5101_assignsubmission_onlinetext_/onlinetext.html", CHAPTER) is None
    assert name_of(f"Ada Lovelace_5101_assignsubmission_file_/notes-{CHAPTER}.ipynb", CHAPTER) is None


@pytest.mark.parametrize(("path", "student"), [
    (f"ada/{CHAPTER}.ipynb", "ada"), (f"ada/{CHAPTER}/{CHAPTER}.ipynb", "ada"), (f"class/ada_{CHAPTER}.ipynb", "ada"),
    (f"ada-{CHAPTER}.ipynb", "ada"), (f"{CHAPTER}.ipynb", None), (f"a b_{CHAPTER}.ipynb", None),
    (f"ada_{CHAPTER}-1.ipynb", None),
])
def test_nbgraders_layout(path: str, student: str | None) -> None:
    found = name_of(path, CHAPTER)
    assert (found.lms_id if found else None) == student
    if student:
        assert found.learner == f"nbgrader:{student}" and found.lms == ""


def test_every_accepted_form_is_listed() -> None:
    listed = accepted_forms(CHAPTER)
    for example in ("ada/x.ipynb", "ada/x/x.ipynb", "ada_x.ipynb", "ada-x.ipynb", "bob_12_34_x-1.ipynb",
                    "Bob Smith_5_assignsubmission_file_/x (1).ipynb", "Bob Smith_5_assignsubmission_file_x.ipynb"):
        assert name_of(example, "x") is not None, example
    assert listed.count(CHAPTER) == 8 and "Canvas" in listed and "Moodle" in listed


CANVAS_EXPORT = '\ufeffStudent,ID,SIS User ID,SIS Login ID,Section,views (123)\n' \
    '    Points Possible,,,,,66\n"Lovelace, Ada",12345,S-1,ada,A,12\n"Student, Test",99,,,A,\n'
MOODLE_WORKSHEET = "Identifier,Full name,Email address,ID number,Status\n" \
    "Participant 5101,Ada Lovelace,ada@example.edu,U-1,Submitted\nParticipant 5102,Bob Smith,,,No submission\n"
MOODLE_EXPORT = "First name;Last name;ID number;Institution;Department;Email address;views\n" \
    "Ada;Lovelace;U-1;;;ada@example.edu;12\nBob;Smith;U-2;;;bob@example.edu;-\nBob;Smith;U-9;;;bob2@example.edu;-\n"


def test_rosters_each_lms_exports() -> None:
    canvas = read_roster(CANVAS_EXPORT)
    ada = canvas.find(Named("canvas:12345", "canvas", "12345", "lovelaceada"))
    assert ada == Identity("", "Ada", "Lovelace", None, "12345", "ada", sis_user_id="S-1", section="A")
    assert canvas.find(Named("moodle:12345", "moodle", "12345", "Ada Lovelace")) is None, "another LMS's learner"
    worksheet = read_roster(MOODLE_WORKSHEET)
    found = worksheet.find(Named("moodle:5101", "moodle", "5101", "Whatever Name"))
    assert found is not None and (found.email, found.lms_user_id, found.first_name) == ("ada@example.edu", "U-1", "Ada")
    assert worksheet.find(Named("moodle:5109", "moodle", "5109", "Ada Lovelace")) is None, "by id when there are ids"
    export = read_roster(MOODLE_EXPORT)
    assert export.find(Named("moodle:7", "moodle", "7", "ada  LOVELACE")).email == "ada@example.edu"
    assert export.find(Named("moodle:8", "moodle", "8", "Bob Smith")) is None, "two learners share the name"
    with pytest.raises(RosterError, match="neither Canvas's gradebook export"):
        read_roster("name,mail\nada,ada@example.edu\n")


def test_student_ids_are_stable_across_chapters_and_never_shared() -> None:
    canvas = read_roster(CANVAS_EXPORT)
    learners = {"canvas:12345": Named("canvas:12345", "canvas", "12345", "lovelaceada"),
                "canvas:12346": Named("canvas:12346", "canvas", "12346", "lovelaceada"),
                "nbgrader:ada": Named("nbgrader:ada", "", "ada", "ada")}
    identities, notes = identify(learners, canvas, {})
    assert identities["nbgrader:ada"].student == "ada"
    assert identities["canvas:12345"].student == "lovelaceada", "its login 'ada' is another learner's"
    assert identities["canvas:12346"].student == "lovelaceada-12346"
    assert notes == [("canvas:12346", "not in the Canvas roster given: the grade export cannot match this learner "
                                      "until the roster lists them")]
    # The next chapter: the gradebook remembers who is who, by Canvas user id.
    known = {f"lms:{i.lms_user_id}": i for i in identities.values() if i.lms_user_id}
    known |= {f"student:{i.student}": i for i in identities.values()}
    later, _ = identify({k: v for k, v in learners.items() if k != "nbgrader:ada"}, None, known)
    assert {k: i.student for k, i in later.items()} == {"canvas:12345": "lovelaceada",
                                                        "canvas:12346": "lovelaceada-12346"}

"""How Canvas and Moodle match the rows of a grade import to their users, modelled on their source.

- Canvas, ``lib/gradebook_importer.rb`` (``process_student``): a row's ``ID`` names the user when it
  is one of the course's users; else its ``SIS User ID``, then its ``SIS Login ID``, through the
  users' logins; else its ``Student`` equal to a user's name or sortable name; else the row is a
  student Canvas does not know. The header's second cell must hold ``ID``; a row whose first cell
  contains ``Points Possible`` describes the assignments.
- Moodle, ``grade/import/csv/classes/load_data.php`` (``map_user_data_with_value``,
  ``check_user_exists``): every row is mapped through one column, *Map from*, onto one user field,
  *Map to* (``id``, ``idnumber``, ``email``, ``username``; email and username compared without
  case); a blank value, or one that matches no user or several, abandons the whole import.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CanvasUser:
    id: int
    name: str
    sortable_name: str
    sis_user_id: str = ""
    login: str = ""


def canvas_match(rows: list[list[str]], users: list[CanvasUser]) -> dict[int, int | None]:
    """Row index → the Canvas user id the import gives it (None: a student Canvas does not know)."""
    header = rows[0]
    assert "Student" in header[0] and "ID" in header[1], "Canvas refuses the header row"
    sis_user = header.index("SIS User ID") if "SIS User ID" in header else None
    sis_login = header.index("SIS Login ID") if "SIS Login ID" in header else None
    by_id = {u.id: u for u in users}
    matched: dict[int, int | None] = {}
    for index, row in enumerate(rows[1:], start=1):
        if "Points Possible" in row[0]:
            continue
        user = by_id.get(int(row[1])) if row[1].strip().isdigit() else None
        if user is None and sis_user is not None and row[sis_user]:
            user = next((u for u in users if u.sis_user_id == row[sis_user]), None)
        if user is None and sis_login is not None and row[sis_login]:
            user = next((u for u in users if u.login == row[sis_login]), None)
        if user is None:
            user = next((u for u in users if row[0] in (u.name, u.sortable_name)), None)
        matched[index] = user.id if user else None
    return matched


@dataclass(frozen=True)
class MoodleUser:
    id: int
    username: str
    email: str
    idnumber: str = ""


MOODLE_FIELDS = {"userid": "id", "useridnumber": "idnumber", "useremail": "email", "username": "username"}


def moodle_match(rows: list[list[str]], map_from: str, map_to: str, users: list[MoodleUser]) -> dict[int, int]:
    """Row index → Moodle user id; raises AssertionError where Moodle abandons the import."""
    column = rows[0].index(map_from)
    field = MOODLE_FIELDS[map_to]
    matched = {}
    for index, row in enumerate(rows[1:], start=1):
        if len(row) <= 1:
            continue
        value = row[column].strip()
        assert value, f"row {index}: blank {map_from}: Moodle abandons the import"
        same = [u for u in users if (str(getattr(u, field)).casefold() == value.casefold()
                                     if field in ("email", "username") else str(getattr(u, field)) == value)]
        assert len(same) == 1, f"row {index}: {map_from} {value!r} matches {len(same)} users: Moodle abandons it"
        matched[index] = same[0].id
    return matched

"""Reading a player list from a CSV or XLSX file: the name in one column ("Imię i nazwisko",
"name") or in two ("Imię" and "Nazwisko", "first name" and "surname"), and the organisation.

`read_player_file(filename, data)` returns the rows of the file, or is `Refused` when the
file itself cannot be read. The file is recognised by its content, not by its name.
CSV: UTF-8 with or without BOM, or Windows-1250 when the text is clearly Polish;
separated by `,`, `;` or a tab. A name in one column is split as `tournament.names.split_name`
reads it: "Anna Nowak" (the last word is the surname), "Nowak Anna" under a "Nazwisko i imię"
header, "Nowak, Anna" anywhere. The rows are checked (empty names, duplicates, the
per-organisation quota) by `services.registration_problems`.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from organiser import xlsx
from tournament.names import full_name, split_name
from tournament.refusals import Refused

MAX_BYTES = 2_000_000
MAX_ROWS = 2000
POLISH_LETTERS = set("ąćęłńóśźżĄĆĘŁŃÓŚŹŻ")
NAME_HEADERS = {"name", "full name", "player", "imię i nazwisko", "imie i nazwisko", "zawodnik", "gracz"}
SURNAME_FIRST_HEADERS = {"nazwisko i imię", "nazwisko i imie", "nazwisko i imiona", "surname and given names"}
SURNAME_HEADERS = {"nazwisko", "surname", "last name", "family name"}
GIVEN_NAMES_HEADERS = {"imię", "imie", "imiona", "first name", "first names", "given name", "given names", "forename"}
ORGANISATION_HEADERS = {"organisation", "organization", "organizacja", "klub", "club"}
BINARY_KINDS = {b"\x89PNG": "PNG", b"\xff\xd8\xff": "JPEG", b"GIF8": "GIF", b"%PDF": "PDF", b"\xd0\xcf\x11\xe0": "XLS"}
ZIP_MAGIC = b"PK\x03\x04"


@dataclass(frozen=True)
class PlayerRow:
    given_names: str
    surname: str
    organisation: str
    line: int | None = None  # None for a player typed into the form

    @property
    def name(self):
        """The whole name as it is read: "Anna Nowak"."""
        return full_name(self.given_names, self.surname)


def clean_text(value):
    """A cell as text with runs of white space collapsed."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return " ".join(str(value).split())


def read_player_file(filename, data):
    """The rows of a player file; refused (the problem listed) when the file cannot be read."""
    if not data.strip():
        raise Refused("file_empty", file=filename)
    if len(data) > MAX_BYTES:
        raise Refused("file_too_large", file=filename)
    if data.startswith(ZIP_MAGIC):
        return _rows(_xlsx_cells(filename, data), filename)
    for magic, kind in BINARY_KINDS.items():
        if data.startswith(magic):
            if kind == "XLS":
                raise Refused("file_old_excel", file=filename)
            raise Refused("file_other_kind", file=filename, kind=kind)
    if filename.lower().endswith(".xlsx"):
        raise Refused("file_bad_xlsx", file=filename)
    if b"\x00" in data:
        raise Refused("file_binary", file=filename)
    return _rows(_csv_cells(filename, _decode(filename, data)), filename)


def _decode(filename, data):
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        text = data.decode("cp1250")
    except UnicodeDecodeError:
        text = ""
    if POLISH_LETTERS.intersection(text) and all(c.isprintable() or c in "\r\n\t" for c in text):
        return text
    raise Refused("file_not_utf8", file=filename)


def _csv_cells(filename, text):
    """(line number, cells) of every record of a CSV text; the separator is read from the header."""
    header = text.splitlines()[0] if text.splitlines() else ""
    separator = max(";,\t", key=header.count)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=separator)
    try:
        return [(reader.line_num, cells) for cells in reader]
    except csv.Error:
        raise Refused("file_bad_csv", file=filename)


def _xlsx_cells(filename, data):
    """The first sheet's rows that hold a value: the header and one more than MAX_ROWS players
    at most (read with bounded work, see `organiser.xlsx`)."""
    try:
        return xlsx.read_first_sheet(io.BytesIO(data), max_rows=MAX_ROWS + 2)
    except xlsx.Unreadable:
        raise Refused("file_bad_xlsx", file=filename)
    except xlsx.TooLarge:
        raise Refused("file_too_many_cells", file=filename)


def _column(header, names):
    for index, title in enumerate(header):
        if clean_text(title).lower() in names:
            return index
    return None


def _rows(cells, filename):
    """The PlayerRows below the header (blank rows skipped); refused for a bad header."""
    records = [(line, [clean_text(c) for c in values]) for line, values in cells]
    records = [(line, values) for line, values in records if any(values)]
    if not records:
        raise Refused("file_empty", file=filename)
    header_line, header = records[0]
    name_of, organisation_at = _name_reader(header), _column(header, ORGANISATION_HEADERS)
    if name_of is None or organisation_at is None:
        raise Refused("file_header", line=header_line)
    if len(records) - 1 > MAX_ROWS:
        raise Refused("file_too_many_rows", count=MAX_ROWS)
    rows = []
    for line, values in records[1:]:
        given_names, surname = name_of(values)
        rows.append(PlayerRow(given_names, surname, _cell(values, organisation_at), line))
    if not rows:
        raise Refused("file_no_players", file=filename)
    return rows


def _cell(values, at):
    return values[at] if at < len(values) else ""


def _name_reader(header):
    """A function from a row's cells to its (given names, surname): from the "Imię" and
    "Nazwisko" columns when the header has both, else from the one name column; None when
    the header names neither."""
    surname_at, given_at = _column(header, SURNAME_HEADERS), _column(header, GIVEN_NAMES_HEADERS)
    if surname_at is not None and given_at is not None:
        return lambda values: (_cell(values, given_at), _cell(values, surname_at))
    name_at = _column(header, NAME_HEADERS)
    surname_first = name_at is None
    if surname_first:
        name_at = _column(header, SURNAME_FIRST_HEADERS)
    if name_at is None:
        return None
    return lambda values: split_name(_cell(values, name_at), surname_first=surname_first)

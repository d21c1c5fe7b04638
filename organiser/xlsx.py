"""Reading the cell values of an Excel (.xlsx) file's first sheet, with bounded work.

A player list needs a few columns of a few thousand rows, but a small upload can unpack to
millions of cells (a 130 KB file held one row of 6 million empty cells). This reader streams
the XML with expat and stops as soon as the file holds more than a player list could:
only the first `MAX_COLUMNS` columns are kept, and a file with more than `MAX_ELEMENTS` XML
elements in its sheet or shared strings, or with a part that unpacks to more than
`MAX_PART_BYTES`, is refused. DOCTYPE declarations (entity tricks) are refused too.
"""

from __future__ import annotations

import posixpath
import zipfile
import zlib
from xml.parsers import expat

MAX_COLUMNS = 26  # A–Z: the header must name its columns within them
# XML elements read: 2,000 players with a dozen columns need about 50,000 in the sheet and
# 30,000 in the shared strings.
MAX_SHEET_ELEMENTS = 150_000
MAX_STRING_ELEMENTS = 100_000
MAX_SMALL_ELEMENTS = 10_000  # the package's lists of parts and sheets
MAX_PART_BYTES = 20_000_000  # unpacked size of one part of the file
MAX_CELL_TEXT = 1000  # characters kept of one cell (longer names are refused anyway)
CHUNK = 64 * 1024
DIGITS = "0123456789"


class Unreadable(Exception):
    """Not an .xlsx file this reader can read."""


class TooLarge(Exception):
    """An .xlsx file holding more than a player list could."""


class _Enough(Exception):
    """Every row the caller asked for has been read."""


def _local(name):
    """An element's name without its namespace prefix ("x:c" → "c")."""
    return name.rpartition(":")[2]


class _Parser:
    """Feeds one part of the package to expat in chunks. `start` counts the elements; the
    parsers of the large parts count in their own `start` (one call less per element)."""

    max_elements = MAX_SMALL_ELEMENTS

    def __init__(self, archive, name):
        self.archive, self.name, self.elements = archive, name, 0

    def run(self):
        try:
            info = self.archive.getinfo(self.name)
        except KeyError:
            raise Unreadable(f"missing part {self.name}") from None
        if info.file_size > MAX_PART_BYTES:
            raise TooLarge(self.name)
        parser = expat.ParserCreate()
        parser.buffer_text = True
        parser.StartElementHandler = self.start
        parser.EndElementHandler = self.end
        parser.CharacterDataHandler = self.text
        parser.StartDoctypeDeclHandler = self._doctype
        parser.EntityDeclHandler = self._doctype
        try:
            with self.archive.open(info) as stream:
                while chunk := stream.read(CHUNK):
                    parser.Parse(chunk, False)
                parser.Parse(b"", True)
        except _Enough:
            pass
        except expat.ExpatError as error:
            raise Unreadable(f"{self.name}: {error}") from None

    def _doctype(self, *args):
        raise Unreadable(f"{self.name}: a DOCTYPE declaration")

    def count(self):
        self.elements += 1
        if self.elements > self.max_elements:
            raise TooLarge(self.name)

    def start(self, name, attributes):
        self.count()

    def end(self, name):
        pass

    def text(self, data):
        pass


class _Relationships(_Parser):
    def __init__(self, archive, name):
        super().__init__(archive, name)
        self.targets = {}  # id -> (type, target)

    def start(self, name, attributes):
        self.count()
        if _local(name) == "Relationship":
            self.targets[attributes.get("Id")] = (attributes.get("Type", ""), attributes.get("Target", ""))


class _FirstSheet(_Parser):
    def __init__(self, archive, name):
        super().__init__(archive, name)
        self.relationship = None

    def start(self, name, attributes):
        self.count()
        if _local(name) == "sheet" and self.relationship is None:
            self.relationship = next((v for k, v in attributes.items() if k.endswith(":id")), None)


class _SharedStrings(_Parser):
    """The shared strings: the text of each <si>, phonetic runs (<rPh>) left out."""

    max_elements = MAX_STRING_ELEMENTS

    def __init__(self, archive, name):
        super().__init__(archive, name)
        self.strings, self.parts, self.length, self.in_text, self.phonetic = [], [], 0, False, 0

    def start(self, name, attributes):
        self.count()
        name = _local(name)
        if name == "si":
            self.parts, self.length = [], 0
        elif name == "rPh":
            self.phonetic += 1
        elif name == "t" and not self.phonetic:
            self.in_text = True

    def end(self, name):
        name = _local(name)
        if name == "t":
            self.in_text = False
        elif name == "rPh":
            self.phonetic -= 1
        elif name == "si":
            self.strings.append("".join(self.parts)[:MAX_CELL_TEXT])

    def text(self, data):
        if self.in_text and self.length <= MAX_CELL_TEXT:
            self.parts.append(data)
            self.length += len(data)


class _Sheet(_Parser):
    """The first `max_rows` rows of the sheet that hold a value, as (row number, [values of
    columns A…])."""

    max_elements = MAX_SHEET_ELEMENTS

    def __init__(self, archive, name, strings, max_rows):
        super().__init__(archive, name)
        self.strings, self.rows, self.max_rows = strings, [], max_rows
        self.row_number, self.column, self.values = 0, 0, {}
        self.cell_type, self.parts, self.length, self.capture, self.inline = "n", [], 0, False, False

    def start(self, name, attributes):
        self.count()
        name = _local(name)
        if name == "c":
            # Only columns A–Z are kept: a reference with two or more letters lies beyond them.
            letters = attributes.get("r", "").rstrip(DIGITS)
            if letters:
                self.column = (
                    ord(letters) - ord("A") + 1 if len(letters) == 1 and "A" <= letters <= "Z" else MAX_COLUMNS + 1
                )
            else:
                self.column += 1
            self.cell_type, self.parts, self.length, self.inline = attributes.get("t", "n"), [], 0, False
        elif name == "row":
            reference = attributes.get("r", "")
            self.row_number = int(reference) if reference.isdecimal() and len(reference) <= 7 else self.row_number + 1
            self.column, self.values = 0, {}
        elif name == "is":
            self.inline = True
        elif name == "v" or (name == "t" and self.inline):
            self.capture = True

    def end(self, name):
        name = _local(name)
        if name in ("v", "t"):
            self.capture = False
        elif name == "c" and self.column <= MAX_COLUMNS and self.parts:
            self.values[self.column] = self._value("".join(self.parts))
        elif name == "row" and any(self.values.values()):
            width = max(self.values)
            self.rows.append((self.row_number, [self.values.get(c, "") for c in range(1, width + 1)]))
            if len(self.rows) >= self.max_rows:
                raise _Enough

    def text(self, data):
        if self.capture and self.column <= MAX_COLUMNS and self.length <= MAX_CELL_TEXT:
            self.parts.append(data)
            self.length += len(data)

    def _value(self, text):
        if self.cell_type == "s":
            text = text.strip()
            index = int(text) if text.isdecimal() and len(text) <= 9 else -1
            return self.strings[index] if 0 <= index < len(self.strings) else ""
        if self.cell_type == "b":
            return "TRUE" if text.strip() == "1" else "FALSE"
        if self.cell_type == "n":
            try:
                number = float(text)
            except ValueError:
                return text
            return str(int(number)) if number.is_integer() else text
        return text[:MAX_CELL_TEXT]


def _target(base, target):
    """A relationship's target as a name inside the package."""
    if target.startswith("/"):
        return target.lstrip("/")
    return posixpath.normpath(posixpath.join(posixpath.dirname(base), target))


def _rels_of(part):
    folder, name = posixpath.split(part)
    return posixpath.join(folder, "_rels", name + ".rels")


def _parse(parser):
    parser.run()
    return parser


def read_first_sheet(file, max_rows):
    """(row number, [cell values as text]) of the first `max_rows` rows of the first sheet
    that hold a value. Raises Unreadable or TooLarge.
    """
    try:
        archive = zipfile.ZipFile(file)
    except (zipfile.BadZipFile, OSError, ValueError) as error:
        raise Unreadable(str(error)) from None
    with archive:
        try:
            package = _parse(_Relationships(archive, "_rels/.rels")).targets.values()
            workbook = next((_target("", t) for kind, t in package if kind.endswith("/officeDocument")), None)
            if workbook is None:
                raise Unreadable("no workbook")
            relationships = _parse(_Relationships(archive, _rels_of(workbook))).targets
            first = _parse(_FirstSheet(archive, workbook)).relationship
            if first not in relationships:
                raise Unreadable("no sheet")
            strings = []
            for kind, target in relationships.values():
                if kind.endswith("/sharedStrings"):
                    strings = _parse(_SharedStrings(archive, _target(workbook, target))).strings
            return _parse(_Sheet(archive, _target(workbook, relationships[first][1]), strings, max_rows)).rows
        except (zipfile.BadZipFile, zlib.error, OSError, EOFError, RuntimeError, NotImplementedError) as error:
            # damaged or encrypted members, unsupported compression
            raise Unreadable(str(error)) from None

"""Files for the app and from it: an .xlsx of rows to upload, and readers for what the app writes
(spreadsheets, CSV, zips, numbers in any text, the Polish catalogue). The QR codes of a PDF are
read by printing.testing."""

import csv
import io
import re
import zipfile
from pathlib import Path

import openpyxl
from openpyxl import Workbook

PO = Path(__file__).resolve().parents[2] / "config" / "locale" / "pl" / "LC_MESSAGES" / "django.po"
ENTRY = re.compile(
    r'^(#,.*\n)?(?:msgctxt "(.*)"\n)?msgid "(.*)"\n((?:".*"\n)*)(msgid_plural "(.*)"\n((?:".*"\n)*))?((?:msgstr.*\n(?:".*"\n)*)+)',
    re.M,
)


ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def xlsx(rows):
    workbook = Workbook()
    for row in rows:
        workbook.active.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def read_workbook(data):
    """{sheet title: (the openpyxl sheet, [row values])} of an .xlsx given as bytes or a path."""
    book = openpyxl.load_workbook(io.BytesIO(data) if isinstance(data, bytes) else data)
    return {sheet.title: (sheet, [list(row) for row in sheet.iter_rows(values_only=True)]) for sheet in book}


def formula_cells(data):
    book = openpyxl.load_workbook(io.BytesIO(data) if isinstance(data, bytes) else data)
    return [
        f"{sheet.title}!{cell.coordinate}"
        for sheet in book
        for row in sheet.iter_rows()
        for cell in row
        if cell.data_type == "f"
    ]


def read_csv(data, separator=";"):
    """The rows of a CSV file the app wrote: semicolons by default (the file for Excel)."""
    assert data.startswith(b"\xef\xbb\xbf"), "a BOM, so that Excel reads UTF-8"
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline=""), delimiter=separator))


def zip_texts(data):
    """{path: text} of every file in a .zip given as bytes."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name).decode("utf-8") for name in archive.namelist()}


def number_pattern(value):
    """The number as printed anywhere: 4321, +4321, −4321, 4 321, 4,321 — but not inside 14321."""
    digits = str(value)
    spaced = rf"{digits[:-3]}[\s\u00a0\u202f.,]?{digits[-3:]}" if len(digits) > 3 else digits
    return re.compile(rf"(?<![\d]){spaced}(?![\d])")


def unquote(first, rest):
    text = first + "".join(line[1:-1] for line in rest.splitlines())
    return re.sub(r"\\(.)", lambda m: ESCAPES.get(m.group(1), m.group(0)), text)


def entries():
    for match in ENTRY.finditer(PO.read_text(encoding="utf-8")):
        flags, context, msgid, msgid_rest = match.group(1) or "", match.group(2), match.group(3), match.group(4)
        if not msgid and not msgid_rest:
            continue  # the header
        strings = re.findall(r'^msgstr(?:\[\d\])? "(.*)"\n((?:".*"\n)*)', match.group(8), re.M)
        yield {
            "fuzzy": "fuzzy" in flags,
            "context": context,
            "msgid": unquote(msgid, msgid_rest),
            "plural": match.group(5) is not None,
            "msgstr": [unquote(a, b) for a, b in strings],
        }

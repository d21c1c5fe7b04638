"""Tables as an .xlsx workbook (XlsxWriter), one sheet per table, ready to print on A4."""

from __future__ import annotations

import io
import re
from datetime import datetime

import xlsxwriter

A4 = 9  # XlsxWriter's paper code
SHEET_NAME_LENGTH = 31
HEADER_LENGTH = 255  # Excel's limit for a printed page's header
NOT_IN_SHEET_NAMES = re.compile(r"[\[\]:*?/\\]")
OPTIONS = {
    # Text is written with write_string anyway; these make sure no other path turns it into
    # a formula, a link or a number.
    "strings_to_formulas": False,
    "strings_to_urls": False,
    "strings_to_numbers": False,
    "constant_memory": True,  # rows go to disk as they are written: memory stays flat
}


def workbook_bytes(tables):
    """The .xlsx file of the tables, one sheet each, in order."""
    out = io.BytesIO()
    workbook = xlsxwriter.Workbook(out, OPTIONS)
    header = workbook.add_format({"bold": True, "bottom": 1, "text_wrap": True, "valign": "top"})
    when = workbook.add_format({"num_format": "yyyy-mm-dd hh:mm"})
    used = set()
    for table in tables:
        sheet = workbook.add_worksheet(sheet_name(table.title, used))
        _lay_out(sheet, table)
        for column, text in enumerate(table.headers):
            sheet.write_string(0, column, text, header)
        for row_index, row in enumerate(table.rows, start=1):
            for column, cell in enumerate(row):
                _write_cell(sheet, row_index, column, cell, when)
    workbook.close()
    return out.getvalue()


def _lay_out(sheet, table):
    for column, width in enumerate(table.widths()):
        sheet.set_column(column, column, width)
    sheet.freeze_panes(1, 0)
    sheet.repeat_rows(0)  # the header on every printed page
    sheet.set_paper(A4)
    sheet.set_landscape()
    sheet.fit_to_pages(1, 0)  # as wide as one page, as many pages down as needed
    sheet.hide_gridlines(0)  # gridlines shown on screen and printed
    if table.caption:  # how the rows are ordered, at the top of every printed page ("&" is a code there)
        sheet.set_header(("&L" + table.caption.replace("&", "&&"))[:HEADER_LENGTH])


def _write_cell(sheet, row, column, cell, when):
    if cell is None:
        return
    if isinstance(cell, (int, float)):
        sheet.write_number(row, column, cell)
    elif isinstance(cell, datetime):
        sheet.write_datetime(row, column, cell, when)
    else:
        sheet.write_string(row, column, str(cell))  # never a formula, whatever it starts with


def sheet_name(title, used):
    """A valid, unique sheet name: no []:*?/\\, at most 31 characters, not starting with '."""
    base = NOT_IN_SHEET_NAMES.sub(" ", title).strip().strip("'")[:SHEET_NAME_LENGTH] or "Sheet"
    name, copy = base, 2
    while name.lower() in used:
        suffix = f" ({copy})"
        name, copy = base[: SHEET_NAME_LENGTH - len(suffix)] + suffix, copy + 1
    used.add(name.lower())
    return name

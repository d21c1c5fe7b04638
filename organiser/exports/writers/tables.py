"""A table of cells to write out, and the one rule every writer shares about text."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # a spreadsheet runs such a cell (OWASP: CSV injection)
MAX_COLUMN_WIDTH = 48  # characters; longer text wraps in a cell of this width


@dataclass
class Table:
    """`title` names the sheet; a cell is str, int, float, datetime (naive, local time) or None;
    `caption`, when given, says how the rows are ordered (a spreadsheet prints it above them)."""

    title: str
    headers: list[str]
    rows: list[list] = field(default_factory=list)
    caption: str = ""

    def widths(self):
        """Each column's width in characters: its longest cell, header included, within bounds."""
        widths = [len(header) for header in self.headers]
        for row in self.rows:
            for index, cell in enumerate(row):
                widths[index] = max(widths[index], cell_length(cell))
        return [min(max(width + 2, 6), MAX_COLUMN_WIDTH) for width in widths]


def cell_length(cell):
    if cell is None:
        return 0
    if isinstance(cell, datetime):
        return 16
    return len(str(cell))


def looks_like_formula(text):
    return text.startswith(FORMULA_STARTS)


def csv_safe(cell):
    """A cell for CSV: text that a spreadsheet would run as a formula is prefixed with `'`."""
    if isinstance(cell, str) and looks_like_formula(cell):
        return "'" + cell
    if isinstance(cell, datetime):
        return cell.strftime("%Y-%m-%d %H:%M")
    return cell

"""How the projector pages through the leaderboard: every row is back on screen within 30 s.

At most three pages, so a page stays at least 9 s (long enough to find one's name); up to 40
rows a page in two columns of 20, readable across the hall. A bigger field puts more rows on
each page (up to three columns, smaller type) rather than adding pages. Plain Python.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

LONGEST_WAIT_SECONDS = 30  # a player's row is back on screen within this
REQUEST_ALLOWANCE_SECONDS = 3  # kept for the requests that fetch the pages
MAX_PAGES = 3
ROWS_PER_COLUMN = 20
COMFORTABLE_COLUMNS = 2
MAX_COLUMNS = 3
SINGLE_PAGE_REFRESH_SECONDS = 15
FIT_ROWS = (10, 13, 16, 20, 25, 32)  # type sizes of the board by rows per column (CSS board--fit-N)


@dataclass(frozen=True)
class ProjectorLayout:
    pages: int
    rows_per_page: int
    columns: int
    rows_per_column: int
    seconds: int  # how long each page stays before the next one is fetched

    @property
    def fit(self):
        """The type size class: the smallest FIT_ROWS that holds a column (else the largest)."""
        return next((rows for rows in FIT_ROWS if rows >= self.rows_per_column), FIT_ROWS[-1])

    @property
    def longest_wait(self):
        """Seconds until a row that just left the screen is back (the whole cycle)."""
        return 0 if self.pages == 1 else self.pages * self.seconds

    def page_columns(self, rows, page):
        """The rows of page `page` (1-based), split into columns top to bottom, left to right."""
        on_page = rows[(page - 1) * self.rows_per_page : page * self.rows_per_page]
        return [on_page[i : i + self.rows_per_column] for i in range(0, len(on_page), self.rows_per_column)]


def projector_layout(row_count: int) -> ProjectorLayout:
    pages = min(MAX_PAGES, max(1, math.ceil(row_count / (ROWS_PER_COLUMN * COMFORTABLE_COLUMNS))))
    rows_per_page = max(1, math.ceil(row_count / pages))
    columns = min(MAX_COLUMNS, math.ceil(rows_per_page / ROWS_PER_COLUMN))
    rows_per_column = math.ceil(rows_per_page / columns)
    seconds = SINGLE_PAGE_REFRESH_SECONDS if pages == 1 else (LONGEST_WAIT_SECONDS - REQUEST_ALLOWANCE_SECONDS) // pages
    return ProjectorLayout(pages, rows_per_page, columns, rows_per_column, seconds)

"""One table as CSV that spreadsheets open with Polish letters intact and never run as formulas.

Two separators: a semicolon (`EXCEL`), which Excel in a Polish locale (whose decimal separator
is a comma) splits into columns when the file is opened, and a comma (`COMMA`) for other tools.
"""

import csv
import io

from organiser.exports.writers.tables import csv_safe

EXCEL = ";"
COMMA = ","


def csv_bytes(table, separator=EXCEL):
    """The table (headers first) as UTF-8 CSV with a byte order mark, cells split by `separator`,
    rows ending in CRLF."""
    out = io.StringIO(newline="")
    writer = csv.writer(out, delimiter=separator)
    writer.writerow([csv_safe(header) for header in table.headers])
    writer.writerows([csv_safe(cell) for cell in row] for row in table.rows)
    return out.getvalue().encode("utf-8-sig")

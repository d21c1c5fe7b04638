"""One table as CSV that Excel opens with Polish letters intact and never runs as formulas."""

import csv
import io

from organiser.exports.writers.tables import csv_safe


def csv_bytes(table):
    """The table (headers first) as UTF-8 CSV with a byte order mark, rows ending in CRLF."""
    out = io.StringIO(newline="")
    writer = csv.writer(out)
    writer.writerow([csv_safe(header) for header in table.headers])
    writer.writerows([csv_safe(cell) for cell in row] for row in table.rows)
    return out.getvalue().encode("utf-8-sig")

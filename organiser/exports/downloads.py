"""Every results file the organiser downloads, by its name: the content type and how it is made.

Each CSV table comes twice: `NAME.csv` separated by semicolons, which Excel in Polish opens in
columns (the download the page offers first), and `NAME-comma.csv` separated by commas, for
other tools. Both are UTF-8 with a byte order mark.
"""

from organiser.exports.rows import rounds_table, standings_table, workbook_tables
from organiser.exports.site import site_zip
from organiser.exports.writers.csvfile import COMMA, csv_bytes
from organiser.exports.writers.spreadsheet import workbook_bytes

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CSV = "text/csv; charset=utf-8"
SITE_ZIP = "results-site.zip"  # made by a task on the download page (`site.make_results_site`)

EXPORT_FILES = {  # name (after the slug): (content type, tournament -> bytes)
    "results.xlsx": (XLSX, lambda tournament: workbook_bytes(workbook_tables(tournament))),
    "standings.csv": (CSV, lambda tournament: csv_bytes(standings_table(tournament))),
    "rounds.csv": (CSV, lambda tournament: csv_bytes(rounds_table(tournament))),
    "standings-comma.csv": (CSV, lambda tournament: csv_bytes(standings_table(tournament), COMMA)),
    "rounds-comma.csv": (CSV, lambda tournament: csv_bytes(rounds_table(tournament), COMMA)),
    SITE_ZIP: ("application/zip", site_zip),
}

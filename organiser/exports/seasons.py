"""A season's table as plain tables for the writers (XLSX, CSV): the staff table, every finished
tournament counted, whether its results are public or not (the caption says so).

One row a person: place, name (surname first), club, points, tournaments, wins, best place, then
three columns a counted tournament: the place ("DQ" when disqualified), its points and whether
they count. Headers are in the active language.
"""

from django.utils.translation import gettext as _

from organiser.exports.writers.csvfile import COMMA, csv_bytes
from organiser.exports.writers.spreadsheet import workbook_bytes
from organiser.exports.writers.tables import Table
from scoring.selectors.seasons import season_table


def season_sheet(table):
    headers = [_("Place"), _("Player"), _("Organisation"), _("Points"), _("Tournaments"), _("Wins"), _("Best place")]
    for tournament in table.counted:
        headers += [
            _("%(tournament)s: place") % {"tournament": tournament.name},
            _("%(tournament)s: points") % {"tournament": tournament.name},
            _("%(tournament)s: counted") % {"tournament": tournament.name},
        ]
    rows = []
    for line, cells in table.grid:
        row = [line.rank, line.name, line.club, line.points, line.tournaments, line.wins, line.best_place]
        for result in cells:
            if result is None:
                row += [None, None, None]
            else:
                place = _("DQ") if result.disqualified else result.place
                row += [place, result.points, _("yes") if result.counted else _("no")]
        rows.append(row)
    caption = _("%(season)s: staff copy, includes results not yet public.") % {"season": table.season.name}
    return Table(table.season.name, headers, rows, caption=caption)


def tournaments_sheet(table):
    states = {None: _("counted"), "unfinished": _("not finished yet"), "not_public": _("results not yet public")}
    rows = [
        [entry.tournament.name, entry.tournament.slug, entry.tournament.date.isoformat(), str(states[entry.pending])]
        for entry in table.tournaments
    ]
    return Table(_("Tournaments"), [_("Tournament"), _("Address"), _("Date"), _("In the table")], rows)


def season_workbook(season):
    table = season_table(season, public=False)
    return workbook_bytes([season_sheet(table), tournaments_sheet(table)])


XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CSV = "text/csv; charset=utf-8"

SEASON_FILES = {  # name (after the season's address): (content type, season -> bytes)
    "season.xlsx": (XLSX, season_workbook),
    "season.csv": (CSV, lambda season: csv_bytes(season_sheet(season_table(season, public=False)))),
    "season-comma.csv": (CSV, lambda season: csv_bytes(season_sheet(season_table(season, public=False)), COMMA)),
}

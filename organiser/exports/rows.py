"""The organiser's results as plain tables for `organiser.exports` to write (XLSX, CSV).

These are the staff results, whatever the public visibility: the standings of every verified
sheet (`scoring.selectors.standings.compute_standings`, as `manage.py standings` prints them); a sheet
that is not verified yet counts nowhere, its table is listed with empty scores. Headers are
in the active language (Polish by default).
"""

from django.utils import timezone
from django.utils.translation import gettext as _

from organiser.exports.writers.tables import Table
from organiser.selectors import started_rounds
from scoring.models import Card
from scoring.selectors.results import tables_by_round
from scoring.selectors.sheets import cards_given
from scoring.selectors.standings import caption, compute_standings, points_of, tie_note
from scoring.selectors.visibility import Scope
from tournament.models import Player

STAFF = Scope(visible=True, up_to_round=None)  # every round the staff may see: all of them


def standings_headers():
    return [
        _("Place"),
        _("Player"),
        _("Organisation"),
        _("Big points"),
        _("Small points"),
        _("Games won"),
        _("Status"),
        _("Points of"),
        _("Tie"),
    ]


def standings_table(tournament):
    """Rank (empty for the disqualified, listed last), player, organisation, the points that place
    the row and whose they are (the final's for its players), status, the tie's note; the
    caption (how the rows are ordered) heads the printed sheet."""
    statuses = dict(Player.Status.choices)
    standings = compute_standings(tournament)
    rows = [
        [
            row.rank,
            row.player.name,
            row.player.organisation.name,
            row.points.big_points,
            row.points.small_points,
            row.points.games_won,
            str(statuses.get(row.status, row.status)),
            points_of(row),
            tie_note(row) or None,
        ]
        for row in standings
    ]
    return Table(_("Standings"), standings_headers(), rows, caption=caption(standings))


def played_rounds(tournament):
    """[(round, tables)] of the rounds that have started, qualifying rounds first, the final last."""
    return tables_by_round(tournament, started_rounds(tournament), STAFF)


def game_count(round_, tables):
    """How many game columns the round needs: the most games on a sheet, else one per seat."""
    stored = max((len(line.games) for view in tables for line in view.seats), default=0)
    planned = max((round_.games_per_table(len(view.seats)) for view in tables), default=0)
    return max(stored, planned)


def round_headers(games):
    return [
        _("Table"),
        _("Seat at the table"),
        _("Player"),
        *(_("Game %(number)s") % {"number": n} for n in range(1, games + 1)),
        _("Small points"),
        _("Big points"),
    ]


def seat_rows(tables, games):
    """One row per seat: table, seat, player, each game's score, the round's small and big points."""
    for view in tables:
        for line in view.seats:
            scores = [game.score for game in line.games] + [None] * (games - len(line.games))
            totals = line.totals or {}
            yield [
                view.number,
                line.letter,
                line.player.name,
                *scores,
                totals.get("small_points"),
                totals.get("big_points"),
            ]


def round_table(round_, tables):
    games = game_count(round_, tables)
    return Table(str(round_), round_headers(games), list(seat_rows(tables, games)))


def rounds_table(tournament):
    """Every played round's seats in one table (CSV `--table rounds`): the round's name first."""
    played = played_rounds(tournament)
    games = max((game_count(round_, tables) for round_, tables in played), default=4)
    rows = [[str(round_), *row] for round_, tables in played for row in seat_rows(tables, games)]
    return Table(_("Rounds"), [_("Round"), *round_headers(games)], rows)


def cards_table(tournament):
    """Every card, the withdrawn ones too: when and why a card was withdrawn in the last two columns."""
    colours = dict(Card.Colour.choices)
    rows = [
        [
            card.player.name,
            str(colours.get(card.colour, card.colour)),
            str(card.round) if card.round else None,
            card.reason,
            local_time(card.created_at),
            local_time(card.withdrawn_at),
            card.withdrawal_reason or None,
        ]
        for card in cards_given(tournament)
    ]
    headers = [
        _("Player"),
        _("Card"),
        _("Round"),
        _("Reason"),
        _("Time"),
        _("Withdrawn"),
        _("Reason for the withdrawal"),
    ]
    return Table(_("Cards"), headers, rows)


def local_time(moment):
    """A stored time as a spreadsheet's date-time cell (local, without a zone), or None."""
    return timezone.localtime(moment).replace(tzinfo=None) if moment is not None else None


def workbook_tables(tournament):
    """The spreadsheet: standings, one sheet per played round (the final last), the cards."""
    return [
        standings_table(tournament),
        *(round_table(r, tables) for r, tables in played_rounds(tournament)),
        cards_table(tournament),
    ]

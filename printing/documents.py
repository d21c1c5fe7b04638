"""What the printed documents show, gathered in a fixed number of queries per document.

Functions here read the database and return plain data for the print templates; they
decide nothing about who may see what (that is the views' job, with `scoring.visibility`).
"""

from dataclasses import dataclass
from functools import lru_cache

import segno
from django.db.models import Prefetch
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.text import polish_sort_key
from scoring.models import ScoreSheet
from scoring.services import games_per_table, table_letters
from tournament.models import SEAT_LETTERS, Player, Round, Seat

PUBLIC_ROUND_STATES = (Round.State.PUBLISHED, Round.State.STARTED, Round.State.COMPLETED)


@dataclass(frozen=True)
class SheetSeat:
    """A seat line of a score sheet; `player` is None on the blank sheet."""

    letter: str
    player: Player | None = None


@dataclass(frozen=True)
class SheetGame:
    number: int
    starter: str  # the seat letter that starts this game


@dataclass(frozen=True)
class ScoreSheetPage:
    table_number: int | None  # None on the blank sheet
    seats: list[SheetSeat]
    games: list[SheetGame]
    qr_code: str = ""  # a PNG data URI: the link to the table's entry page for the referee


@dataclass(frozen=True)
class Placement:
    """One line of the alphabetical "where do I sit" list."""

    player: Player
    table: int
    seat: str


def round_tables(round_):
    """The tables of a round by number, with seats, players and organisations (two queries)."""
    seats = Seat.objects.select_related("player__organisation").order_by("letter")
    return list(round_.tables.order_by("number").prefetch_related(Prefetch("seats", queryset=seats)))


def alphabetical_placements(tables):
    """Every seated player with table and seat, in Polish alphabetical order of the name."""
    placements = [Placement(seat.player, table.number, seat.letter) for table in tables for seat in table.seats.all()]
    return sorted(placements, key=lambda placement: polish_sort_key(placement.player.name))


def sheet_games(letters, count):
    """Game k is started by seat k (A, B, C, D), going round again after the last seat."""
    return [SheetGame(number, letters[(number - 1) % len(letters)]) for number in range(1, count + 1)]


def table_entry_path(round_, table):
    """The referee's entry page of a table (served by the scoring app)."""
    return reverse("scoring:sheet", args=[round_.tournament.slug, round_.number, table.number])


def qr_data_uri(url):
    """A PNG QR code (raster images are much cheaper for WeasyPrint than SVG paths)."""
    return segno.make(url, error="m").png_data_uri(scale=4, border=4)


# A table's entry URL never changes, and making a QR code takes ~20 ms: make each one once.
# (Not for the device links: those are secrets and must not stay in memory.)
table_qr_code = lru_cache(maxsize=4096)(qr_data_uri)


def score_sheet_pages(round_, tables, absolute_url):
    """One pre-filled score sheet per table; `absolute_url(path)` makes the QR codes' links."""
    pages = []
    for table in tables:
        pages.append(ScoreSheetPage(
            table_number=table.number,
            seats=[SheetSeat(seat.letter, seat.player) for seat in table.seats.all()],
            games=sheet_games(table_letters(table), games_per_table(table)),
            qr_code=table_qr_code(absolute_url(table_entry_path(round_, table))),
        ))
    return pages


def blank_score_sheet_page():
    """A sheet for a four-table with nothing filled in, for writing by hand."""
    return ScoreSheetPage(
        table_number=None,
        seats=[SheetSeat(letter) for letter in SEAT_LETTERS],
        games=sheet_games(SEAT_LETTERS, len(SEAT_LETTERS)),
    )


def results_are_final(tournament):
    """The final is completed (when the tournament has one), else the last planned qualifying round."""
    completed = Round.objects.filter(tournament=tournament, state=Round.State.COMPLETED)
    if tournament.final:
        return completed.filter(kind=Round.Kind.FINAL).exists()
    return completed.filter(kind=Round.Kind.QUALIFYING, number__gte=tournament.rounds_planned).exists()


def results_not_final_reason(tournament):
    """Why diplomas cannot be printed yet (a translated sentence), or None when they can."""
    if not results_are_final(tournament):
        if tournament.final:
            return _("Diplomas can be printed when the final is completed.")
        return _("Diplomas can be printed when the last qualifying round is completed.")
    unverified = (
        ScoreSheet.objects.filter(table__round__tournament=tournament).exclude(state=ScoreSheet.State.VERIFIED).count()
    )
    if unverified:
        return ngettext(
            "%(count)d score sheet is not verified yet; the head referee must verify it first.",
            "%(count)d score sheets are not verified yet; the head referee must verify them first.",
            unverified,
        ) % {"count": unverified}
    return None


def medal_rows(rows):
    """The gold, silver and bronze rows of the standings, or a reason why they are not certain."""
    if any(row.unresolved_tie for row in rows):
        return None, _("There is a tie at a medal place; the head referee must record a decision first.")
    return [row for row in rows if row.medal], None


def participants(tournament):
    """Every player who sat at a table in at least one round, in Polish alphabetical order."""
    players = (
        Player.objects.filter(tournament=tournament, seats__isnull=False).distinct().select_related("organisation")
    )
    return sorted(players, key=lambda player: polish_sort_key(player.name))

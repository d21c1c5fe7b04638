"""What the printed documents show: plain data for the print templates, from what
`printing.selectors` reads. Nothing here decides who may see what (that is the views' job,
with `scoring.selectors.visibility`).
"""

from dataclasses import dataclass
from functools import lru_cache

import segno
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.selectors.sheets import results_are_final, unverified_sheet_count
from scoring.services.sheets import games_per_table, table_letters
from tournament.models import SEAT_LETTERS, Player, Round
from tournament.names import sorted_by_surname

PUBLIC_ROUND_STATES = (Round.State.PUBLISHED, Round.State.STARTED, Round.State.COMPLETED)


def fit(text, steps):
    """The style class that fits `text` in its box: `steps` are (most characters, class) pairs,
    from the largest type down, and the last class takes any longer text (see the stylesheets)."""
    for most, style in steps[:-1]:
        if len(text) <= most:
            return style
    return steps[-1][1]


# Characters that fit the boxes at each type size (the classes are in sheets.css and diplomas.css).
SHEET_NAME_STEPS = ((34, ""), (44, "small"), (90, "small wrap"), (None, "tiny wrap"))
SHEET_ORGANISATION_STEPS = ((52, ""), (100, "wrap"), (None, "tiny wrap"))
SHEET_TOURNAMENT_STEPS = ((60, ""), (None, "small"))
DIPLOMA_NAME_STEPS = ((40, ""), (100, "small"), (None, "tiny"))
DIPLOMA_TOURNAMENT_STEPS = ((60, ""), (120, "small"), (None, "tiny"))
DIPLOMA_ORGANISATION_STEPS = ((90, ""), (150, "small"), (None, "tiny"))


@dataclass(frozen=True)
class SheetGame:
    number: int
    starter: str  # the seat letter that starts this game


@dataclass(frozen=True)
class SheetForm:
    """A score sheet's printed form: everything but the table number, the players and the QR code."""

    letters: tuple[str, ...]
    games: tuple[SheetGame, ...]
    blank: bool = False  # for writing by hand: taller seat rows, no table number, no QR code


class FitsPlayer:
    """The style classes that fit the `player`'s name and organisation in the class's boxes."""

    name_steps = organisation_steps = ()

    @property
    def name_fit(self):
        return fit(self.player.name, self.name_steps)

    @property
    def organisation_fit(self):
        return fit(self.player.organisation.name, self.organisation_steps)


@dataclass(frozen=True)
class SheetSeat(FitsPlayer):
    letter: str
    player: Player
    name_steps, organisation_steps = SHEET_NAME_STEPS, SHEET_ORGANISATION_STEPS


@dataclass(frozen=True)
class ScoreSheetPage:
    table_number: int
    seats: list[SheetSeat]
    form: SheetForm
    qr_code: str | None  # a PNG data URI: the link to the table's entry page (None: paper only)


@dataclass(frozen=True)
class Recipient(FitsPlayer):
    """A diploma or certificate: whose it is and which printed form it is on."""

    player: Player
    form: str  # "gold", "silver", "bronze" or "participation"
    name_steps, organisation_steps = DIPLOMA_NAME_STEPS, DIPLOMA_ORGANISATION_STEPS


@dataclass(frozen=True)
class Placement:
    """One line of the alphabetical "where do I sit" list."""

    player: Player
    table: int
    seat: str


def alphabetical_placements(tables):
    """Every seated player with table and seat, in surname order (Polish alphabetical)."""
    placements = [Placement(seat.player, table.number, seat.letter) for table in tables for seat in table.seats.all()]
    return sorted_by_surname(placements, person=lambda placement: placement.player)


def sheet_form(letters, game_count, blank=False):
    """Game k is started by seat k (A, B, C, D), going round again after the last seat."""
    letters = tuple(letters)
    games = tuple(SheetGame(number, letters[(number - 1) % len(letters)]) for number in range(1, game_count + 1))
    return SheetForm(letters, games, blank)


def distinct_forms(page_forms):
    """The distinct forms of a document's pages in order of appearance, and each page's index into them."""
    forms = list(dict.fromkeys(page_forms))
    index = {form: position for position, form in enumerate(forms)}
    return forms, [index[form] for form in page_forms]


def table_entry_path(round_, table):
    """The referee's entry page of a table (served by the scoring app)."""
    return reverse("scoring:sheet", args=[round_.tournament.slug, round_.number, table.number])


def qr_data_uri(url):
    """A PNG QR code, one pixel per module: print it with `image-rendering: pixelated`, so
    that it prints sharp. (Raster images are much cheaper for WeasyPrint than SVG paths.)"""
    return segno.make(url, error="m").png_data_uri(scale=1, border=4)


# A table's entry URL never changes, and making a QR code takes ~20 ms: make each one once.
# (Not for the device links: those are secrets and must not stay in memory.)
table_qr_code = lru_cache(maxsize=4096)(qr_data_uri)


def score_sheet_pages(round_, tables, absolute_url):
    """One pre-filled score sheet per table; `absolute_url(path)` makes the QR codes' links
    (None: paper only, no QR codes)."""
    pages = []
    for table in tables:
        pages.append(
            ScoreSheetPage(
                table_number=table.number,
                seats=[SheetSeat(seat.letter, seat.player) for seat in table.seats.all()],
                form=sheet_form(table_letters(table), games_per_table(table)),
                qr_code=table_qr_code(absolute_url(table_entry_path(round_, table))) if absolute_url else None,
            )
        )
    return pages


def blank_score_sheet_form():
    """A sheet for a four-table with nothing filled in, for writing by hand."""
    return sheet_form(SEAT_LETTERS, len(SEAT_LETTERS), blank=True)


def results_not_final_reason(tournament):
    """Why diplomas cannot be printed yet (a translated sentence), or None when they can."""
    if not results_are_final(tournament):
        if tournament.final:
            return _("Diplomas can be printed when the final is completed.")
        return _("Diplomas can be printed when the last qualifying round is completed.")
    unverified = unverified_sheet_count(tournament)
    if unverified:
        return ngettext(
            "%(count)d score sheet is not verified yet; the head referee must verify it first.",
            "%(count)d score sheets are not verified yet; the head referee must verify them first.",
            unverified,
        ) % {"count": unverified}
    return None


def medallists(rows):
    """The medal diplomas' recipients from the standings, or a reason why they are not certain."""
    if any(row.unresolved_tie for row in rows):
        return None, _("There is a tie at a medal place; the head referee must record a decision first.")
    return [Recipient(row.player, row.medal) for row in rows if row.medal], None


def participants(players):
    """A certificate for each of `players` (see `printing.selectors.players_who_sat`) but the
    disqualified: a disqualification ends the player's part in the tournament (SPEC §4)."""
    return [Recipient(player, "participation") for player in players if not player.is_disqualified]

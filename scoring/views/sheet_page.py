"""The score-sheet page: everything it shows, read in a fixed number of queries, and its renderings."""

from dataclasses import dataclass, field

from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _

from engine import rules
from scoring import selectors, services
from scoring.forms import GameForm, OverrideForm, blank_data, game_data, with_keypad_key
from scoring.models import Game, ScoreSheet, SeatResult
from scoring.views.access import is_head, load_table
from tournament.models import Player


@dataclass
class GameEntry:
    """One game on the sheet page: its form (or read-only results) and what it shows."""

    number: int
    starts: str
    stored: Game | None
    form: GameForm | None = None
    status: str = "new"  # new, saved, unsaved, conflict
    changes: list = field(default_factory=list)  # audit entries shown on the conflict screen
    override_form: OverrideForm | None = None
    refusal: str = ""
    force_open: bool = False
    current: bool = False  # the game being entered: the first one not saved yet
    starter: Player | None = None
    winner: Player | None = None  # who went out, in a stored game
    urls: dict = field(default_factory=dict)

    @property
    def open(self):
        """Only the game being entered is open, and a game that needs a look (values not saved,
        a conflict, a refusal); the others fold up to one line, which opens on a tap."""
        return self.force_open or self.current or self.status in ("unsaved", "conflict") or bool(self.refusal)

    def matches_stored(self):
        return holds_stored_game(self.form, self.stored)


def holds_stored_game(form, stored):
    """The validated form holds exactly the stored game (so there is nothing to save)."""
    if stored is None or form is None or form.game is None:
        return False
    stored_keypad = {r.letter: r.keypad for r in stored.results.all() if r.keypad is not None}
    return form.game == services.game_input(stored) and form.keypad == stored_keypad


class SheetPage:
    """Everything the score-sheet page shows, read in a fixed number of queries."""

    def __init__(self, request, tournament, table, sheet):
        self.request = request
        self.tournament = tournament
        self.table = table
        self.round = table.round
        self.sheet = sheet
        self.seats = list(table.seats.all())
        self.letters = tuple(seat.letter for seat in self.seats)
        self.players = {seat.letter: seat.player for seat in self.seats}
        self.settings = tournament.rules_settings()
        self.head = is_head(request)
        self.opening_choices = SeatResult.Opening.choices
        self.n_games = services.games_per_table(table)
        self.load_games()

    def load_games(self):
        """Forget the stored games and entries: both are read again when first asked for."""
        self._games = None
        self._entries = {}

    @property
    def games(self):
        if self._games is None:
            self._games = selectors.sheet_games(self.sheet)
        return self._games

    def refresh(self):
        """Read the sheet again after a change (the table and its players stay as they are)."""
        self.sheet = selectors.current_sheet(self.sheet)
        self.load_games()
        return self

    def entry(self, number):
        if number not in self._entries:
            self._entries[number] = self._entry(number)
        return self._entries[number]

    @property
    def editable(self):
        return self.sheet.state != ScoreSheet.State.VERIFIED or self.head

    @property
    def correcting(self):
        """The head referee changes a verified sheet: every change needs a reason."""
        return self.sheet.state == ScoreSheet.State.VERIFIED

    @property
    def complete(self):
        return len(self.games) == self.n_games

    @property
    def current_number(self):
        """The game being entered: the first game not saved yet (None when all are, or the
        sheet is read-only for this user)."""
        if not self.editable:
            return None
        return next((n for n in range(1, self.n_games + 1) if n not in self.games), None)

    @property
    def can_submit(self):
        return self.complete and self.sheet.state in (ScoreSheet.State.EMPTY, ScoreSheet.State.IN_PROGRESS)

    @property
    def can_verify(self):
        return self.head and self.sheet.state == ScoreSheet.State.SUBMITTED

    @property
    def verifier(self):
        user = self.sheet.verified_by
        return (user.get_full_name() or user.get_username()) if user else ""

    @property
    def seat_rows(self):
        return [(seat.letter, seat.player) for seat in self.seats]

    @property
    def totals(self):
        """Round totals per seat from the stored games: small points, big points, games won."""
        results = [services.game_result(self.games[n]) for n in sorted(self.games)]
        table = rules.table_round(results, self.settings)
        return [(letter, self.players[letter], table.get(letter)) for letter in self.letters]

    def form_for(self, number, data, require_complete=False):
        form = GameForm(
            data, letters=self.letters, number=number, settings=self.settings, require_complete=require_complete
        )
        stored = {r.letter: r for r in self.games[number].results.all()} if number in self.games else {}
        for letter, seat in form.seats.items():
            seat.player = self.players[letter]
            seat.stored = stored.get(letter)
        return form

    def _entry(self, number):
        stored = self.games.get(number)
        starts = services.starting_seat(self.letters, number)
        entry = GameEntry(number, starts, stored, starter=self.players[starts], current=number == self.current_number)
        if stored is not None and stored.winner:
            entry.winner = self.players.get(stored.winner)
        entry.urls = {
            name: self.url(name, game_number=number) for name in ("game_save", "game_preview", "score_override")
        }
        if stored is not None:
            entry.status = "saved"
            if self.head:
                entry.override_form = OverrideForm(
                    initial={"version": self.sheet.version}, letters=self.letters, prefix=f"o{number}"
                )
        if self.editable:
            data = game_data(stored, self.sheet.version) if stored else blank_data(self.sheet.version)
            entry.form = self.form_for(number, data)  # a stored game shows its stored scores
        return entry

    def bind(self, number, form, status):
        """Show `form` (what the tablet posted) for game `number` instead of the stored values."""
        entry = self.entry(number)
        entry.form = form
        entry.status = status
        return entry

    def url(self, name, **kwargs):
        return reverse(
            f"scoring:{name}",
            kwargs={"slug": self.tournament.slug, "round_number": self.round.number, "table_number": self.table.number,
                    **kwargs},
        )

    @property
    def entry_list(self):
        return [self.entry(n) for n in range(1, self.n_games + 1)]

    @property
    def form_numbers(self):
        """The games shown as forms (all of them, unless the sheet is read-only for this user)."""
        return range(1, self.n_games + 1) if self.editable else range(0)

    @property
    def js_text(self):
        """The messages of sheet.js, in the user's language."""
        return {
            "pending": _("not saved — will retry"),
            "offline": _("Not saved — will retry: there is no connection. Your values are kept."),
            "timeout": _("Not saved — will retry: the server did not answer in time. Your values are kept."),
            "serverError": _("Not saved — will retry: the server had a problem. Your values are kept."),
            "refused": _("Not saved: you were signed out or may not change this sheet. Reload the page."),
            "previewOffline": _("No connection: the scores will be computed when the connection is back."),
            "restored": _("Values that were not saved yet have been put back. Check them and save."),
            "restoredPending": _("This game was not saved before the page was closed. Sending it again…"),
            "retrying": _("Sending again…"),
        }

    @property
    def urls(self):
        return {name: self.url(name) for name in ("sheet", "sheet_submit", "sheet_verify", "sheet_log")}


def sheet_page(request, tournament, round_number, table_number):
    table, sheet = load_table(tournament, round_number, table_number)
    return SheetPage(request, tournament, table, sheet)


def game_number_or_404(page, game_number):
    if not 1 <= game_number <= page.n_games:
        raise Http404
    return game_number


def posted_game(request, tournament, round_number, table_number, game_number, require_complete=False):
    """The sheet page and the game form bound to what the tablet posted (a keypad key applied)."""
    page = sheet_page(request, tournament, round_number, table_number)
    number = game_number_or_404(page, game_number)
    data = with_keypad_key(request.POST, page.letters)
    return page, number, page.form_for(number, data, require_complete=require_complete)


def render_sheet(request, page, *, status=200):
    return render(request, "scoring/sheet.html", {"page": page, "tournament": page.tournament}, status=status)


def render_game(request, page, entry, *, with_version=False, saved=False):
    """What an htmx request about one game gets back: its scores, errors and status, swapped by id.

    The inputs, labels and buttons are never replaced, so no tap or keystroke is lost while a
    reply is on its way. `with_version` moves the form on to the sheet's current version (after a
    save or a conflict); `saved` also sends the round totals and every other game's version.
    """
    context = {
        "page": page, "tournament": page.tournament, "entry": entry, "live": True,
        "with_version": with_version or saved, "saved": saved,
    }
    return render(request, "scoring/sheet.html#game-live", context)

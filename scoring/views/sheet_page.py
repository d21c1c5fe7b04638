"""The score-sheet page: everything it shows, read in a fixed number of queries, and its renderings."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from django.core.exceptions import NON_FIELD_ERRORS
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.template.loader import get_template
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext as _

from engine import rules
from scoring.forms import CardForm, GameForm, OverrideForm, SeatFields, stored_initial, with_keypad_key
from scoring.models import Game, ScoreSheet, SeatResult
from scoring.selectors import sheets as selectors
from scoring.services import sheets as services
from scoring.services.entry import CheckedGame
from scoring.views.access import is_head, load_table
from scoring.views.audit_log import rack_words
from scoring.views.sheet_conflict import Conflict, ConflictSeat
from tournament.models import Player
from tournament.navigation import htmx_or_page

NUMBER_MARK = 987654321  # in an address reversed once, where each game's or player's number goes


@dataclass
class SeatRow:
    """One seat of a game on the page: who sits there, its fields (of the game's form), and what it scores."""

    letter: str
    player: Player
    entry: GameEntry = field(repr=False, compare=False)
    stored: SeatResult | None = None  # the seat's result in the stored game
    score: int | None = None  # the game score, once the whole game is valid
    minus: int | None = None  # the rack's minus points, once the rack is valid
    keypad_total: tuple[int, int] | None = None  # (tiles, jokers) added up from the keypad
    tiles: int | None = None  # the tiles left on the rack (typed, or from the keypad)

    @property
    def shown_score(self):
        """The game score once known, else the rack's minus points."""
        if self.score is not None:
            return self.score
        return None if self.minus is None else -self.minus

    @functools.cached_property
    def fields(self) -> SeatFields:
        return self.entry.form.seat_fields(self.letter)

    @property
    def uses_keypad(self):
        return bool(str(self.fields.keypad.value() or "").strip())


@dataclass
class SeatCard:
    """One seat in the sheet's list of players: its player's page and the form to give a card."""

    letter: str
    player: Player
    card: CardForm
    player_url: str
    card_url: str


@dataclass
class GameEntry:
    """One game on the sheet page: its form (or read-only results) and what it shows.

    A form showing the stored values is built when first drawn (`form_factory`): what an htmx
    request gets back after a save draws none."""

    number: int
    starts: str
    stored: Game | None
    form_factory: Callable[[], GameForm] | None = None
    bound_form: GameForm | None = None  # what the tablet posted, once `SheetPage.bind` showed it
    rows: list[SeatRow] = field(default_factory=list)  # the seats of the form
    checked: CheckedGame | None = None  # what the values in the form score
    errors: dict = field(default_factory=dict)  # the messages shown next to each field (`__all__`: the game's)
    version: int | None = None  # the sheet version the form moves on to (after a conflict)
    status: str = "new"  # new, saved, just_saved, unsaved, conflict
    conflict: Conflict | None = None  # after a refused save: what was saved meanwhile
    override_form: OverrideForm | None = None
    refusal: str = ""
    force_open: bool = False
    current: bool = False  # the game being entered: the first one not saved yet
    starter: Player | None = None
    winner: Player | None = None  # who went out, in a stored game
    urls: dict = field(default_factory=dict)

    @functools.cached_property
    def form(self) -> GameForm | None:
        if self.bound_form is not None:
            return self.bound_form
        return self.form_factory() if self.form_factory else None

    @property
    def open(self):
        """Only the game being entered is open, and a game that needs a look (values not saved,
        a conflict, a refusal); the others fold up to one line, which opens on a tap."""
        return self.force_open or self.current or self.status in ("unsaved", "conflict") or bool(self.refusal)

    @property
    def needs_confirmation(self):
        """Some rack holds more than 200 points of tiles: the form asks "are you sure?"."""
        return any((row.tiles or 0) > rules.CONFIRM_TILES_ABOVE for row in self.rows)

    @property
    def results(self):
        """The stored game's seat results in letter order (none for a game not stored yet)."""
        return selectors.results_of(self.stored) if self.stored is not None else []

    @property
    def shown_version(self):
        """The sheet version the form sends with the game."""
        return self.form["version"].value() if self.version is None else self.version

    def errors_for(self, name):
        return self.errors.get(name, ())

    def invalid(self, name):
        """The attributes that mark the input of a field with errors."""
        return {"aria-invalid": "true"} if name in self.errors else {}

    def matches_stored(self):
        """The values in the form are exactly the stored game (so there is nothing to save)."""
        checked = self.checked
        return checked is not None and services.holds_game(self.stored, checked.game, checked.keypad)


class SheetPage:
    """Everything the score-sheet page shows, read in a fixed number of queries."""

    def __init__(self, request, tournament, table, sheet):
        self.request = request
        self.tournament = tournament
        self.table = table
        self.round = table.round
        self.sheet = sheet
        self.players = selectors.seated_players(table)
        self.letters = tuple(self.players)
        self.settings = tournament.rules_settings()
        self.head = is_head(request)
        self.n_games = services.games_per_table(table)
        self._games = table.stored_games
        self._totals = None
        self._entries = {}
        self._urls = {}

    @property
    def games(self):
        """The stored games by number (read with the table, or as a save left them)."""
        return self._games

    def show_saved(self, saved):
        """Show the sheet as a save left it (`services.SavedGame`), without reading it again."""
        self.show(saved.sheet, saved.games)
        self._totals = saved.totals
        return self

    def show(self, sheet, games):
        """Show the sheet and its games as stored now (after a save or a conflict)."""
        sheet.table = self.table
        self.sheet, self._games, self._totals, self._entries = sheet, games, None, {}
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
        """Each seat with its player and the form to give the player a card (which shows the
        player's cards so far: the cards of the table are read in one query)."""
        cards = selectors.cards_at_table(self.table)
        return [
            SeatCard(
                letter,
                player,
                self.card_form(letter, player, cards[player.pk]),
                self.numbered_url("player", player.pk),
                self.numbered_url("give_card", player.pk),
            )
            for letter, player in self.players.items()
        ]

    def card_form(self, letter, player, cards):
        return CardForm(
            initial={"round": self.round.number, "next": self.url("sheet")},
            player=player,
            cards=cards,
            allow_red=self.head,
            auto_id=f"card-{letter}-%s",
        )

    @property
    def totals(self):
        """Round totals per seat from the stored games: small points, big points, games won."""
        if self._totals is None:
            self._totals = services.sheet_totals(self.games, self.settings)
        return [(letter, self.players[letter], self._totals.get(letter)) for letter in self.letters]

    def form_for(self, number, data=None, *, require_complete=False, initial=None):
        return GameForm(
            data,
            players=self.players,
            number=number,
            require_complete=require_complete,
            correcting=self.correcting and self.editable,
            initial=initial,
        )

    def _entry(self, number):
        stored = self.games.get(number)
        starts = services.starting_seat(self.letters, number)
        entry = GameEntry(number, starts, stored, starter=self.players[starts], current=number == self.current_number)
        if stored is not None and stored.winner:
            entry.winner = self.players.get(stored.winner)
        entry.urls = {name: self.numbered_url(name, number) for name in ("game_save", "game_preview", "score_override")}
        if stored is not None:
            entry.status = "saved"
            if self.head:
                entry.override_form = OverrideForm(
                    initial={"version": self.sheet.version}, letters=self.letters, prefix=f"o{number}"
                )
        if self.editable:
            initial = stored_initial(stored, self.sheet.version) if stored else {"version": self.sheet.version}
            entry.form_factory = functools.partial(self.form_for, number, initial=initial)  # the stored scores
            entry.rows = self._stored_rows(entry, stored)
        return entry

    def _stored_rows(self, entry, stored):
        """The seats of a form showing the stored game (if any): the counts as stored."""
        rows = self._rows(entry, stored)
        for row in rows:
            if row.stored is not None and not row.stored.went_out:
                row.tiles = row.stored.tiles
                row.keypad_total = (row.stored.tiles, row.stored.jokers) if row.stored.keypad is not None else None
        return rows

    def _rows(self, entry, stored):
        results = selectors.results_by_letter(stored)
        return [SeatRow(letter, player, entry, results.get(letter)) for letter, player in self.players.items()]

    def bind(self, number, form, status, checked, *, version=None):
        """Show `form` (what the tablet posted, parsed) for game `number` instead of the stored
        values, with what the rules found in the game it read (`checked`: problems next to their
        fields, minus points, scores); `version`: the sheet version the form moves on to."""
        self._entries.pop(number, None)  # drawn anew, with the posted form
        entry = self.entry(number)
        entry.bound_form, entry.status, entry.checked, entry.version = form, status, checked, version
        entry.errors = shown_errors(form, checked.problems)
        entry.rows = self._rows(entry, entry.stored)
        for row in entry.rows:
            rack = checked.racks.get(row.letter)
            if rack is not None and row.letter != checked.entered.ending:
                row.tiles = rack.tiles
            if rack is not None and row.letter in checked.on_keypad:
                row.keypad_total = (rack.tiles, rack.jokers)
            row.minus = checked.minus.get(row.letter)
            row.score = checked.result.scores[row.letter] if checked.result else None
        return entry

    def conflict(self, entry, changes, checked):
        """The conflict screen of game `entry` (shown after `show` put the sheet as stored now):
        `changes` are the audit entries since the form was loaded (ChangeView), `checked` the
        game this tablet sent, scored."""
        conflict = Conflict(changes)
        for change in changes:
            after = change.entry.after if isinstance(change.entry.after, dict) else {}
            change.this_game = isinstance(after.get("game"), dict) and after["game"].get("number") == entry.number
            if change.this_game:
                conflict.by, conflict.at = change.who, change.entry.created_at
        stored = entry.stored
        if stored is None or checked is None or checked.game is None:
            return conflict
        mine = checked.game
        conflict.saved_ending = self.ending_words(stored.winner or None)
        conflict.mine_ending = self.ending_words(mine.winner)
        results = selectors.results_by_letter(stored)
        for letter, player in self.players.items():
            result, rack = results.get(letter), mine.racks.get(letter)
            if result is None:
                continue
            saved = (
                _("went out")
                if result.went_out
                else rack_words(result.tiles, result.jokers, result.opening, result.first_move_case)
            )
            yours = (
                _("went out")
                if letter == mine.winner or rack is None
                else rack_words(rack.tiles, rack.jokers, rack.opening, rack.first_move_case)
            )
            conflict.seats.append(
                ConflictSeat(letter, player, saved, result.effective_score, yours, checked.result.scores.get(letter))
            )
        return conflict

    def ending_words(self, winner):
        """Who went out, in words: "A Anna Nowak", or "pool exhausted"."""
        if winner is None:
            return _("pool exhausted")
        player = self.players.get(winner)
        return f"{winner} {player.name}" if player else winner

    def url(self, name, **kwargs):
        """The address of one of this sheet's pages (each reversed once per page)."""
        key = (name, *sorted(kwargs.items()))
        if key not in self._urls:
            self._urls[key] = reverse(
                f"scoring:{name}",
                kwargs={
                    "slug": self.tournament.slug,
                    "round_number": self.round.number,
                    "table_number": self.table.number,
                    **kwargs,
                },
            )
        return self._urls[key]

    def numbered_url(self, name, number):
        """The address of game `number` of this sheet, or of player `number` (`player`,
        `give_card`): each name is reversed once per page, with a mark the number replaces."""
        if name not in self._urls:
            if name in ("player", "give_card"):
                self._urls[name] = reverse(f"scoring:{name}", args=(self.tournament.slug, NUMBER_MARK))
            else:
                self._urls[name] = self.url(name, game_number=NUMBER_MARK)
        return self._urls[name].replace(f"/{NUMBER_MARK}/", f"/{number}/")

    @property
    def entry_list(self):
        return [self.entry(n) for n in range(1, self.n_games + 1)]

    @property
    def form_numbers(self):
        """The games shown as forms (all of them, unless the sheet is read-only for this user)."""
        return range(1, self.n_games + 1) if self.editable else range(0)

    @property
    def submit_hint(self):
        return ngettext(
            "Submit the sheet when %(counter)s game is saved.",
            "Submit the sheet when all %(counter)s games are saved.",
            self.n_games,
        ) % {"counter": self.n_games}

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


def shown_errors(form, refusals):
    """The messages next to each field of a game form: the form's own (a value it could not
    read), then the rules' refusals (`racks.B.tiles` shows at `B-tiles`, the game's at `__all__`)."""
    errors = {name: list(messages) for name, messages in form.errors.items()}
    for refusal in refusals:
        errors.setdefault(field_of(form, refusal.field), []).append(refusal.message)
    return errors


def field_of(form, path):
    parts = (path or "").split(".")
    if parts[0] == "racks" and len(parts) == 3:
        name = f"{parts[1]}-{parts[2]}"
        return name if name in form.fields else f"{parts[1]}-tiles"
    return {"winner": "ending", "reason": "reason"}.get(parts[0], NON_FIELD_ERRORS)


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
    context = {
        "page": page,
        "tournament": page.tournament,
        "state_badge": render_games(request, page, part="badge"),
        "seats": render_jinja(request, page, "scoring/sheet_seats.html"),
        "games": render_games(request, page, part="games"),
    }
    return render(request, "scoring/sheet.html", context, status=status)


def render_games(request, page, **context):
    """A part of the sheet drawn by its Jinja2 template: the games and totals, the state badge, or
    what an htmx request about one game gets back."""
    return render_jinja(request, page, "scoring/sheet_games.html", **context)


# The templates' indentation between two tags, a line break kept: a sheet is read over a venue's
# Wi-Fi, and the page renders the same (whitespace between tags counts as one space at most).
BETWEEN_TAGS = re.compile(r">[ \t]*\n\s*<")


def render_jinja(request, page, template_name, **context):
    """A part of the sheet drawn by a Jinja2 template.

    Each text is translated once per drawing (a sheet repeats its labels for every seat of every
    game, some 300 times): the template's `gettext` remembers what it looked up."""
    template = get_template(template_name, using="jinja2")
    translated = functools.lru_cache(maxsize=None)(gettext)
    context = {"page": page, "tournament": page.tournament, "gettext": translated, **context}
    return mark_safe(BETWEEN_TAGS.sub(">\n<", template.render(context, request)))


def answer(request, page, entry, *, status=200, with_version=False, saved=False):
    """An htmx request gets the parts of game `entry` (`render_game`, always status 200 so that
    htmx swaps them); a plain form post gets the whole page with `status`."""
    return htmx_or_page(
        request,
        lambda: render_game(request, page, entry, with_version=with_version, saved=saved),
        lambda: render_sheet(request, page, status=status),
    )


def render_game(request, page, entry, *, with_version=False, saved=False):
    """What an htmx request about one game gets back: its scores, errors and status, swapped by id.

    The inputs, labels and buttons are never replaced, so no tap or keystroke is lost while a
    reply is on its way. `with_version` moves the form on to the sheet's current version (after a
    save or a conflict); `saved` also sends the round totals and every other game's version.
    """
    html = render_games(request, page, part="live", entry=entry, live=True, with_version=with_version, saved=saved)
    return HttpResponse(html)

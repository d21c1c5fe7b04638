"""Referee tablets: the round's tables, score sheets with live scoring, verification,
corrections, the audit log, cards, and the public move timer.

Views parse, call `scoring.services` and render; the rules engine computes every score.
htmx requests get fragments (always status 200, so htmx swaps them); plain form posts get the
whole page, or a redirect after a successful change.
"""

from dataclasses import dataclass, field
from functools import wraps

from django.contrib import messages
from django.db.models import Count, Prefetch, Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts.models import Role
from accounts.roles import RANK, staff_required
from engine import rules
from scoring import services
from scoring.forms import CardForm, GameForm, OverrideForm, TieDecisionForm, blank_data, game_data, with_keypad_key
from scoring.messages import violation_message
from scoring.templatetags.referee import signed
from scoring.models import AuditEntry, Card, Game, ScoreSheet, SeatResult
from tournament import services as tournament_services
from tournament.models import Player, Round, Seat, Table, Tournament


def referee_view(minimum=Role.REFEREE):
    """`staff_required`, and a signed-out tablet's htmx request is sent to the login page.

    (A plain redirect would swap the login page into the score sheet.)
    """

    def decorator(view):
        guarded = staff_required(minimum)(view)

        @wraps(view)
        def wrapper(request, slug, *args, **kwargs):
            if request.htmx and not request.user.is_authenticated:
                back = request.htmx.current_url_abs_path or request.path
                return HttpResponseClientRedirect(f"{reverse('accounts:login')}?next={back}")
            return guarded(request, slug, *args, **kwargs)

        return wrapper

    return decorator


def is_head(request):
    return RANK[request.role] >= RANK[Role.HEAD_REFEREE]


# ---------------------------------------------------------------- loading


def current_round(tournament):
    """The round referees work on: the latest started round, else the latest published one."""
    rounds = Round.objects.filter(tournament=tournament)
    return (
        rounds.filter(state=Round.State.STARTED).order_by("-number").first()
        or rounds.filter(state=Round.State.PUBLISHED).order_by("-number").first()
    )


def seats_prefetch():
    return Prefetch("seats", Seat.objects.select_related("player").order_by("letter"))


def load_table(tournament, round_number, table_number):
    """A table of a round that is not a draft, with its seats, players and score sheet."""
    table = get_object_or_404(
        Table.objects.select_related("round").prefetch_related(seats_prefetch()),
        round__tournament=tournament, round__number=round_number, number=table_number,
    )
    if table.round.state == Round.State.DRAFT:
        raise Http404
    table.round.tournament = tournament
    sheet = services.ensure_sheet(table)
    sheet.table = table
    return table, sheet


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
            self._games = {g.number: g for g in self.sheet.games.prefetch_related("results")}
        return self._games

    def refresh(self):
        """Read the sheet again after a change (the table and its players stay as they are)."""
        self.sheet = ScoreSheet.objects.select_related("verified_by").get(pk=self.sheet.pk)
        self.sheet.table = self.table
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


# ---------------------------------------------------------------- pages


@referee_view()
def referee_home(request, tournament, round_number=None):
    """The current round's tables as big buttons with the sheet state (or another round's)."""
    rounds = list(Round.objects.filter(tournament=tournament).exclude(state=Round.State.DRAFT).order_by("number"))
    if round_number is None:
        round_ = current_round(tournament)
    else:
        round_ = next((r for r in rounds if r.number == round_number), None)
        if round_ is None:
            raise Http404
    tables = []
    if round_ is not None:
        tables = list(
            Table.objects.filter(round=round_).select_related("sheet").prefetch_related(seats_prefetch()).order_by("number")
        )
    context = {"tournament": tournament, "round": round_, "rounds": rounds, "tables": tables}
    return render(request, "scoring/home.html", context)


@referee_view()
def sheet_view(request, tournament, round_number, table_number):
    page = sheet_page(request, tournament, round_number, table_number)
    return render_sheet(request, page)


@require_POST
@referee_view()
def game_preview(request, tournament, round_number, table_number, game_number):
    """Score what has been entered so far (nothing is saved): the game with scores or errors."""
    page, number, form = posted_game(request, tournament, round_number, table_number, game_number)
    if not page.editable:
        return refuse(request, page, number, services.RefereeError("sheet_verified"))
    form.is_valid()
    entry = page.bind(number, form, "unsaved")
    entry.force_open = True
    if entry.matches_stored():
        entry.status = "saved"
    if request.htmx:
        return render_game(request, page, entry)
    return render_sheet(request, page)


@require_POST
@referee_view()
def game_save(request, tournament, round_number, table_number, game_number):
    """Save one game: validated by the rules engine, compare-and-swap on the sheet version."""
    page, number, form = posted_game(
        request, tournament, round_number, table_number, game_number, require_complete=True
    )
    if form.is_valid():
        try:
            services.save_game(
                page.sheet, number, form.game, version=form.cleaned_data["version"], user=request.user,
                keypad=form.keypad or None, reason=form.cleaned_data.get("reason") or "",
            )
        except services.EditConflict as conflict:
            page.refresh()
            if holds_stored_game(form, page.games.get(number)):
                # The sheet already holds exactly these values (e.g. a retry after a lost reply).
                return saved_response(request, page, number)
            return show_conflict(request, page, number, form, conflict)
        except services.RefereeError as error:
            if error.code == "sheet_verified":
                return refuse(request, page, number, error)
            form.add_violation(error)
        except rules.RuleViolation as error:
            form.add_violation(error)
        else:
            return saved_response(request, page.refresh(), number)
    entry = page.bind(number, form, "unsaved")
    if request.htmx:
        return render_game(request, page, entry)
    return render_sheet(request, page)


def saved_response(request, page, number):
    """After a save: the saved game with the new totals (htmx), or back to the sheet."""
    if not request.htmx:
        messages.success(request, _("Game %(number)s saved.") % {"number": number})
        following = page.current_number
        return redirect(f"{page.url('sheet')}#{f'game-{following}' if following else 'sheet-summary'}")
    entry = page.entry(number)
    entry.status = "just_saved"
    return render_game(request, page, entry, saved=True)


def show_conflict(request, page, number, form, conflict):
    """The later save is refused: show what the other tablet saved and keep this tablet's values.

    The kept form now carries the current version (`page` has been refreshed), so saving it
    again re-applies the values.
    """
    data = form.data.copy()
    data["version"] = str(page.sheet.version)
    kept = page.form_for(number, data, require_complete=True)
    kept.is_valid()
    entry = page.bind(number, kept, "conflict")
    entry.changes = [describe_entry(change, page.players) for change in conflict.changes]
    if request.htmx:
        return render_game(request, page, entry, with_version=True)
    return render_sheet(request, page, status=409)


def refuse(request, page, number, error):
    """A change this user may not make (e.g. a referee on a verified sheet): say so, change nothing."""
    message = violation_message(error)
    if request.htmx:
        entry = page.entry(number)
        entry.refusal = message
        return render_game(request, page, entry)
    messages.error(request, message)
    return render_sheet(request, page, status=403)


@require_POST
@referee_view()
def sheet_submit(request, tournament, round_number, table_number):
    page = sheet_page(request, tournament, round_number, table_number)
    return sheet_transition(request, page, services.submit_sheet, _("The sheet has been submitted."))


@require_POST
@referee_view(Role.HEAD_REFEREE)
def sheet_verify(request, tournament, round_number, table_number):
    page = sheet_page(request, tournament, round_number, table_number)
    return sheet_transition(request, page, services.verify_sheet, _("The sheet has been verified."))


def posted_version(request):
    try:
        return int(request.POST.get("version", ""))
    except ValueError:
        return -1


def sheet_transition(request, page, service, success):
    try:
        service(page.sheet, version=posted_version(request), user=request.user)
    except services.RefereeError as error:
        messages.error(request, violation_message(error))
    else:
        messages.success(request, success)
    return redirect(page.url("sheet"))


@require_POST
@referee_view(Role.HEAD_REFEREE)
def score_override(request, tournament, round_number, table_number, game_number):
    """The head referee sets a seat's score by hand, with a reason (SPEC: overrides are logged)."""
    page = sheet_page(request, tournament, round_number, table_number)
    number = game_number_or_404(page, game_number)
    entry = page.entry(number)
    if entry.stored is None:
        raise Http404
    form = OverrideForm(request.POST, letters=page.letters, prefix=f"o{number}")
    if form.is_valid():
        data = form.cleaned_data
        try:
            services.override_score(
                page.sheet, number, data["seat"], data["score"], reason=data["reason"], version=data["version"],
                user=request.user,
            )
        except services.RefereeError as error:
            form.add_error("reason" if error.code == "reason_required" else None, violation_message(error))
        except rules.RuleViolation as error:
            form.add_error("seat", violation_message(error))
        else:
            messages.success(request, _("The score has been changed."))
            return redirect(f"{page.url('sheet')}#game-{number}")
    entry.override_form = form
    return render_sheet(request, page)


@referee_view()
def sheet_log(request, tournament, round_number, table_number):
    """Every change of one sheet: who, when, before, after, reason."""
    table, sheet = load_table(tournament, round_number, table_number)
    entries = AuditEntry.objects.filter(sheet=sheet).select_related("user").order_by("-created_at", "-pk")
    players = {seat.letter: seat.player for seat in table.seats.all()}
    context = {
        "tournament": tournament, "table": table, "sheet": sheet,
        "changes": [describe_entry(entry, players) for entry in entries],
    }
    return render(request, "scoring/log.html", context)


# ---------------------------------------------------------------- the audit log, in words


OPENING_LABELS = dict(SeatResult.Opening.choices)
ACTION_LABELS = {
    "save_game": gettext_lazy("game saved"),
    "correct_game": gettext_lazy("correction by the head referee"),
    "override": gettext_lazy("score changed by hand"),
    "submit": gettext_lazy("sheet submitted"),
    "verify": gettext_lazy("sheet verified"),
    "card": gettext_lazy("card"),
    "disqualify": gettext_lazy("disqualification"),
}
STATE_LABELS = dict(ScoreSheet.State.choices)


@dataclass
class ChangeView:
    entry: AuditEntry
    action: str
    before: list
    after: list

    @property
    def before_marked(self):
        """(line, changed) pairs: a line is marked when the other side does not have it."""
        return [(line, line not in self.after) for line in self.before]

    @property
    def after_marked(self):
        return [(line, line not in self.before) for line in self.after]

    @property
    def who(self):
        user = self.entry.user
        if user is None:
            return _("unknown")
        return user.get_full_name() or user.get_username()


def describe_entry(entry, players):
    return ChangeView(
        entry, str(ACTION_LABELS.get(entry.action, entry.action)),
        describe_state(entry.before, players), describe_state(entry.after, players),
    )


def describe_state(data, players):
    """An audit snapshot as lines a referee can read (a game seat by seat, or a sheet state)."""
    if not isinstance(data, dict):
        return []
    if data.get("game"):
        return describe_game(data["game"], players)
    if data.get("state"):
        return [_("state: %(state)s") % {"state": STATE_LABELS.get(data["state"], data["state"])}]
    return []


def describe_game(game, players):
    """Lines for a game snapshot (see `services.game_snapshot`): the ending, then seat by seat."""
    winner = game.get("winner")
    if winner:
        lines = [_("Game %(number)s: seat %(seat)s went out") % {"number": game["number"], "seat": winner}]
    else:
        lines = [_("Game %(number)s: pool exhausted") % {"number": game["number"]}]
    racks = game.get("racks", {})
    for letter, score in sorted(game.get("scores", {}).items()):
        rack = racks.get(letter)
        override = game.get("winner_override") if letter == winner else (rack or {}).get("override")
        if rack is None:
            text = _("went out")
        else:
            jokers = rack.get("jokers", 0)
            text = ngettext(
                "%(tiles)s in tiles and %(jokers)s joker, %(opening)s",
                "%(tiles)s in tiles and %(jokers)s jokers, %(opening)s", jokers,
            ) % {
                "tiles": rack.get("tiles", 0), "jokers": jokers,
                "opening": OPENING_LABELS.get(rack.get("opening"), rack.get("opening")),
            }
            if rack.get("first_move_case"):
                text = _("%(rack)s, first-move case") % {"rack": text}
        line = _("%(seat)s %(name)s: %(rack)s → %(score)s") % {
            "seat": letter, "name": players.get(letter, ""), "rack": text, "score": signed(score),
        }
        if override:
            line = _("%(line)s; set by hand to %(score)s (%(reason)s)") % {
                "line": line, "score": signed(override["score"]), "reason": override["reason"],
            }
        lines.append(line)
    return lines


# ---------------------------------------------------------------- players and cards


@referee_view()
def player_list(request, tournament):
    players = list(
        Player.objects.filter(tournament=tournament).select_related("organisation")
        .annotate(
            yellows=Count("cards", filter=Q(cards__colour=Card.Colour.YELLOW)),
            warnings=Count("cards", filter=Q(cards__colour=Card.Colour.WARNING)),
            reds=Count("cards", filter=Q(cards__colour=Card.Colour.RED)),
        )
        .order_by("start_number")
    )
    return render(request, "scoring/players.html", {"tournament": tournament, "players": players})


@referee_view()
def player_view(request, tournament, player_id):
    """A player's cards, and the form to give one."""
    player = get_object_or_404(Player.objects.select_related("organisation"), tournament=tournament, pk=player_id)
    return render_player(request, tournament, player, card_form(request, tournament))


def card_form(request, tournament):
    round_ = current_round(tournament)
    return CardForm(initial={"round": round_.number if round_ else None}, allow_red=is_head(request))


def render_player(request, tournament, player, form):
    context = {
        "tournament": tournament, "player": player, "form": form,
        "cards": Card.objects.filter(player=player).select_related("round", "given_by"),
    }
    return render(request, "scoring/player.html", context)


@require_POST
@referee_view()
def give_card(request, tournament, player_id):
    """A warning, yellow or red card from the sheet or the player page (SPEC §7)."""
    player = get_object_or_404(Player, tournament=tournament, pk=player_id)
    form = CardForm(request.POST, allow_red=is_head(request))
    if form.is_valid():
        data = form.cleaned_data
        round_ = Round.objects.filter(tournament=tournament, number=data["round"]).first() if data["round"] else None
        try:
            card = services.give_card(player, data["colour"], data["reason"], user=request.user, round=round_)
        except services.RefereeError as error:
            form.add_error("reason" if error.code == "reason_required" else "colour", violation_message(error))
        else:
            player.refresh_from_db()
            text = _("%(card)s for %(player)s recorded.") % {"card": card.get_colour_display(), "player": player.name}
            if player.is_disqualified:
                text = _("%(card)s for %(player)s recorded. %(player)s is disqualified.") % {
                    "card": card.get_colour_display(), "player": player.name,
                }
            messages.success(request, capfirst(text))
            target = data.get("next") or ""
            # Only a path on this site: `redirect` would take a bare word such as "0" for a view name.
            if not target.startswith("/") or not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
                target = reverse("scoring:player", kwargs={"slug": tournament.slug, "player_id": player.pk})
            return redirect(target)
    return render_player(request, tournament, player, form)


# ---------------------------------------------------------------- ties (SPEC §4)


@referee_view(Role.HEAD_REFEREE)
def ties(request, tournament):
    """The ties the head referee must decide now, one form each; a decision orders the tie."""
    posted = request.POST if request.method == "POST" else None
    forms = []
    for rows in tournament_services.ties_to_decide(tournament):
        form = TieDecisionForm(rows)
        if posted is not None and form.is_for(posted):
            form = TieDecisionForm(rows, posted)
            if form.is_valid():
                try:
                    tournament_services.decide_tie(tournament, form.order(), form.cleaned_data["reason"], user=request.user)
                except tournament_services.ActionRefused as refusal:
                    form.add_error(refusal.field, refusal.message)
                else:
                    messages.success(request, _("The tie at place %(place)s is decided.") % {"place": rows[0].rank_label})
                    return redirect(request.path)
        forms.append(form)
    if posted is not None and not any(form.is_bound for form in forms):
        messages.error(request, _("These players are no longer tied on a place to decide. Reload the page."))
    return render(request, "scoring/ties.html", {"tournament": tournament, "forms": forms})


# ---------------------------------------------------------------- the move timer (public)


def move_timer(request, slug):
    """A full-screen countdown of the tournament's move time; everything inline, works offline."""
    tournament = get_object_or_404(Tournament, slug=slug)
    return render(request, "scoring/timer.html", {"tournament": tournament, "seconds": tournament.move_seconds})

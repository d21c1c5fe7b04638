"""Scoring's reads: every queryset the referee pages, the score-sheet services, the printouts and
the exports need.

A sheet's table (with its round, seats, players and score sheet) and its stored games (with
their seat results) are read in one query: the rows come joined, and the related rows are kept
in plain lists on the objects (`table.seated`, `game.seat_results`), as `Prefetch(to_attr=...)`
leaves them. Players and their cards, whether the results are
final and the ties the head referee must decide follow. (Standings and round results have
modules of their own: `scoring.selectors.standings`, `scoring.selectors.results`.)
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.contrib.auth.models import User
from django.db import connection, models
from django.db.models import Count, OuterRef, Q, Subquery
from django.db.models.lookups import Exact
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.standings import StandingRow
from scoring.models import Card, Game, ScoreSheet, SeatResult, TieDecision
from scoring.selectors.standings import compute_standings
from tournament.models import AuditEntry, Player, Round, Seat, Table, Tournament
from tournament.names import sorted_by_surname
from tournament.selectors import latest_round, qualifying_over

SHEET_ACTIONS = ("save_game", "correct_game", "override", "submit", "verify")


def sheet_table(tournament: Tournament, *, round_number: int, table_number: int) -> Table | None:
    """A table of a round that is not a draft, with its round, seats, players, score sheet and
    stored games, in one query: each seat's row comes joined with its result in every stored game.

    `table.seated` holds the seats in letter order, `table.stored_games` the games by number,
    each with `game.seat_results` (plain lists, as `Prefetch(to_attr=...)` leaves them);
    `table.read_sheet` is the score sheet, None when the table has none yet (`sheet_of`).

    Every sheet page and save asks it, so it is one plain SQL query (`SHEET_ROWS`): the ORM took
    longer to build it than the database to run it. Each row is cut into its models' columns."""
    with connection.cursor() as cursor:
        cursor.execute(SHEET_ROWS, [tournament.pk, Round.State.DRAFT, round_number, table_number])
        rows = cursor.fetchall()
    if not rows:
        return None
    first = _cut(rows[0])
    table, round_, sheet = first[Table], first[Round], first[ScoreSheet]
    round_.tournament = tournament
    table.round = round_
    table.read_sheet = sheet
    if sheet is not None:
        sheet.table = table
        sheet.verified_by = first[User]
    seats: dict[str, Seat] = {}
    games: dict[int, Game] = {}
    for row in rows:
        values = _cut(row)
        seat = seats.setdefault(values[Seat].letter, values[Seat])
        if seat is values[Seat]:
            seat.table, seat.player = table, values[Player]
        game, result = values[Game], values[SeatResult]
        if result is None or game is None:
            continue
        game = games.setdefault(game.number, game)
        if game is values[Game]:
            game.seat_results = []
        result.game = game
        game.seat_results.append(result)
    table.seated = [seats[letter] for letter in sorted(seats)]
    table.stored_games = dict(sorted(games.items()))
    return table


def _concrete_fields(model: type[models.Model]) -> list[Any]:
    return [f for f in model._meta.get_fields() if getattr(f, "concrete", False) and not f.many_to_many]


# The models a row of `SHEET_ROWS` holds, in its order: each with its table's alias in the query and its fields.
SHEET_MODELS = [
    (model, alias, _concrete_fields(model))
    for model, alias in (
        (Seat, "s"),
        (Player, "p"),
        (Table, "t"),
        (Round, "r"),
        (ScoreSheet, "sh"),
        (User, "u"),
        (Game, "g"),
        (SeatResult, "sr"),
    )
]


def _cut(row: tuple) -> dict[type[models.Model], Any]:
    """A row of `SHEET_ROWS` as its model objects (None for a model whose row is missing)."""
    objects: dict[type[models.Model], Any] = {}
    start = 0
    for model, _alias, fields in SHEET_MODELS:
        values = row[start : start + len(fields)]
        start += len(fields)
        names = [f.attname for f in fields]
        if values[0] is not None:
            values = tuple(_as_the_orm_reads(field, value) for field, value in zip(fields, values, strict=True))
        objects[model] = None if values[0] is None else model.from_db(connection.alias, names, values)
    return objects


def _as_the_orm_reads(field: models.Field, value: Any) -> Any:
    """A time as the ORM reads it: SQLite's raw cursor gives it without its zone (UTC), which a
    page would show as the venue's time; the backend's converters make it aware, as the ORM does."""
    if value is None or not isinstance(field, models.DateTimeField):
        return value
    column = field.get_col(field.model._meta.db_table)
    for converter in connection.ops.get_db_converters(column):
        value = converter(value, column, connection)
    return value


SHEET_ROWS = """
    SELECT {columns}
    FROM {Seat} s JOIN {Table} t ON t.id = s.table_id JOIN {Round} r ON r.id = t.round_id
    JOIN {Player} p ON p.id = s.player_id
    LEFT JOIN {ScoreSheet} sh ON sh.table_id = t.id LEFT JOIN {User} u ON u.id = sh.verified_by_id
    LEFT JOIN {Game} g ON g.sheet_id = sh.id LEFT JOIN {SeatResult} sr ON sr.game_id = g.id AND sr.letter = s.letter
    WHERE r.tournament_id = %s AND r.state <> %s AND r.number = %s AND t.number = %s
    ORDER BY g.number, s.letter
""".format(
    columns=", ".join(f"{alias}.{f.column}" for _model, alias, fields in SHEET_MODELS for f in fields),
    **{model.__name__: model._meta.db_table for model, _alias, _fields in SHEET_MODELS},
)


def seats_of(table: Table) -> list[Seat]:
    """A table's seats in letter order: those its selector read with it (`seated`), else its
    `seats` relation (prefetched by the selector that read the table)."""
    seated = getattr(table, "seated", None)
    return list(table.seats.all()) if seated is None else seated


def results_of(game: Game) -> list[SeatResult]:
    """A stored game's seat results in letter order: those its selector read with it
    (`seat_results`), else its `results` relation (prefetched by the selector that read it)."""
    results = getattr(game, "seat_results", None)
    return sorted(game.results.all(), key=lambda result: result.letter) if results is None else results


def seated_players(table: Table) -> dict[str, Player]:
    """{seat letter: player} of a table read by `sheet_table` (its seats came with it)."""
    return {seat.letter: seat.player for seat in seats_of(table)}


def results_by_letter(game: Game | None) -> dict[str, SeatResult]:
    """{seat letter: result} of a game read by `sheet_table`, or {} for a game not stored yet."""
    return {result.letter: result for result in results_of(game)} if game else {}


def sheet_of(table: Table) -> ScoreSheet | None:
    """The table's score sheet as read with it, or None when it has none yet."""
    if hasattr(table, "read_sheet"):
        return table.read_sheet
    try:
        sheet = table.sheet
    except ScoreSheet.DoesNotExist:
        return None
    sheet.table = table
    return sheet


def sheet_games(sheet: ScoreSheet) -> dict[int, Game]:
    """The stored games of a sheet by number, each with its seat results (one query)."""
    games: dict[int, Game] = {}
    for result in (
        SeatResult.objects.filter(game__sheet=sheet).select_related("game").order_by("game__number", "letter")
    ):
        game = games.setdefault(result.game.number, result.game)
        if game is result.game:
            game.sheet, game.seat_results = sheet, []
        result.game = game
        game.seat_results.append(result)
    return games


def current_sheet(sheet: ScoreSheet) -> ScoreSheet:
    """The sheet as stored now (state, version, who verified it), keeping the caller's table."""
    current = ScoreSheet.objects.select_related("verified_by").get(pk=sheet.pk)
    current.table = sheet.table
    return current


def entered_game_numbers(sheet: ScoreSheet) -> set[int]:
    return set(Game.objects.filter(sheet=sheet).values_list("number", flat=True))


def holds_games(count: int) -> Exact:
    """A condition on score sheets: games 1 to `count` are all stored."""
    stored = (
        Game.objects.filter(sheet=OuterRef("pk"), number__range=(1, count))
        .values("sheet")
        .annotate(entered=Count("pk"))
        .values("entered")
    )
    return Exact(Subquery(stored), count)


def changes_since(sheet: ScoreSheet, version: int) -> list[AuditEntry]:
    """The audit entries of `sheet` written after it had `version`, oldest first."""
    entries = AuditEntry.objects.filter(sheet=sheet, action__in=SHEET_ACTIONS).select_related("user")
    newer = [e for e in entries if isinstance(e.after, dict) and (e.after.get("version") or 0) > version]
    return sorted(newer, key=lambda e: ((e.after or {})["version"], e.pk))


def sheet_log(sheet: ScoreSheet) -> list[AuditEntry]:
    """Every change of a sheet, newest first."""
    return list(AuditEntry.objects.filter(sheet=sheet).select_related("user").order_by("-created_at", "-pk"))


def referee_rounds(tournament: Tournament) -> list[Round]:
    """The rounds the referees see (every round but a draft), in order."""
    return list(Round.objects.filter(tournament=tournament).exclude(state=Round.State.DRAFT).order_by("number"))


class SeatedPlayer(NamedTuple):
    """Who sits at a seat of a table, as the tables' pages show it."""

    letter: str
    player_id: int
    name: str
    status: str

    @property
    def is_disqualified(self) -> bool:
        return self.status == Player.Status.DISQUALIFIED


@dataclass
class SeatedTable:
    """A table of a round as the referees' and the organiser's pages show it: its number, its
    score sheet's state (None before the sheet exists) and its seats by letter; `players`
    [(letter, player)] once a page has put the player objects in."""

    number: int
    sheet_state: str | None
    seats: list[SeatedPlayer] = field(default_factory=list)
    players: list[tuple[str, Player]] = field(default_factory=list)

    def __str__(self) -> str:
        return str(Table(number=self.number))

    @property
    def state(self) -> str:
        return self.sheet_state or ScoreSheet.State.EMPTY

    @property
    def sheet_label(self) -> str:
        """The sheet's state in words ("" before the sheet exists)."""
        return str(ScoreSheet.State(self.sheet_state).label) if self.sheet_state else ""


def round_tables(round_: Round) -> list[SeatedTable]:
    """The round's tables by number, each with its sheet's state and its seats, in one query of
    plain values (a round of 30 tables is read in a fraction of the time its model objects take)."""
    rows = (
        Table.objects.filter(round=round_)
        .order_by("number", "seats__letter")
        .values_list(
            "number",
            "sheet__state",
            "seats__letter",
            "seats__player_id",
            "seats__player__name",
            "seats__player__status",
        )
    )
    tables: dict[int, SeatedTable] = {}
    for number, state, letter, player_id, name, status in rows:
        table = tables.setdefault(number, SeatedTable(number, state))
        if letter is not None:
            table.seats.append(SeatedPlayer(letter, player_id, name, status))
    return list(tables.values())


def tournament_games(tournament: Tournament) -> models.QuerySet[Game]:
    """Every stored game of a tournament, with its seat results (`seat_results`, in letter order)."""
    results = models.Prefetch("results", SeatResult.objects.order_by("letter"), to_attr="seat_results")
    return Game.objects.filter(sheet__table__round__tournament=tournament).prefetch_related(results)  # type: ignore[no-redef]  # the stubs take to_attr for a new attribute: the model declares it


def verified_sheets(tournament: Tournament) -> list[ScoreSheet]:
    """Every verified sheet of a tournament with its table, round, seats, players, games and
    their seat results (three queries): `sheet.table.seated`, `sheet.stored_games` (in number
    order) and each game's `seat_results` (plain lists, as `Prefetch(to_attr=...)` leaves them)."""
    verified = ScoreSheet.State.VERIFIED
    sheets = {
        sheet.pk: sheet
        for sheet in ScoreSheet.objects.filter(table__round__tournament=tournament, state=verified)
        .select_related("table__round")
        .order_by("table__round__number", "table__number")
    }
    seats: dict[int, list[Seat]] = defaultdict(list)
    in_sheets = Seat.objects.filter(table__round__tournament=tournament, table__sheet__state=verified)
    for seat in in_sheets.select_related("player").order_by("letter"):
        seats[seat.table_id].append(seat)
    games: dict[int, dict[int, Game]] = defaultdict(dict)
    rows = SeatResult.objects.filter(game__sheet__table__round__tournament=tournament, game__sheet__state=verified)
    for result in rows.select_related("game").order_by("game__number", "letter"):
        game = games[result.game.sheet_id].setdefault(result.game.pk, result.game)
        if game is result.game:
            game.seat_results = []
        result.game = game
        game.seat_results.append(result)
    for sheet in sheets.values():
        sheet.table.seated = seats[sheet.table_id]
        sheet.stored_games = list(games[sheet.pk].values())
        for game in sheet.stored_games:
            game.sheet = sheet
    return list(sheets.values())


def tie_decisions(tournament: Tournament) -> list[TieDecision]:
    """The tie decisions of a tournament, oldest first, with who made them."""
    return list(TieDecision.objects.filter(tournament=tournament).select_related("decided_by"))


def card_colours(player: Player) -> list[str]:
    """The colour of every card a player has been given and that counts (not withdrawn)."""
    return list(Card.objects.filter(player=player, withdrawn_at__isnull=True).values_list("colour", flat=True))


def card_of_player(player: Player, card_id: int) -> Card | None:
    """One of the player's cards with its round (and the player), or None when the player has no such card."""
    card = Card.objects.filter(player=player, pk=card_id).select_related("round").first()
    if card is not None:
        card.player = player
    return card


def status_before_disqualification(player: Player) -> str | None:
    """The status the player had before cards last disqualified them (the latest `disqualify`
    entry of the audit log), or None when the log has none."""
    entries = AuditEntry.objects.filter(tournament_id=player.tournament_id, action="disqualify").order_by(
        "-created_at", "-pk"
    )
    for before in entries.values_list("before", flat=True):
        if isinstance(before, dict) and before.get("player") == player.ext_id:
            return before.get("status")
    return None


FINAL_SIZE = 4


# ---------------------------------------------------------------- players, cards, ties, final results


def players_with_card_counts(tournament: Tournament) -> list[Player]:
    """The players in surname order (Polish alphabetical), each with `warnings`, `yellows` and
    `reds` counted."""
    return sorted_by_surname(
        Player.objects.filter(tournament=tournament)
        .select_related("organisation")
        .annotate(
            yellows=Count("cards", filter=Q(cards__colour=Card.Colour.YELLOW, cards__withdrawn_at__isnull=True)),
            warnings=Count("cards", filter=Q(cards__colour=Card.Colour.WARNING, cards__withdrawn_at__isnull=True)),
            reds=Count("cards", filter=Q(cards__colour=Card.Colour.RED, cards__withdrawn_at__isnull=True)),
            withdrawn_cards=Count("cards", filter=Q(cards__withdrawn_at__isnull=False)),
        )
    )


def cards_of_player(player: Player) -> list[Card]:
    """A player's cards, oldest first (the withdrawn ones too), with their round, who gave them
    and who withdrew them."""
    return list(Card.objects.filter(player=player).select_related("round", "given_by", "withdrawn_by"))


def cards_at_table(table: Table) -> dict[int, list[Card]]:
    """{player id: the player's cards, oldest first (the withdrawn ones too)} of the players seated
    at a table read by `sheet_table`, each with its round, in one plain SQL query (`CARDS_OF_PLAYERS`:
    every sheet page asks it, and the ORM took longer to build it than the database to run it)."""
    cards: dict[int, list[Card]] = {seat.player_id: [] for seat in seats_of(table)}
    if not cards:
        return cards
    query = CARDS_OF_PLAYERS.format(
        card=Card._meta.db_table, round=Round._meta.db_table, players=", ".join(["%s"] * len(cards))
    )
    card: Any
    for card in Card.objects.raw(query, list(cards)):
        if card.round_id is not None:
            card.round = Round(
                pk=card.round_id, tournament_id=card.tournament_id, number=card.round_number, kind=card.round_kind
            )
        cards[card.player_id].append(card)
    return cards


CARDS_OF_PLAYERS = """
    SELECT c.*, r.number AS round_number, r.kind AS round_kind
    FROM {card} c LEFT JOIN {round} r ON r.id = c.round_id
    WHERE c.player_id IN ({players}) ORDER BY c.created_at, c.id
"""


def cards_given(tournament: Tournament, *, newest_first: bool = False) -> list[Card]:
    """Every card of the tournament (the withdrawn ones too) with its player, round and who withdrew it."""
    order = ("-created_at", "-pk") if newest_first else ("created_at", "pk")
    cards = Card.objects.filter(tournament=tournament).select_related("player", "round", "withdrawn_by")
    return list(cards.order_by(*order))


def results_are_final(tournament: Tournament) -> bool:
    """The final is completed (when the tournament has one), else the last planned qualifying round."""
    completed = Round.objects.filter(tournament=tournament, state=Round.State.COMPLETED)
    if tournament.final:
        return completed.filter(kind=Round.Kind.FINAL).exists()
    return completed.filter(kind=Round.Kind.QUALIFYING, number__gte=tournament.rounds_planned).exists()


def unverified_sheet_count(tournament: Tournament) -> int:
    sheets = ScoreSheet.objects.filter(table__round__tournament=tournament)
    return sheets.exclude(state=ScoreSheet.State.VERIFIED).count()


def sheets_in_play_count(tournament: Tournament) -> int:
    """How many sheets are being entered or wait to be verified."""
    in_play = [ScoreSheet.State.IN_PROGRESS, ScoreSheet.State.SUBMITTED]
    return ScoreSheet.objects.filter(table__round__tournament=tournament, state__in=in_play).count()


def unfinished_results(tournament: Tournament, rows: list[StandingRow]) -> list[str]:
    """What keeps the results from being final, as sentences for the head referee (none: final).

    `rows` are the standings (every verified sheet): a tie at a medal place must be decided.
    """
    reasons = []
    if not results_are_final(tournament):
        reasons.append(
            _("The final is not completed.") if tournament.final else _("The last qualifying round is not completed.")
        )
    unverified = unverified_sheet_count(tournament)
    if unverified:
        reasons.append(
            ngettext("%(count)d score sheet is not verified.", "%(count)d score sheets are not verified.", unverified)
            % {"count": unverified}
        )
    if any(row.unresolved_tie for row in rows):
        reasons.append(_("A tie at a medal place is not decided."))
    return reasons


def final_cut_tie(rows: list[StandingRow]) -> list[StandingRow]:
    """The standings rows tied across the last seat of the final table (the whole tied group,
    whatever their status), or an empty list."""
    active = [row for row in rows if row.player.status == Player.Status.ACTIVE]
    if len(active) > FINAL_SIZE and active[FINAL_SIZE].rank == active[FINAL_SIZE - 1].rank:
        return [row for row in rows if row.rank == active[FINAL_SIZE - 1].rank]
    return []


def ties_to_decide(tournament: Tournament) -> list[list[StandingRow]]:
    """The ties the head referee must decide now (SPEC §4), each a list of tied standings rows.

    Once the last qualifying round is completed: while the final is to be seated, a tie across
    its last seat; when the results are final, a tie at a medal place. Before that, none: the
    places may still change, and a decision taken early would order a later tie unasked.
    """
    latest = latest_round(tournament)
    if latest is None or latest.state != Round.State.COMPLETED or not qualifying_over(tournament, latest):
        return []
    rows = compute_standings(tournament)
    if tournament.final and not latest.is_final:
        tied = final_cut_tie(rows)
        return [tied] if tied else []
    medal_ties = defaultdict(list)
    for row in rows:
        if row.unresolved_tie:
            medal_ties[row.rank].append(row)
    return list(medal_ties.values())

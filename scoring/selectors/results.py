"""Round results by table, read in a fixed number of queries and limited by a visibility scope.

Seating is public once a round is published (draft rounds never are); scores only come from
verified sheets of rounds the given `Scope` shows (`scoring.selectors.visibility.public_scope` for the
public pages and the static results site; staff pass a scope that shows every round). Nothing
here decides a score: totals come from the rules engine.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from engine import rules
from scoring.models import ScoreSheet, SeatResult
from scoring.selectors.visibility import public_scope
from tournament.models import Player, Round, Seat

PUBLIC_ROUND_STATES = (Round.State.PUBLISHED, Round.State.STARTED, Round.State.COMPLETED)


@dataclass
class GameScore:
    number: int
    score: int | None  # None: the game is not on the sheet
    won: bool


@dataclass
class SeatLine:
    """One seat at a table: the player and, when public, the game scores and round totals."""

    letter: str
    player: Player
    games: list[GameScore] = field(default_factory=list)
    totals: dict | None = None  # small_points, big_points, games_won


@dataclass
class TableView:
    number: int
    round_number: int
    started: bool  # results can only exist once the round has started
    seats: list[SeatLine] = field(default_factory=list)
    has_results: bool = False  # verified results of a round the public may see
    awaiting: bool = False  # the round is public but this sheet is not verified yet


def public_rounds(tournament):
    """Rounds whose seating the public may see, in order."""
    return list(Round.objects.filter(tournament=tournament, state__in=PUBLIC_ROUND_STATES).order_by("number"))


def public_round(tournament, number):
    return Round.objects.filter(tournament=tournament, number=number, state__in=PUBLIC_ROUND_STATES).first()


def _verified_scores(table_ids):
    """{table_id: {game_number: (scores by letter, winner letters)}} of verified sheets only."""
    rows = (
        SeatResult.objects.filter(game__sheet__table_id__in=table_ids, game__sheet__state=ScoreSheet.State.VERIFIED)
        .order_by("game__sheet__table_id", "game__number", "letter")
        .values_list("game__sheet__table_id", "game__number", "letter", "score", "override_score", "is_winner")
    )
    games: defaultdict[int, dict[int, tuple[dict[str, int], set[str]]]] = defaultdict(dict)
    for table_id, number, letter, score, override, is_winner in rows:
        scores, winners = games[table_id].setdefault(number, ({}, set()))
        scores[letter] = score if override is None else override
        if is_winner:
            winners.add(letter)
    return games


def _fill_results(line, games, totals):
    line.games = [
        GameScore(n, games[n][0].get(line.letter), line.letter in games[n][1])
        if n in games
        else GameScore(n, None, False)
        for n in range(1, max(games, default=0) + 1)
    ]
    line.totals = totals.get(line.letter)


def tables_with_results(tournament, seats, scope):
    """Group seat rows (with `table`, `round` and `player` loaded) into TableViews, adding the
    verified results of every round the scope shows."""
    tables: dict[int, TableView] = {}
    for seat in seats:
        view = tables.get(seat.table_id)
        if view is None:
            view = tables[seat.table_id] = TableView(
                number=seat.table.number, round_number=seat.round.number, started=seat.round.is_locked
            )
        view.seats.append(SeatLine(letter=seat.letter, player=seat.player))
    shown = [table_id for table_id, view in tables.items() if view.started and scope.shows_round(view.round_number)]
    scores = _verified_scores(shown)
    settings = tournament.rules_settings()
    for table_id in shown:
        view = tables[table_id]
        games = scores.get(table_id)
        if not games:
            view.awaiting = True
            continue
        view.has_results = True
        results = [
            rules.GameResult(scores=game_scores, winners=frozenset(winners), minus={})
            for game_scores, winners in games.values()
        ]
        totals = rules.table_round(results, settings)
        for line in view.seats:
            _fill_results(line, games, totals)
    return tables


def round_tables(tournament, round_, scope):
    """The tables of a public round, in order, with the results `scope` shows."""
    seats = (
        Seat.objects.filter(round=round_)
        .select_related("table", "round", "player__organisation")
        .order_by("table__number", "letter")
    )
    tables = tables_with_results(tournament, seats, scope)
    return sorted(tables.values(), key=lambda view: view.number)


@dataclass
class PlayerRound:
    round: Round
    table: TableView
    line: SeatLine  # the player's own seat

    @property
    def opponents(self):
        return [line for line in self.table.seats if line is not self.line]


def player_rounds(tournament, player):
    """Each public round the player sat in, newest first: table, seat, opponents and, when public, scores."""
    own = Seat.objects.filter(player=player, round__state__in=PUBLIC_ROUND_STATES).values_list("table_id", flat=True)
    seats = (
        Seat.objects.filter(table_id__in=own)
        .select_related("table", "round", "player__organisation")
        .order_by("round__number", "letter")
    )
    rounds = {seat.table_id: seat.round for seat in seats}
    tables = tables_with_results(tournament, seats, public_scope(tournament))
    history = []
    for table_id, view in tables.items():
        line = next(line for line in view.seats if line.player.pk == player.pk)
        history.append(PlayerRound(round=rounds[table_id], table=view, line=line))
    return sorted(history, key=lambda item: -item.round.number)


def tables_by_round(tournament, rounds, scope):
    """[(round, its tables in order)] for each of `rounds`, with the results `scope` shows.

    One read for every round at once (a fixed number of queries, however many rounds).
    """
    rounds = list(rounds)
    seats = (
        Seat.objects.filter(round__in=rounds)
        .select_related("table", "round", "player__organisation")
        .order_by("round__number", "table__number", "letter")
    )
    by_round = defaultdict(list)
    for view in tables_with_results(tournament, seats, scope).values():
        by_round[view.round_number].append(view)
    return [(round_, sorted(by_round[round_.number], key=lambda view: view.number)) for round_ in rounds]


def player_histories(rounds_tables):
    """{player pk: [PlayerRound], newest round first} from the answer of `tables_by_round`."""
    histories = defaultdict(list)
    for round_, tables in reversed(rounds_tables):
        for view in tables:
            for line in view.seats:
                histories[line.player.pk].append(PlayerRound(round=round_, table=view, line=line))
    return histories

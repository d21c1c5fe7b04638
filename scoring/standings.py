"""Standings (SPEC §4): big points, small points, games won, shared ranks, DQ last, the final.

`compute_standings` reads the whole tournament in a fixed number of queries (it does not grow
with the number of players) and does the rest in Python with the rules engine.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.db import connection
from django.db.models import Min

from scoring import rules
from scoring.interchange import derived_status
from scoring.models import Card, Game, ScoreSheet, SeatResult, TieDecision
from tournament.models import Player, Round, Seat, Table

MEDALS = {1: "gold", 2: "silver", 3: "bronze"}


@dataclass
class Totals:
    big_points: int = 0
    small_points: int = 0
    games_won: int = 0

    def add(self, other: dict):
        self.big_points += other["big_points"]
        self.small_points += other["small_points"]
        self.games_won += other["games_won"]


@dataclass
class StandingRow:
    player: Player
    status: str  # the player's status in these standings (frozen standings: as of the frozen round)
    qualifying: Totals = field(default_factory=Totals)
    final: Totals | None = None  # set for the players seated at the final table
    rank: int | None = None
    rank_to: int | None = None  # the last place of a shared rank ("5–6")
    unresolved_tie: bool = False  # a tie at a medal place without a head referee's decision
    decided_tie: bool = False  # ordered by a recorded tie decision

    @property
    def total(self) -> Totals:
        if self.final is None:
            return self.qualifying
        return Totals(
            self.qualifying.big_points + self.final.big_points,
            self.qualifying.small_points + self.final.small_points,
            self.qualifying.games_won + self.final.games_won,
        )

    @property
    def is_disqualified(self):
        return self.status == Player.Status.DISQUALIFIED

    @property
    def rank_label(self):
        if self.rank is None:
            return "DQ"
        if self.rank_to and self.rank_to != self.rank:
            return f"{self.rank}–{self.rank_to}"
        return str(self.rank)

    @property
    def medal(self):
        return None if self.is_disqualified else MEDALS.get(self.rank)

    def as_json(self):
        total = self.total
        return {
            "rank": self.rank,
            "player_id": self.player.ext_id,
            "player": self.player.name,
            "organisation": self.player.organisation.name,
            "big_points": total.big_points,
            "small_points": total.small_points,
            "games_won": total.games_won,
            "status": self.status,
        }


def _table_totals(results_by_table, settings):
    """{(table_id, letter): totals} from the stored seat results of each table."""
    totals = {}
    for table_id, games in results_by_table.items():
        scored = [rules.GameResult(scores=scores, winners=frozenset(winners), minus={}) for scores, winners in games.values()]
        for letter, values in rules.table_round(scored, settings).items():
            totals[(table_id, letter)] = values
    return totals


def _results_sql(verified_only, up_to_round):
    """Plain SQL for the counted seat results (the ORM's per-row conversions cost more than the query)."""
    tables = {model: model._meta.db_table for model in (SeatResult, Game, ScoreSheet, Table, Round)}
    sql = (
        f"SELECT h.table_id, s.game_id, s.letter, COALESCE(s.override_score, s.score), s.is_winner "
        f"FROM {tables[SeatResult]} s "
        f"JOIN {tables[Game]} g ON g.id = s.game_id JOIN {tables[ScoreSheet]} h ON h.id = g.sheet_id "
        f"JOIN {tables[Table]} b ON b.id = h.table_id JOIN {tables[Round]} r ON r.id = b.round_id "
        f"WHERE r.tournament_id = %s"
    )
    if verified_only:
        sql += f" AND h.state = '{ScoreSheet.State.VERIFIED.value}'"
    if up_to_round is not None:
        sql += " AND r.number <= %s"
    return sql


def _load_results(tournament, verified_only, up_to_round):
    """{table_id: {game_id: (scores by letter, winner letters)}} of the counted sheets."""
    params = [tournament.pk] if up_to_round is None else [tournament.pk, up_to_round]
    with connection.cursor() as cursor:
        cursor.execute(_results_sql(verified_only, up_to_round), params)
        rows = cursor.fetchall()
    by_table = defaultdict(dict)
    for table_id, game_id, letter, score, is_winner in rows:  # the score set by the referee, else the computed one
        game = by_table[table_id].get(game_id)
        if game is None:
            game = by_table[table_id][game_id] = ({}, [])
        game[0][letter] = score
        if is_winner:
            game[1].append(letter)
    return by_table


def _competition_ranks(rows, key, start=1):
    """Give rows (already sorted) ranks; rows with an equal key share the best rank."""
    position = start
    index = 0
    while index < len(rows):
        end = index
        while end + 1 < len(rows) and key(rows[end + 1]) == key(rows[index]):
            end += 1
        for row in rows[index : end + 1]:
            row.rank, row.rank_to = position + 0, position + (end - index)
        position += end - index + 1
        index = end + 1


def _apply_tie_decisions(rows, decisions):
    """Order tied groups as the head referee decided; decided rows get their own ranks."""
    for order in decisions:
        position_of = {ext_id: i for i, ext_id in enumerate(order)}
        groups = defaultdict(list)
        for row in rows:
            if row.player.ext_id in position_of and row.rank is not None:
                groups[row.rank].append(row)
        for rank, group in groups.items():
            tied = [r for r in rows if r.rank == rank]
            if len(group) < 2 or len(group) != len(tied):
                continue
            group.sort(key=lambda r: position_of[r.player.ext_id])
            first = rows.index(tied[0])
            for offset, row in enumerate(group):
                rows[first + offset] = row
                row.rank = row.rank_to = rank + offset
                row.decided_tie = True


def _as_of(tournament, up_to_round):
    """When the rounds after `up_to_round` began: the first start time recorded, else None."""
    later = Round.objects.filter(tournament=tournament, number__gt=up_to_round, started_at__isnull=False)
    return later.aggregate(first=Min("started_at"))["first"]


def statuses_as_of(tournament, players, up_to_round, later_start):
    """{player id: status} as it was after round `up_to_round` (frozen public standings).

    Cards count when given in a round up to it; a card without a round counts when it was given
    before `later_start`. A disqualification that only later cards explain is not shown yet (the
    player was active); any other stored status stands.
    """
    then, ever = defaultdict(Counter), defaultdict(Counter)
    cards = Card.objects.filter(tournament=tournament).values_list("player_id", "colour", "round__number", "created_at")
    for player_id, colour, number, created_at in cards:
        ever[player_id][colour] += 1
        if number <= up_to_round if number is not None else (later_start is None or created_at < later_start):
            then[player_id][colour] += 1
    active, disqualified = Player.Status.ACTIVE, Player.Status.DISQUALIFIED
    statuses = {}
    for pk, player in players.items():
        status = player.status
        if derived_status(active, then[pk]) == disqualified:
            status = disqualified
        elif status == disqualified and derived_status(active, ever[pk]) == disqualified:
            status = active
        statuses[pk] = status
    return statuses


def compute_standings(tournament, *, verified_only=True, up_to_round=None):
    """The standings rows in order (SPEC §4).

    verified_only: count only verified sheets (the public view); staff may pass False.
    up_to_round: the standings as they were after this round (frozen public results): results,
    cards and tie decisions of later rounds do not count.
    """
    settings = tournament.rules_settings()
    players = {p.pk: p for p in Player.objects.filter(tournament=tournament).select_related("organisation")}
    seat_rows = Seat.objects.filter(round__tournament=tournament).order_by().values_list(
        "table_id", "letter", "player_id", "round__kind", "round__number"
    )
    seat_player = {}
    final_table_players = set()
    for table_id, letter, player_id, kind, number in seat_rows:
        seat_player[(table_id, letter)] = (player_id, kind)
        if kind == Round.Kind.FINAL and (up_to_round is None or number <= up_to_round):
            final_table_players.add(player_id)

    decisions = TieDecision.objects.filter(tournament=tournament)
    statuses = {pk: player.status for pk, player in players.items()}
    if up_to_round is not None:
        later_start = _as_of(tournament, up_to_round)
        statuses = statuses_as_of(tournament, players, up_to_round, later_start)
        if later_start is not None:
            decisions = decisions.filter(created_at__lt=later_start)
    rows = {pk: StandingRow(player=p, status=statuses[pk]) for pk, p in players.items()}
    for row in rows.values():
        if row.player.pk in final_table_players:
            row.final = Totals()
    table_totals = _table_totals(_load_results(tournament, verified_only, up_to_round), settings)
    for (table_id, letter), values in table_totals.items():
        player_id, kind = seat_player[(table_id, letter)]
        row = rows[player_id]
        (row.final if kind == Round.Kind.FINAL else row.qualifying).add(values)

    ranked = [r for r in rows.values() if not r.is_disqualified]
    disqualified = sorted(
        (r for r in rows.values() if r.is_disqualified), key=lambda r: (r.player.name, r.player.start_number)
    )

    def qualifying_key(r):
        return (-r.qualifying.big_points, -r.qualifying.small_points, -r.qualifying.games_won)

    ranked.sort(key=lambda r: (qualifying_key(r), r.player.start_number))
    _competition_ranks(ranked, qualifying_key)
    decisions = [d.order for d in decisions]
    _apply_tie_decisions(ranked, decisions)

    finalists = [r for r in ranked if r.final is not None]
    if finalists:
        qualifying_rank = {id(r): r.rank for r in ranked}
        others = [r for r in ranked if r.final is None]

        def final_key(r):
            return (-r.final.big_points, -r.final.small_points, qualifying_rank[id(r)])

        finalists.sort(key=lambda r: (final_key(r), r.player.start_number))
        _competition_ranks(finalists, final_key)
        _competition_ranks(others, qualifying_key, start=len(finalists) + 1)
        _apply_tie_decisions(others, decisions)
        ranked = finalists + others

    for row in ranked:
        row.unresolved_tie = row.rank <= 3 and row.rank_to != row.rank
    for row in disqualified:
        row.rank = row.rank_to = None
    return ranked + disqualified


def standings_json(rows):
    return [row.as_json() for row in rows]

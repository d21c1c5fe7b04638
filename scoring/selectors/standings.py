"""Standings (SPEC §4) of a stored tournament: read from the database, ranked by the engine.

`compute_standings` reads the whole tournament in a fixed number of queries (it does not grow
with the number of players) and hands the rest to `engine.standings`.

What every standings output says about its rows (the pages, the projector, the results site,
CSV, XLSX, the PDF and the JSON) is made here once: the caption that says how the rows are
ordered (`caption`), whose points a row shows (`points_of`: the final's for its players, see
`StandingRow.points`; the JSON gives the same, `StandingRow.as_json`), the note of a tie
(`tie_note`) and the reason of the decision that settled a place (`placing_reason`).
"""

from __future__ import annotations

from collections import defaultdict

from django.db import connection
from django.db.models import Min
from django.utils.translation import gettext as _
from django.utils.translation import pgettext, pgettext_lazy

from engine import standings
from scoring.models import Card, Game, ScoreSheet, SeatResult, TieDecision
from tournament.models import Player, Round, Seat, Table


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
    by_table: defaultdict[int, dict[int, tuple[dict[str, int], list[str]]]] = defaultdict(dict)
    for table_id, game_id, letter, score, is_winner in rows:  # the score set by the referee, else the computed one
        game = by_table[table_id].get(game_id)
        if game is None:
            game = by_table[table_id][game_id] = ({}, [])
        game[0][letter] = score
        if is_winner:
            game[1].append(letter)
    return by_table


def _as_of(tournament, up_to_round):
    """When the rounds after `up_to_round` began: the first start time recorded, else None."""
    later = Round.objects.filter(tournament=tournament, number__gt=up_to_round, started_at__isnull=False)
    return later.aggregate(first=Min("started_at"))["first"]


def compute_standings(tournament, *, verified_only=True, up_to_round=None):
    """The standings rows in order (SPEC §4); each row's `player` is the Player.

    verified_only: count only verified sheets (the public view); staff may pass False.
    up_to_round: the standings as they were after this round (frozen public results): results,
    cards and tie decisions of later rounds do not count.
    """
    players = {p.pk: p for p in Player.objects.filter(tournament=tournament).select_related("organisation")}
    seat_rows = (
        Seat.objects.filter(round__tournament=tournament)
        .order_by()
        .values_list("table_id", "letter", "player_id", "round__kind", "round__number")
    )
    seat_player = {}
    finalists = set()
    for table_id, letter, player_id, kind, number in seat_rows:
        at_final = kind == Round.Kind.FINAL
        seat_player[(table_id, letter)] = (player_id, at_final)
        if at_final and (up_to_round is None or number <= up_to_round):
            finalists.add(player_id)

    decisions = TieDecision.objects.filter(tournament=tournament)
    statuses = {pk: player.status for pk, player in players.items()}
    if up_to_round is not None:
        later_start = _as_of(tournament, up_to_round)
        counting = Card.objects.filter(
            tournament=tournament, withdrawn_at__isnull=True
        )  # a withdrawn card never counted
        cards = counting.values_list("player_id", "colour", "round__number", "created_at")
        statuses = standings.statuses_as_of(statuses, cards, up_to_round, later_start)
        if later_start is not None:
            decisions = decisions.filter(created_at__lt=later_start)
    entrants = [
        standings.Entrant(
            key=pk,
            ext_id=p.ext_id,
            name=p.name,
            organisation=p.organisation.name,
            start_number=p.start_number,
            status=statuses[pk],
            record=p,
        )
        for pk, p in players.items()
    ]
    loaded = _load_results(tournament, verified_only, up_to_round)
    games = {table_id: by_game.values() for table_id, by_game in loaded.items()}
    totals = standings.table_totals(games, tournament.rules_settings())
    results = ((*seat_player[seat], values) for seat, values in totals.items())
    return standings.rank(entrants, results, finalists, [d.order for d in decisions], final_planned=tournament.final)


def standings_json(rows):
    return [row.as_json() for row in rows]


FINAL_MARK = pgettext_lazy("a standings row placed by the final", "final")


def caption(rows):
    """How the rows are ordered, as one sentence every output shows with them.

    Without a final: big points, small points, games won. After the final: its places first,
    by the final's own points (which those rows show), then everyone else in qualifying order.
    Disqualified players, listed last, are named when there are any.
    """
    final = standings.final_places(rows)
    ranked = sum(1 for row in rows if row.rank is not None)
    if not final:
        parts = [_("Big points, then small points, then games won")]
    else:
        parts = [
            _("Places 1–%(last)s: the final (its big points, then its small points, then the qualifying place)")
            % {"last": final}
        ]
        if ranked > final:
            parts.append(
                _("from place %(first)s: big points, then small points, then games won") % {"first": final + 1}
            )
    if any(row.is_disqualified for row in rows):
        parts.append(_("disqualified players last"))
    return "; ".join(parts)


def points_of(row):
    """Whose points the row shows (`StandingRow.points`): "the final" or "the qualifying rounds"."""
    if row.in_final:
        return pgettext("the points of", "the final")
    return pgettext("the points of", "the qualifying rounds")


def tie_note(row):
    """The row's tie as one note: the places a head referee's decision settled, or a tie at a
    medal place still to decide; "" for none."""
    if row.decided_tie:
        return _("places %(places)s decided by the head referee") % {"places": row.decided_label}
    if row.unresolved_tie:
        return _("tie at a medal place: the head referee decides")
    return ""


def placing_reason(tournament, row):
    """The head referee's reason (a lot, a play-off) for the tie decision that settled the row's
    place or its qualifying place; "" when no decision did (or `row` is None)."""
    if row is None or row.decided_by is None or not (row.decided_tie or row.qualifying_decided_places):
        return ""
    decisions = TieDecision.objects.filter(tournament=tournament).order_by("-created_at", "-pk")
    return next((d.reason for d in decisions if tuple(d.order) == row.decided_by), "")

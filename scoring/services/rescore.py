"""What new scoring settings do to verified results (SPEC §6: a verified sheet changes only by
the head referee, with a reason).

`read_results` takes the results as they stand: every verified sheet's result per player (the
game scores, referees' overrides applied, and the round totals) and the standings of the
verified sheets. Read once with the settings in force and once after the games were scored
again with the new ones, `RescorePlan.between` says what the change does: which players'
results change on which sheet, whose place in the standings moves and which tie decisions no
longer order a tie. The organiser's settings service shows the plan and saves nothing until
the head referee or the organiser confirms it with a reason; `log_plan` then writes one audit
entry per changed result, before and after.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any

from engine import rules
from engine.standings import StandingRow, decision_stands
from scoring.models import ScoreSheet, TieDecision
from scoring.selectors.sheets import seated_players, tie_decisions, verified_sheets
from scoring.selectors.standings import compute_standings
from tournament.audit import log_change
from tournament.models import Player, Tournament


@dataclass(frozen=True)
class Outcome:
    """A player's result on one sheet: the score of each game (overrides applied) and the round's totals."""

    scores: tuple[tuple[int, int], ...]  # (game number, score), in game order
    small_points: int
    big_points: int
    games_won: int

    def as_json(self) -> dict[str, Any]:
        return {
            "scores": {str(number): score for number, score in self.scores},
            "small_points": self.small_points,
            "big_points": self.big_points,
            "games_won": self.games_won,
        }


@dataclass(frozen=True)
class SheetSeat:
    """Where a result was played: the sheet (its round and table) and the seat, with its player."""

    sheet: ScoreSheet
    letter: str
    player: Player

    @property
    def round_number(self) -> int:
        return self.sheet.table.round.number

    @property
    def table_number(self) -> int:
        return self.sheet.table.number

    def as_json(self) -> dict[str, Any]:
        return {
            "round": self.round_number,
            "table": self.table_number,
            "seat": self.letter,
            "player": self.player.ext_id,
            "name": self.player.name,
        }


@dataclass
class Reading:
    """The verified results and the standings at one moment."""

    results: dict[tuple[int, str], tuple[SheetSeat, Outcome]]  # by (sheet id, seat letter)
    standings: list[StandingRow]
    decisions: list[TieDecision]
    standing: set[int]  # the ids of the decisions that order a tie


def read_results(tournament: Tournament) -> Reading:
    """Every verified sheet's results and the standings, scored with `tournament`'s settings
    (the stored scores: read it after the games were scored with them)."""
    settings = tournament.rules_settings()
    results = {}
    for sheet in verified_sheets(tournament):
        players = seated_players(sheet.table)
        games = sorted(sheet.stored_games, key=lambda game: game.number)
        scored = [
            rules.GameResult(
                scores={r.letter: r.effective_score for r in game.seat_results},
                winners=frozenset(r.letter for r in game.seat_results if r.is_winner),
                minus={},
            )
            for game in games
        ]
        totals = rules.table_round(scored, settings)
        for letter, _player in players.items():
            values = totals.get(letter, {"small_points": 0, "big_points": 0, "games_won": 0})
            outcome = Outcome(
                scores=tuple(
                    (game.number, result.scores[letter])
                    for game, result in zip(games, scored)
                    if letter in result.scores
                ),
                **values,
            )
            results[sheet.pk, letter] = (SheetSeat(sheet, letter, players[letter]), outcome)
    standings = compute_standings(tournament)
    decisions = tie_decisions(tournament)
    standing = {decision.pk for decision in decisions if decision_stands(standings, decision.order)}
    return Reading(results, standings, decisions, standing)


@dataclass
class ResultChange:
    """A player's result on a verified sheet that the new settings change."""

    seat: SheetSeat
    before: Outcome
    after: Outcome

    @property
    def games(self) -> list[tuple[int, int | None, int | None]]:
        """(game number, score before, score after) of the games whose score changes."""
        before, after = dict(self.before.scores), dict(self.after.scores)
        return [
            (n, before.get(n), after.get(n)) for n in sorted(set(before) | set(after)) if before.get(n) != after.get(n)
        ]

    def audit(self, outcome: Outcome) -> dict[str, Any]:
        return {**self.seat.as_json(), **outcome.as_json()}


@dataclass
class PlaceChange:
    """A player whose place or totals in the standings change."""

    before: StandingRow
    after: StandingRow

    @property
    def player(self) -> Player:
        return self.after.player


@dataclass
class TieChange:
    """A tie decision that orders a tie now and would not any more."""

    decision: TieDecision
    names: list[str]


@dataclass
class RescorePlan:
    """What new scoring settings change in the verified results (empty: nothing)."""

    changes: list[ResultChange] = field(default_factory=list)
    places: list[PlaceChange] = field(default_factory=list)
    ties: list[TieChange] = field(default_factory=list)

    @classmethod
    def between(cls, before: Reading, after: Reading) -> RescorePlan:
        changes = [
            ResultChange(seat, outcome, after.results[key][1])
            for key, (seat, outcome) in before.results.items()
            if key in after.results and after.results[key][1] != outcome
        ]
        rows_before = {row.player.pk: row for row in before.standings}
        places = [
            PlaceChange(rows_before[row.player.pk], row)
            for row in after.standings
            if row.player.pk in rows_before and _standing(rows_before[row.player.pk]) != _standing(row)
        ]
        names = {row.player.ext_id: row.player.name for row in after.standings}
        ties = [
            TieChange(decision, [names.get(ext_id, ext_id) for ext_id in decision.order])
            for decision in after.decisions
            if decision.pk in before.standing and decision.pk not in after.standing
        ]
        return cls(changes, places, ties)

    def __bool__(self) -> bool:
        """Whether any verified result changes (only then is a confirmation needed)."""
        return bool(self.changes)

    @property
    def sheets(self) -> list[tuple[ScoreSheet, list[ResultChange]]]:
        """The changes grouped by sheet, in round and table order."""
        ordered = sorted(self.changes, key=lambda c: (c.seat.round_number, c.seat.table_number, c.seat.letter))
        return [(sheet, list(group)) for sheet, group in groupby(ordered, key=lambda c: c.seat.sheet)]

    @property
    def token(self) -> str:
        """A digest of everything the plan shows: a confirmation names the plan it was given for,
        so a change no one has seen (the settings or a sheet changed meanwhile) is not confirmed."""
        shown = {
            "changes": [[c.seat.sheet.pk, c.seat.letter, c.before.as_json(), c.after.as_json()] for c in self.changes],
            "places": [[p.player.pk, _standing(p.before), _standing(p.after)] for p in self.places],
            "ties": [t.decision.pk for t in self.ties],
        }
        return hashlib.sha256(json.dumps(shown, sort_keys=True).encode()).hexdigest()[:32]


def _standing(row: StandingRow) -> tuple[str, int, int, int]:
    total = row.total
    return (row.rank_label, total.big_points, total.small_points, total.games_won)


def log_plan(tournament: Tournament, plan: RescorePlan, *, user: Any, reason: str) -> None:
    """One audit entry per changed result (on its sheet's log), before and after, with the reason."""
    for change in plan.changes:
        log_change(
            tournament,
            user,
            "rescore_result",
            sheet=change.seat.sheet,
            reason=reason,
            before=change.audit(change.before),
            after=change.audit(change.after),
        )

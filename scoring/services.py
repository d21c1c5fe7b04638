"""State changes of score sheets. Every function runs in one transaction.

The rules engine computes; these functions store what it computed.
"""

from django.db import transaction

from scoring import rules
from scoring.models import Game, ScoreSheet, SeatResult


def table_letters(table):
    """The seat letters at a table, in order (A, B, C[, D])."""
    return tuple(sorted(seat.letter for seat in table.seats.all()))


def games_per_table(table):
    """Games a table plays in its round: the final's setting, else one per seat."""
    round_ = table.round
    if round_.is_final:
        return round_.tournament.final_games
    return len(table.seats.all())


def ensure_sheet(table):
    sheet, _ = ScoreSheet.objects.get_or_create(table=table)
    return sheet


@transaction.atomic
def store_game(sheet, number, game, *, keypad=None, overrides=None):
    """Score `game` (a rules.Game) with the tournament's settings and store it as game `number`.

    Replaces an existing game with that number. `keypad` maps a seat letter to the tile faces
    entered one by one; `overrides` maps a seat letter to (score, reason). Raises
    rules.RuleViolation, leaving the database unchanged, when the game breaks a rule.
    """
    settings = sheet.table.round.tournament.rules_settings()
    if keypad:
        rules.validate_keypad_racks(keypad)
    result = rules.score_game(game, settings)
    overrides = overrides or {}
    for letter, (score, reason) in overrides.items():
        if letter not in result.scores:
            raise rules.RuleViolation("seat_not_at_table", f"racks.{letter}", f"seat {letter} is not at this table")
        if not str(reason or "").strip():
            raise rules.RuleViolation("override_reason", f"racks.{letter}.override.reason", "an override needs a reason")
    Game.objects.filter(sheet=sheet, number=number).delete()
    stored = Game.objects.create(
        sheet=sheet, number=number, ending=rules.OUT if game.winner else rules.POOL_EXHAUSTED, winner=game.winner or ""
    )
    results = []
    for letter, score in result.scores.items():
        rack = game.racks.get(letter, rules.Rack())
        override = overrides.get(letter)
        results.append(
            SeatResult(
                game=stored, letter=letter, went_out=letter == game.winner, tiles=rack.tiles, jokers=rack.jokers,
                opening=rack.opening, first_move_case=rack.first_move_case,
                keypad=list(keypad[letter]) if keypad and letter in keypad else None,
                score=score, is_winner=letter in result.winners,
                override_score=override[0] if override else None, override_reason=override[1] if override else "",
            )
        )
    SeatResult.objects.bulk_create(results)
    return stored


def game_input(game):
    """The rules.Game a stored game was scored from."""
    results = list(game.results.all())
    return rules.Game(
        seats=tuple(r.letter for r in results),
        winner=game.winner or None,
        racks={r.letter: r.rack() for r in results if not r.went_out},
    )


def game_result(game):
    """The rules.GameResult of a stored game, with referee overrides applied."""
    results = list(game.results.all())
    return rules.GameResult(
        scores={r.letter: r.effective_score for r in results},
        winners=frozenset(r.letter for r in results if r.is_winner),
        minus={},
    )


@transaction.atomic
def recompute_scores(tournament):
    """Score every stored game again, e.g. after a scoring setting changed."""
    settings = tournament.rules_settings()
    games = Game.objects.filter(sheet__table__round__tournament=tournament).prefetch_related("results")
    changed = []
    for game in games:
        result = rules.score_game(game_input(game), settings)
        for seat_result in game.results.all():
            score = result.scores[seat_result.letter]
            is_winner = seat_result.letter in result.winners
            if (seat_result.score, seat_result.is_winner) != (score, is_winner):
                seat_result.score, seat_result.is_winner = score, is_winner
                changed.append(seat_result)
    SeatResult.objects.bulk_update(changed, ["score", "is_winner"])
    return len(changed)

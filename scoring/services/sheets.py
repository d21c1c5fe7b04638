"""State changes of score sheets. Every function that writes runs in one transaction.

The rules engine computes; these functions store what it computed. A game entered on a tablet
is checked here, once (`entry.check_game`): the rules engine validates every rack and scores the game.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from accounts.models import Role
from accounts.roles import RANK, has_role
from engine import rules
from scoring.models import Game, ScoreSheet, SeatResult
from scoring.records import game_record
from scoring.selectors import sheets as selectors
from scoring.services.entry import CheckedGame, EnteredGame, InvalidGame, check_game
from scoring.signals import send_sheet_verified
from tournament.audit import log_change
from tournament.refusals import Refused

EDITABLE = (ScoreSheet.State.EMPTY, ScoreSheet.State.IN_PROGRESS)


def table_letters(table):
    """The seat letters at a table, in order (A, B, C[, D])."""
    return tuple(sorted(seat.letter for seat in selectors.seats_of(table)))


def games_per_table(table):
    """Games a table plays in its round: the final's setting, else one per seat."""
    return table.round.games_per_table(len(selectors.seats_of(table)))


def ensure_sheet(table):
    sheet, _ = ScoreSheet.objects.get_or_create(table=table)
    return sheet


def store_game(sheet, number, game, *, keypad=None, overrides=None):
    """Score `game` (a rules.Game) with the tournament's settings and store it as game `number`
    of a sheet that has no game of that number yet (the import of a tournament file).

    `keypad` maps a seat letter to the tile faces entered one by one; `overrides` maps a seat
    letter to (score, reason). Raises rules.RuleViolation, writing nothing, when the game
    breaks a rule.
    """
    settings = sheet.table.round.tournament.rules_settings()
    if keypad:
        rules.validate_keypad_racks(keypad)
    result = rules.score_game(game, settings)
    overrides = overrides or {}
    for letter, (_score, reason) in overrides.items():
        if letter not in result.scores:
            raise rules.RuleViolation("seat_not_at_table", f"racks.{letter}", f"seat {letter} is not at this table")
        if not str(reason or "").strip():
            raise rules.RuleViolation(
                "override_reason", f"racks.{letter}.override.reason", "an override needs a reason"
            )
    return _write_game(sheet, number, game, result, keypad=keypad or {}, overrides=overrides)


def _write_game(sheet, number, game, result, *, keypad, overrides=None, existing=None):
    """Write a scored game as game `number`, with the scores set by hand in `overrides`; or over
    `existing` (the stored game of that number, with its results), keeping the scores set by
    hand on it. The returned game carries its seat results."""
    ending = rules.OUT if game.winner else rules.POOL_EXHAUSTED
    values = {letter: _result_values(game, result, letter, keypad) for letter in result.scores}
    if existing is None:
        stored = Game.objects.create(sheet=sheet, number=number, ending=ending, winner=game.winner or "")
        overrides = overrides or {}
        results = [
            SeatResult(
                game=stored,
                letter=letter,
                override_score=overrides[letter][0] if letter in overrides else None,
                override_reason=overrides[letter][1] if letter in overrides else "",
                **values[letter],
            )
            for letter in values
        ]
        SeatResult.objects.bulk_create(results)
        stored.seat_results = results
        return stored
    if (existing.ending, existing.winner) != (ending, game.winner or ""):
        existing.ending, existing.winner = ending, game.winner or ""
        existing.save(update_fields=["ending", "winner"])
    for seat_result in selectors.results_of(existing):
        for name, value in values[seat_result.letter].items():
            setattr(seat_result, name, value)
    # One upsert on (game, letter), far cheaper to build than bulk_update's CASE per field and row;
    # the scores set by hand are not among the fields written, so they stay.
    written = [SeatResult(game=existing, letter=letter, **row) for letter, row in values.items()]
    SeatResult.objects.bulk_create(
        written, update_conflicts=True, unique_fields=["game", "letter"], update_fields=list(values[written[0].letter])
    )
    return existing


def _result_values(game, result, letter, keypad):
    """The stored fields of one seat's result (overrides aside)."""
    rack = game.racks.get(letter, rules.Rack())
    return {
        "went_out": letter == game.winner,
        "tiles": rack.tiles,
        "jokers": rack.jokers,
        "opening": rack.opening,
        "first_move_case": rack.first_move_case,
        "keypad": list(keypad[letter]) if letter in keypad else None,
        "score": result.scores[letter],
        "is_winner": letter in result.winners,
    }


def game_input(game):
    """The rules.Game a stored game was scored from."""
    results = selectors.results_of(game)
    return rules.Game(
        seats=tuple(r.letter for r in results),
        winner=game.winner or None,
        racks={r.letter: r.rack() for r in results if not r.went_out},
    )


def game_result(game):
    """The rules.GameResult of a stored game, with referee overrides applied."""
    results = selectors.results_of(game)
    return rules.GameResult(
        scores={r.letter: r.effective_score for r in results},
        winners=frozenset(r.letter for r in results if r.is_winner),
        minus={},
    )


def holds_game(stored, game, keypad) -> bool:
    """Whether a stored game is exactly `game` with these keypad faces (saving it changes nothing)."""
    if stored is None or game is None:
        return False
    stored_keypad = {r.letter: r.keypad for r in selectors.results_of(stored) if r.keypad is not None}
    return game_input(stored) == game and stored_keypad == dict(keypad)


def sheet_totals(games, settings):
    """A table's round totals per seat (small points, big points, games won) from its stored games."""
    return rules.table_round([game_result(games[n]) for n in sorted(games)], settings)


@transaction.atomic
def recompute_scores(tournament):
    """Score every stored game again, e.g. after a scoring setting changed."""
    settings = tournament.rules_settings()
    changed = []
    for game in selectors.tournament_games(tournament):
        result = rules.score_game(game_input(game), settings)
        for seat_result in selectors.results_of(game):
            score = result.scores[seat_result.letter]
            is_winner = seat_result.letter in result.winners
            if (seat_result.score, seat_result.is_winner) != (score, is_winner):
                seat_result.score, seat_result.is_winner = score, is_winner
                changed.append(seat_result)
    SeatResult.objects.bulk_update(changed, ["score", "is_winner"])
    return len(changed)


# ---------------------------------------------------------------- referee tablets
#
# Every change to a sheet goes through `_claim_sheet`, a compare-and-swap on
# `ScoreSheet.version`: the caller names the version its form was loaded at, and the change is
# made only when the sheet is still at that version (and in the state the change was decided
# on). The same UPDATE … WHERE version = v behaves identically on SQLite and PostgreSQL; when it
# changes nothing, the sheet as stored now says why. Every change writes an AuditEntry whose
# `after` carries the new version, so a conflict can show what was saved since.


class EditConflict(Refused):
    """Someone saved the sheet after the form was loaded. `sheet` is the sheet as stored now and
    `changes` the audit entries since; after a game was sent, `games` are the stored games and
    `checked` what the game sent scores."""

    def __init__(self, sheet, version, *, games=None, checked=None):
        super().__init__("stale_version")
        self.sheet = sheet
        self.changes = selectors.changes_since(sheet, version)
        self.games = games
        self.checked = checked


@dataclass
class SavedGame:
    """A game saved on a sheet, with everything the sheet page shows after it."""

    sheet: ScoreSheet  # with its new version and state
    game: Game  # the stored game, with its seat results
    checked: CheckedGame  # the game as sent, validated and scored
    games: dict[int, Game]  # every stored game of the sheet, by number
    totals: dict[str, dict[str, int]]  # the table's round totals per seat
    already_saved: bool = False  # sent again (a retry after a lost reply): the sheet held it already


def is_head_referee(user, tournament, role=None):
    """Whether `user` is head referee (or organiser) of `tournament`; `role` is the user's role
    there when the caller knows it already."""
    if role is None:
        return has_role(user, tournament, Role.HEAD_REFEREE)
    return RANK[Role(role)] >= RANK[Role.HEAD_REFEREE]


def starting_seat(letters, number):
    """The seat that starts game `number`: game k is started by seat k (then round again)."""
    return letters[(number - 1) % len(letters)]


def game_snapshot(game):
    """A stored game for the audit log: the interchange format's game (SPEC §9) and its scores."""
    if game is None:
        return None
    results = selectors.results_of(game)
    snapshot = game_record(game, results)
    snapshot["scores"] = {r.letter: r.score for r in results}
    return snapshot


def _claim_sheet(sheet, version, user, *conditions, **changes):
    """Compare-and-swap: raise the version from `version` and apply `changes` when the sheet is
    still at `version` and meets `conditions`. Returns whether it did."""
    changes.update(updated_at=timezone.now(), updated_by=user)
    claimed = ScoreSheet.objects.filter(*conditions, pk=sheet.pk, version=version).update(
        version=F("version") + 1, **changes
    )
    if claimed:
        for name, value in changes.items():
            setattr(sheet, name, value)
        sheet.version = version + 1
    return bool(claimed)


def _audit(sheet, user, action, *, before=None, after=None, reason=""):
    after = dict(after or {}, version=sheet.version)
    return log_change(
        sheet.table.round.tournament, user, action, before=before, after=after, reason=reason, sheet=sheet
    )


def _current_or_conflict(sheet, version):
    """After a compare-and-swap changed nothing: the conflict when the version moved on, else the
    sheet as stored now (for the caller to say what else stopped it)."""
    current = selectors.current_sheet(sheet)
    if current.version != version:
        raise EditConflict(current, version)
    return current


def save_game(sheet, number, game, *, keypad=None, **options):
    """`save_entered_game` for a game given whole (a rules.Game; `keypad` the faces of racks
    entered tile by tile)."""
    return save_entered_game(sheet, number, EnteredGame.of(game, keypad), **options)


@transaction.atomic
def save_entered_game(sheet, number, entered, *, version, user, reason="", role=None, games=None):
    """Check one game entered on a tablet (the rules engine validates and scores it, once) and
    store it as game `number` of `sheet`. Returns a SavedGame: what the sheet page shows.

    `sheet` is the sheet as the caller read it: its state decides what the save is. A verified
    sheet changes only by the head referee with a reason (a correction: it stays verified); any
    other save leaves the sheet in progress. `version` is the sheet version the form was loaded
    at. Score overrides already on the game are kept. A game the sheet holds already, sent again
    after its version moved on (a retry after a lost reply), is saved already: nothing is
    written. Raises EditConflict, InvalidGame or Refused; nothing is changed then.

    `games` are the sheet's stored games when the caller read them with the sheet (one query
    less): when the compare-and-swap succeeds, the sheet has not changed since it had
    `version`, so they are the games stored now.
    """
    table = sheet.table
    tournament = table.round.tournament
    if not 1 <= number <= games_per_table(table):
        raise Refused("game_number", number=number)
    correcting = sheet.state == ScoreSheet.State.VERIFIED
    if correcting and not is_head_referee(user, tournament, role):
        raise Refused("sheet_verified")
    if correcting and not reason.strip():
        raise Refused("reason_required", field="reason")
    settings = tournament.rules_settings()
    checked = check_game(entered, settings)
    if checked.game is None:
        raise InvalidGame(checked if checked.problems else _incomplete(checked))
    state = sheet.state if correcting else ScoreSheet.State.IN_PROGRESS
    if not _claim_sheet(sheet, version, user, Q(state=sheet.state), state=state):
        return _saved_already(sheet, number, version, checked, selectors.sheet_games(sheet), settings)
    games = dict(games) if games is not None else selectors.sheet_games(sheet)
    existing = games.get(number)
    before = game_snapshot(existing)
    games[number] = stored = _write_game(
        sheet, number, checked.game, checked.result, keypad=checked.keypad, existing=existing
    )
    _audit(
        sheet,
        user,
        "correct_game" if correcting else "save_game",
        before=before and {"game": before},
        after={"game": game_snapshot(stored)},
        reason=reason.strip(),
    )
    if correcting:
        send_sheet_verified(sheet, "correction")
    return SavedGame(sheet, stored, checked, games, sheet_totals(games, settings))


def _incomplete(checked):
    """A game sent without who went out (or with values that could not be read): nothing to score."""
    checked.problems.append(Refused("ending_missing", field="winner"))
    return checked


def _saved_already(sheet, number, version, checked, games, settings):
    """The sheet moved on from `version`: the SavedGame when it holds exactly this game already, else EditConflict."""
    current = selectors.current_sheet(sheet)
    stored = games.get(number)
    if not holds_game(stored, checked.game, checked.keypad):
        raise EditConflict(current, version, games=games, checked=checked)
    return SavedGame(current, stored, checked, games, sheet_totals(games, settings), already_saved=True)


@transaction.atomic
def override_score(sheet, game, letter, score, *, reason, version, user, role=None):
    """The head referee sets (or, with `score` None, removes) a seat's score in a stored game, with a reason."""
    if not is_head_referee(user, sheet.table.round.tournament, role):
        raise Refused("head_referee_only")
    if not reason.strip():
        raise Refused("reason_required", field="reason")
    result = next((r for r in selectors.results_of(game) if r.letter == letter), None)
    if result is None:
        raise Refused("seat_not_at_table", field="seat", seat=letter)
    before = game_snapshot(game)
    if not _claim_sheet(sheet, version, user, Q(state=sheet.state)):
        raise EditConflict(selectors.current_sheet(sheet), version)
    result.override_score = score
    result.override_reason = reason.strip() if score is not None else ""
    result.save(update_fields=["override_score", "override_reason"])
    _audit(sheet, user, "override", before={"game": before}, after={"game": game_snapshot(game)}, reason=reason.strip())
    if sheet.state == ScoreSheet.State.VERIFIED:
        send_sheet_verified(sheet, "correction")
    return result


def missing_games(sheet):
    entered = selectors.entered_game_numbers(sheet)
    return [n for n in range(1, games_per_table(sheet.table) + 1) if n not in entered]


@transaction.atomic
def submit_sheet(sheet, *, version, user):
    """A referee hands in a complete sheet: in progress → submitted."""
    before = {"state": sheet.state}
    complete = selectors.holds_games(games_per_table(sheet.table))
    changes = {"state": ScoreSheet.State.SUBMITTED, "submitted_at": timezone.now()}
    if not _claim_sheet(sheet, version, user, Q(state__in=EDITABLE), complete, **changes):
        current = _current_or_conflict(sheet, version)
        if current.state not in EDITABLE:
            raise Refused("not_in_progress", state=current.get_state_display())
        raise Refused("sheet_incomplete", games=", ".join(map(str, missing_games(current))))
    _audit(sheet, user, "submit", before=before, after={"state": sheet.state})
    return sheet


@transaction.atomic
def verify_sheet(sheet, *, version, user, role=None):
    """The head referee checks a submitted sheet: submitted → verified (SPEC §6)."""
    if not is_head_referee(user, sheet.table.round.tournament, role):
        raise Refused("head_referee_only")
    changes = {"state": ScoreSheet.State.VERIFIED, "verified_at": timezone.now(), "verified_by": user}
    if not _claim_sheet(sheet, version, user, Q(state=ScoreSheet.State.SUBMITTED), **changes):
        current = _current_or_conflict(sheet, version)
        raise Refused("not_submitted", state=current.get_state_display())
    _audit(sheet, user, "verify", before={"state": ScoreSheet.State.SUBMITTED}, after={"state": sheet.state})
    send_sheet_verified(sheet, "verify")
    return sheet

"""State changes of score sheets. Every function runs in one transaction.

The rules engine computes; these functions store what it computed.
"""

from collections import Counter

from django.db import transaction
from django.db.models import F, prefetch_related_objects
from django.utils import timezone

from accounts.models import Role
from accounts.roles import has_role
from engine import discipline, rules
from tournament.audit import log_change
from scoring.models import AuditEntry, Card, Game, ScoreSheet, SeatResult
from scoring.records import game_record
from scoring.signals import send_after_commit
from tournament.models import Player
from tournament.refusals import Refused


def table_letters(table):
    """The seat letters at a table, in order (A, B, C[, D])."""
    return tuple(sorted(seat.letter for seat in table.seats.all()))


def games_per_table(table):
    """Games a table plays in its round: the final's setting, else one per seat."""
    return table.round.games_per_table(len(table.seats.all()))


def ensure_sheet(table):
    sheet, _ = ScoreSheet.objects.get_or_create(table=table)
    return sheet


@transaction.atomic(savepoint=False)  # nothing is written before every check has passed
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


# ---------------------------------------------------------------- referee tablets (issue 4)
#
# Every change to a sheet goes through `_claim_sheet`, a compare-and-swap on
# `ScoreSheet.version`: the caller names the version its form was loaded at, and the change is
# refused (`EditConflict`) when anyone saved in between. The same UPDATE … WHERE version = v
# behaves identically on SQLite and PostgreSQL. Every change writes an AuditEntry whose `after`
# carries the new version, so a conflict can show what was saved since.


class EditConflict(Refused):
    """Someone saved the sheet after the form was loaded; `changes` are their audit entries."""

    def __init__(self, sheet, version):
        super().__init__("stale_version")
        self.sheet = sheet
        self.changes = changes_since(sheet, version)


SHEET_ACTIONS = ("save_game", "correct_game", "override", "submit", "verify")


def is_head_referee(user, tournament):
    return has_role(user, tournament, Role.HEAD_REFEREE)


def starting_seat(letters, number):
    """The seat that starts game `number`: game k is started by seat k (then round again)."""
    return letters[(number - 1) % len(letters)]


def game_snapshot(game):
    """A stored game for the audit log: the interchange format's game (SPEC §9) and its scores."""
    if game is None:
        return None
    snapshot = game_record(game)
    snapshot["scores"] = {r.letter: r.score for r in sorted(game.results.all(), key=lambda x: x.letter)}
    return snapshot


def changes_since(sheet, version):
    """The audit entries of `sheet` written after it had `version`, oldest first."""
    entries = AuditEntry.objects.filter(sheet=sheet, action__in=SHEET_ACTIONS).select_related("user")
    newer = [e for e in entries if isinstance(e.after, dict) and (e.after.get("version") or 0) > version]
    return sorted(newer, key=lambda e: (e.after["version"], e.pk))


def _current(sheet):
    """The sheet as stored now (state, version), keeping the caller's table, round and tournament."""
    current = ScoreSheet.objects.get(pk=sheet.pk)
    current.table = sheet.table
    return current


def _claim_sheet(sheet, version, user, **changes):
    """Compare-and-swap: raise the version from `version` and apply `changes`, or raise EditConflict."""
    changes.update(updated_at=timezone.now(), updated_by=user)
    claimed = ScoreSheet.objects.filter(pk=sheet.pk, version=version).update(version=F("version") + 1, **changes)
    if not claimed:
        raise EditConflict(ScoreSheet.objects.get(pk=sheet.pk), version)
    for name, value in changes.items():
        setattr(sheet, name, value)
    sheet.version = version + 1
    return sheet


def _audit(sheet, user, action, *, before=None, after=None, reason=""):
    after = dict(after or {}, version=sheet.version)
    return log_change(sheet.table.round.tournament, user, action, before=before, after=after, reason=reason, sheet=sheet)


def _check_editable(sheet, version, user, reason):
    """Refuse a change to a verified sheet unless the head referee gives a reason; then the version."""
    if sheet.state == ScoreSheet.State.VERIFIED:
        if not is_head_referee(user, sheet.table.round.tournament):
            raise Refused("sheet_verified")
        if not reason.strip():
            raise Refused("reason_required")
    if sheet.version != version:
        raise EditConflict(sheet, version)


@transaction.atomic
def save_game(sheet, number, game, *, version, user, keypad=None, reason=""):
    """Store one game of a sheet entered on a tablet (validated by the rules engine).

    `version` is the sheet version the form was loaded at. A verified sheet changes only by the
    head referee with a reason (a correction: the sheet stays verified); any other save leaves
    the sheet in progress. Score overrides already on the game are kept. Raises EditConflict,
    Refused or rules.RuleViolation; nothing is changed then.
    """
    sheet = _current(sheet)
    if not 1 <= number <= games_per_table(sheet.table):
        raise Refused("game_number", number=number)
    _check_editable(sheet, version, user, reason)
    correcting = sheet.state == ScoreSheet.State.VERIFIED
    existing = Game.objects.filter(sheet=sheet, number=number).prefetch_related("results").first()
    before = game_snapshot(existing)
    overrides = {}
    if existing is not None:
        overrides = {
            r.letter: (r.override_score, r.override_reason) for r in existing.results.all() if r.override_score is not None
        }
    state = sheet.state if correcting else ScoreSheet.State.IN_PROGRESS
    _claim_sheet(sheet, version, user, state=state)
    stored = store_game(sheet, number, game, keypad=keypad, overrides=overrides)
    prefetch_related_objects([stored], "results")
    _audit(
        sheet, user, "correct_game" if correcting else "save_game",
        before=before and {"game": before}, after={"game": game_snapshot(stored)}, reason=reason.strip(),
    )
    if correcting:
        send_after_commit(sheet, "correction")
    return stored


@transaction.atomic
def override_score(sheet, number, letter, score, *, reason, version, user):
    """The head referee sets (or, with `score` None, removes) a seat's score, with a reason."""
    sheet = _current(sheet)
    if not is_head_referee(user, sheet.table.round.tournament):
        raise Refused("head_referee_only")
    if not reason.strip():
        raise Refused("reason_required")
    if sheet.version != version:
        raise EditConflict(sheet, version)
    game = Game.objects.filter(sheet=sheet, number=number).prefetch_related("results").first()
    if game is None:
        raise Refused("game_not_entered", number=number)
    result = next((r for r in game.results.all() if r.letter == letter), None)
    if result is None:
        raise rules.RuleViolation("seat_not_at_table", f"racks.{letter}", f"seat {letter} is not at this table", seat=letter)
    before = game_snapshot(game)
    _claim_sheet(sheet, version, user)
    result.override_score = score
    result.override_reason = reason.strip() if score is not None else ""
    result.save(update_fields=["override_score", "override_reason"])
    _audit(sheet, user, "override", before={"game": before}, after={"game": game_snapshot(game)}, reason=reason.strip())
    if sheet.state == ScoreSheet.State.VERIFIED:
        send_after_commit(sheet, "correction")
    return result


def missing_games(sheet):
    entered = set(sheet.games.values_list("number", flat=True))
    return [n for n in range(1, games_per_table(sheet.table) + 1) if n not in entered]


@transaction.atomic
def submit_sheet(sheet, *, version, user):
    """A referee hands in a complete sheet: in progress → submitted."""
    sheet = _current(sheet)
    if sheet.version != version:
        raise EditConflict(sheet, version)
    if sheet.state not in (ScoreSheet.State.IN_PROGRESS, ScoreSheet.State.EMPTY):
        raise Refused("not_in_progress", state=sheet.get_state_display())
    missing = missing_games(sheet)
    if missing:
        raise Refused("sheet_incomplete", games=", ".join(map(str, missing)))
    before = {"state": sheet.state}
    _claim_sheet(sheet, version, user, state=ScoreSheet.State.SUBMITTED, submitted_at=timezone.now())
    _audit(sheet, user, "submit", before=before, after={"state": sheet.state})
    return sheet


@transaction.atomic
def verify_sheet(sheet, *, version, user):
    """The head referee checks a submitted sheet: submitted → verified (SPEC §6)."""
    sheet = _current(sheet)
    if not is_head_referee(user, sheet.table.round.tournament):
        raise Refused("head_referee_only")
    if sheet.version != version:
        raise EditConflict(sheet, version)
    if sheet.state != ScoreSheet.State.SUBMITTED:
        raise Refused("not_submitted", state=sheet.get_state_display())
    before = {"state": sheet.state}
    _claim_sheet(
        sheet, version, user, state=ScoreSheet.State.VERIFIED, verified_at=timezone.now(), verified_by=user
    )
    _audit(sheet, user, "verify", before=before, after={"state": sheet.state})
    send_after_commit(sheet, "verify")
    return sheet


# ---------------------------------------------------------------- discipline (SPEC §7)

@transaction.atomic
def give_card(player, colour, reason, *, user, round=None):
    """Record a warning, yellow or red card; the second yellow or a red disqualifies.

    Referees give warnings and yellow cards, the head referee red cards. Returns the Card.
    """
    tournament = player.tournament
    if colour not in Card.Colour.values:
        raise Refused("card_colour")
    if not reason.strip():
        raise Refused("reason_required")
    minimum = Role.HEAD_REFEREE if colour == Card.Colour.RED else Role.REFEREE
    if not has_role(user, tournament, minimum):
        raise Refused("head_referee_only")
    if round is not None and round.tournament_id != tournament.pk:
        raise Refused("card_round")
    player = Player.objects.select_for_update().get(pk=player.pk)
    card = Card.objects.create(
        tournament=tournament, player=player, round=round, colour=colour, reason=reason.strip(), given_by=user
    )
    log_change(
        tournament, user, "card", reason=card.reason,
        after={"player": player.ext_id, "name": player.name, "colour": colour, "round": round.number if round else None},
    )
    colours = Counter(Card.objects.filter(player=player).values_list("colour", flat=True))
    if discipline.disqualifies(colours) and player.status != Player.Status.DISQUALIFIED:
        log_change(
            tournament, user, "disqualify", reason=card.reason,
            before={"player": player.ext_id, "name": player.name, "status": player.status},
            after={"player": player.ext_id, "name": player.name, "status": Player.Status.DISQUALIFIED},
        )
        player.status = Player.Status.DISQUALIFIED
        player.save(update_fields=["status"])
    return card

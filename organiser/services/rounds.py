"""The round lifecycle: publish, start, complete or discard a round, and swap two players' seats.

State changes are compare-and-swaps on the round's state, so two clicks cannot both succeed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Role
from accounts.roles import has_role
from organiser.backups.snapshots import queue_snapshot
from organiser.selectors import unverified_tables
from scoring.models import Game
from scoring.services.visibility import hide_for_the_final, set_visibility
from tournament.audit import log_change
from tournament.models import Player, Round, Seat, Tournament
from tournament.refusals import Refused

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser


def _move_state(round_, allowed, new_state, refusal, **extra):
    """Compare-and-swap the round's state, so two clicks cannot both succeed."""
    changed = Round.objects.filter(pk=round_.pk, state__in=allowed).update(state=new_state, **extra)
    if not changed:
        round_.refresh_from_db()
        raise Refused(refusal, round=round_, state=round_.get_state_display())
    round_.refresh_from_db()


@transaction.atomic
def publish_round(round_: Round, *, user: AbstractBaseUser | None) -> Round:
    """Make a draft's seating public."""
    _move_state(round_, [Round.State.DRAFT], Round.State.PUBLISHED, "round_not_publishable")
    log_change(round_.tournament, user, "round_publish", after={"round": round_.number})
    return round_


@transaction.atomic
def start_round(round_: Round, *, user: AbstractBaseUser | None) -> Round:
    """Lock the seating and let play begin. The final hides the public results under the plan
    "hidden until the ceremony"; otherwise auto-freeze, when set, freezes them for the last round."""
    _move_state(
        round_,
        [Round.State.DRAFT, Round.State.PUBLISHED],
        Round.State.STARTED,
        "round_not_startable",
        started_at=timezone.now(),
    )
    tournament = round_.tournament
    log_change(tournament, user, "round_start", after={"round": round_.number})
    if round_.is_final and hide_for_the_final(tournament, user=user):
        return round_
    last = round_.is_final or round_.number == tournament.rounds_planned
    if tournament.auto_freeze and last and tournament.visibility == Tournament.Visibility.LIVE:
        set_visibility(tournament, Tournament.Visibility.FROZEN, user=user, reason=_("the last round started"))
    return round_


@transaction.atomic
def complete_round(round_: Round, *, user: AbstractBaseUser | None) -> Round:
    """Close a started round once every score sheet is verified."""
    if round_.state == Round.State.STARTED:
        waiting = unverified_tables(round_)
        if waiting:
            raise Refused("round_unverified", round=round_, tables=", ".join(map(str, waiting)), count=len(waiting))
    _move_state(
        round_, [Round.State.STARTED], Round.State.COMPLETED, "round_not_completable", completed_at=timezone.now()
    )
    log_change(round_.tournament, user, "round_complete", after={"round": round_.number})
    queue_snapshot(round_.tournament_id, f"round-{round_.number}")
    return round_


@transaction.atomic
def discard_round(round_: Round, *, user: AbstractBaseUser | None) -> None:
    """Delete a round that has not started (to draw it again)."""
    if round_.is_locked:
        raise Refused("round_started_no_discard", round=round_)
    if Game.objects.filter(sheet__table__round=round_).exists():
        raise Refused("round_has_results", round=round_)
    log_change(
        round_.tournament,
        user,
        "round_discard",
        before={"round": round_.number, "seed": round_.seed, "method": round_.method},
    )
    round_.delete()


@transaction.atomic
def swap_players(
    round_: Round, *, player_a: Player, player_b: Player, user: AbstractBaseUser | None, reason: str = ""
) -> None:
    """Exchange the seats of two players in one round.

    Before the round starts any organiser may swap; once it has started only the head
    referee (or an organiser) may, with a reason; a completed round never changes.
    Every swap is written to the audit log.
    """
    round_ = Round.objects.select_related("tournament").get(pk=round_.pk)
    tournament = round_.tournament
    reason = (reason or "").strip()
    if round_.state == Round.State.COMPLETED:
        raise Refused("round_completed_no_swap", round=round_)
    if round_.is_locked:
        if not has_role(user, tournament, Role.HEAD_REFEREE):
            raise Refused("swap_head_referee_only", round=round_)
        if not reason:
            raise Refused("swap_reason_required", field="reason", round=round_)
    elif not has_role(user, tournament, Role.ORGANISER):
        raise Refused("swap_organiser_only")
    if player_a.pk == player_b.pk:
        raise Refused("swap_same_player", field="player_b")
    seats = {
        s.player_id: s
        for s in Seat.objects.filter(round=round_, player__in=[player_a, player_b]).select_related("table")
    }
    for player, field_name in ((player_a, "player_a"), (player_b, "player_b")):
        if player.pk not in seats:
            raise Refused("player_not_seated", field=field_name, player=player.name, round=round_)
    seat_a, seat_b = seats[player_a.pk], seats[player_b.pk]

    def where(seat):
        return {"table": seat.table.number, "seat": seat.letter}

    before = {player_a.ext_id: where(seat_a), player_b.ext_id: where(seat_b)}
    Seat.objects.filter(pk__in=[seat_a.pk, seat_b.pk]).delete()
    Seat.objects.bulk_create(
        [
            Seat(table=seat_a.table, round=round_, player=player_b, letter=seat_a.letter),
            Seat(table=seat_b.table, round=round_, player=player_a, letter=seat_b.letter),
        ]
    )
    after = {player_a.ext_id: where(seat_b), player_b.ext_id: where(seat_a)}
    log_change(tournament, user, "swap_seats", before=before, after=after, reason=reason)

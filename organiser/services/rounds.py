"""The round lifecycle: publish, start, complete or discard a round, and swap two players' seats.

State changes are compare-and-swaps on the round's state, so two clicks cannot both succeed.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import Role
from accounts.roles import has_role
from organiser.backups.snapshots import snapshot_after_commit
from tournament.audit import log_change
from scoring.models import Game, ScoreSheet
from scoring.visibility import set_visibility
from tournament.errors import ActionRefused
from tournament.models import Round, Seat, Table, Tournament


def _move_state(round_, allowed, new_state, refusal, **extra):
    """Compare-and-swap the round's state, so two clicks cannot both succeed."""
    changed = Round.objects.filter(pk=round_.pk, state__in=allowed).update(state=new_state, **extra)
    if not changed:
        round_.refresh_from_db()
        raise ActionRefused(refusal % {"round": round_, "state": round_.get_state_display()})
    round_.refresh_from_db()


@transaction.atomic
def publish_round(round_, *, user):
    """Make a draft's seating public."""
    _move_state(round_, [Round.State.DRAFT], Round.State.PUBLISHED, _("%(round)s cannot be published: it is %(state)s."))
    log_change(round_.tournament, user, "round_publish", after={"round": round_.number})
    return round_


@transaction.atomic
def start_round(round_, *, user):
    """Lock the seating and let play begin; freeze public results for the last round if set."""
    _move_state(
        round_, [Round.State.DRAFT, Round.State.PUBLISHED], Round.State.STARTED,
        _("%(round)s cannot be started: it is %(state)s."), started_at=timezone.now(),
    )
    tournament = round_.tournament
    log_change(tournament, user, "round_start", after={"round": round_.number})
    last = round_.is_final or round_.number == tournament.rounds_planned
    if tournament.auto_freeze and last and tournament.visibility == Tournament.Visibility.LIVE:
        set_visibility(tournament, Tournament.Visibility.FROZEN, user=user, reason=_("the last round started"))
    return round_


def unverified_tables(round_):
    return list(
        Table.objects.filter(round=round_).exclude(sheet__state=ScoreSheet.State.VERIFIED).values_list("number", flat=True)
    )


@transaction.atomic
def complete_round(round_, *, user):
    """Close a started round once every score sheet is verified."""
    if round_.state == Round.State.STARTED:
        waiting = unverified_tables(round_)
        if waiting:
            raise ActionRefused(ngettext(
                "%(round)s cannot be completed: the sheet of table %(tables)s is not verified yet.",
                "%(round)s cannot be completed: the sheets of tables %(tables)s are not verified yet.",
                len(waiting),
            ) % {"round": round_, "tables": ", ".join(map(str, waiting))})
    _move_state(
        round_, [Round.State.STARTED], Round.State.COMPLETED, _("%(round)s cannot be completed: it is %(state)s."),
        completed_at=timezone.now(),
    )
    log_change(round_.tournament, user, "round_complete", after={"round": round_.number})
    snapshot_after_commit(round_.tournament_id, f"round-{round_.number}")
    return round_


@transaction.atomic
def discard_round(round_, *, user):
    """Delete a round that has not started (to draw it again)."""
    if round_.is_locked:
        raise ActionRefused(_("%(round)s has started: its seating can no longer be discarded.") % {"round": round_})
    if Game.objects.filter(sheet__table__round=round_).exists():
        raise ActionRefused(_("%(round)s already has results entered: it cannot be discarded.") % {"round": round_})
    log_change(round_.tournament, user, "round_discard", before={"round": round_.number, "seed": round_.seed, "method": round_.method})
    round_.delete()


@transaction.atomic
def swap_players(round_, player_a, player_b, *, user, reason=""):
    """Exchange the seats of two players in one round.

    Before the round starts any organiser may swap; once it has started only the head
    referee (or an organiser) may, with a reason; a completed round never changes.
    Every swap is written to the audit log.
    """
    round_ = Round.objects.select_related("tournament").get(pk=round_.pk)
    tournament = round_.tournament
    reason = (reason or "").strip()
    if round_.state == Round.State.COMPLETED:
        raise ActionRefused(_("%(round)s is completed: its seating can no longer change.") % {"round": round_})
    if round_.is_locked:
        if not has_role(user, tournament, Role.HEAD_REFEREE):
            raise ActionRefused(_("%(round)s has started: only the head referee may change its seating.") % {"round": round_})
        if not reason:
            raise ActionRefused(
                _("%(round)s has started: give the reason for changing its seating.") % {"round": round_}, field="reason"
            )
    elif not has_role(user, tournament, Role.ORGANISER):
        raise ActionRefused(_("Only the organiser may change a seating before the round starts."))
    if player_a.pk == player_b.pk:
        raise ActionRefused(_("Choose two different players."), field="player_b")
    seats = {s.player_id: s for s in Seat.objects.filter(round=round_, player__in=[player_a, player_b]).select_related("table")}
    for player, field_name in ((player_a, "player_a"), (player_b, "player_b")):
        if player.pk not in seats:
            raise ActionRefused(
                _("%(player)s is not seated in %(round)s.") % {"player": player.name, "round": round_}, field=field_name
            )
    seat_a, seat_b = seats[player_a.pk], seats[player_b.pk]

    def where(seat):
        return {"table": seat.table.number, "seat": seat.letter}

    before = {player_a.ext_id: where(seat_a), player_b.ext_id: where(seat_b)}
    Seat.objects.filter(pk__in=[seat_a.pk, seat_b.pk]).delete()
    Seat.objects.bulk_create([
        Seat(table=seat_a.table, round=round_, player=player_b, letter=seat_a.letter),
        Seat(table=seat_b.table, round=round_, player=player_a, letter=seat_b.letter),
    ])
    after = {player_a.ext_id: where(seat_b), player_b.ext_id: where(seat_a)}
    log_change(tournament, user, "swap_seats", before=before, after=after, reason=reason)

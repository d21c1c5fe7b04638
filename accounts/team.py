"""State changes of a host organisation's team: a member's role changed or taken away (with a
reason, audited, undone by a signed note as a tournament's staff removal is), invitations made,
revoked and accepted.

An invitation is a one-time link: its token carries 256 random bits and only its SHA-256 is
stored (`accounts.devices.token_hash`), so the link is shown once, to the organiser who made it.
Accepting it puts the person in the team with its role for all the organisation's tournaments,
or gives them that role for the one tournament it names. It never lowers a role held already.
"""

from __future__ import annotations

import datetime
import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.core import signing
from django.db import transaction
from django.utils import timezone

from accounts.devices import TOKEN_BYTES, token_hash
from accounts.models import DeviceLink, Invitation, Membership, Role, TournamentRole
from accounts.roles import RANK
from accounts.selectors import invitation_by_token, invitation_stands
from accounts.services import _new_account
from tournament.audit import log_change
from tournament.models import HostOrganisation
from tournament.refusals import Refused

REMOVE = "remove"  # the team page's choice that takes a member out of the team
TEAM_UNDO_SALT = "accounts.team_undo"
TEAM_UNDO_HOURS = 12
INVITATION_DAYS = 7


def _organisers_left(host: Any, without: Membership) -> bool:
    others = Membership.objects.filter(host=host, role=Role.ORGANISER).exclude(pk=without.pk)
    return others.exists()


def _lock_team(host: Any) -> None:
    """Changes to one organisation's team wait for each other (its row is locked until the
    transaction ends): two organisers demoting each other at once leave one organiser, not none,
    and no deadlock. SQLite's write transactions are serialised already."""
    HostOrganisation.objects.select_for_update().filter(pk=host.pk).first()


def _check_change(host: Any, membership: Membership, role: str, changed_by: Any) -> None:
    """The rules every change of a member's role passes, an undo's too: nobody changes their own
    role, and the last organiser stays one."""
    if membership.user_id == changed_by.pk:
        raise Refused("team_not_yourself")
    if membership.role == Role.ORGANISER and role != Role.ORGANISER and not _organisers_left(host, membership):
        raise Refused("team_last_organiser")


@transaction.atomic
def change_member(host: Any, *, membership_id: int, role: str, reason: str, changed_by: Any) -> tuple[str, str] | None:
    """Give a team member another role (`role`) or take them out of the team (`REMOVE`); returns
    their user name and a signed note that undoes it (`restore_member`), or None when nothing
    changes (a second tap). One's own membership and the last organiser's are refused. Audited."""
    _lock_team(host)
    membership = (
        Membership.objects.select_for_update().select_related("user").filter(pk=membership_id, host=host).first()
    )
    if membership is None or membership.role == role:
        return None
    _check_change(host, membership, role, changed_by)
    name = membership.user.get_username()
    before = {"user": name, "role": membership.role}
    if role == REMOVE:
        membership.delete()
        log_change(None, changed_by, "team_member_removed", before=before, reason=reason, host=host)
    else:
        membership.role = role
        membership.save(update_fields=["role"])
        log_change(
            None,
            changed_by,
            "team_role_changed",
            before=before,
            after={"user": name, "role": role},
            reason=reason,
            host=host,
        )
    undo = signing.dumps(
        {"host": host.pk, "user": membership.user_id, "name": name, "role": before["role"]}, salt=TEAM_UNDO_SALT
    )
    return name, undo


def undone_change(host: Any, undo: str) -> dict[str, Any] | None:
    """What a change's signed note says (user, name, role before), while it can still be undone."""
    try:
        note = signing.loads(undo, salt=TEAM_UNDO_SALT, max_age=datetime.timedelta(hours=TEAM_UNDO_HOURS))
    except signing.BadSignature:  # forged, or older than TEAM_UNDO_HOURS
        return None
    if not isinstance(note, dict) or note.get("host") != host.pk or note.get("role") not in RANK:
        return None
    return note


@transaction.atomic
def restore_member(host: Any, *, undo: str, restored_by: Any) -> str | None:
    """Undo a change: the same account holds the role it had before in the team again; returns its
    name, or None when it holds that role already (a second tap). It passes the checks of the
    change it undoes (`_check_change`). Audited."""
    _lock_team(host)
    note = undone_change(host, undo)
    user = None if note is None else get_user_model().objects.filter(pk=note["user"], is_active=True).first()
    if user is None:
        raise Refused("staff_undo_expired")
    membership = Membership.objects.select_for_update().filter(user=user, host=host).first()
    if membership is not None and membership.role == note["role"]:
        return None
    if membership is not None:
        _check_change(host, membership, note["role"], restored_by)
    elif user.pk == restored_by.pk:
        raise Refused("team_not_yourself")
    Membership.objects.update_or_create(user=user, host=host, defaults={"role": note["role"]})
    log_change(
        None, restored_by, "team_member_restored", after={"user": user.get_username(), "role": note["role"]}, host=host
    )
    return user.get_username()


def _described(invitation: Invitation) -> dict[str, Any]:
    return {
        "invitation": invitation.pk,
        "role": invitation.role,
        "tournament": invitation.tournament.slug if invitation.tournament_id else None,
        "expires": invitation.expires_at.isoformat(timespec="minutes"),
    }


@transaction.atomic
def create_invitation(
    host: Any, *, role: str, tournament: Any = None, created_by: Any, valid_days: int = INVITATION_DAYS
) -> tuple[Invitation, str]:
    """An invitation into `host`'s team with `role` (for `tournament` alone, when given: one of
    `host`'s); returns (invitation, token). The token is not stored. Audited."""
    if role not in RANK:
        raise Refused("staff_role_not_given", field="role")
    if tournament is not None and tournament.host_id != host.pk:
        raise Refused("invitation_other_organisation", field="tournament")
    token = secrets.token_urlsafe(TOKEN_BYTES)
    invitation = Invitation.objects.create(
        host=host,
        role=role,
        tournament=tournament,
        token_hash=token_hash(token),
        created_by=created_by,
        expires_at=timezone.now() + datetime.timedelta(days=valid_days),
    )
    log_change(None, created_by, "invitation_created", after=_described(invitation), host=host)
    return invitation, token


@transaction.atomic
def revoke_invitation(host: Any, *, invitation_id: int, revoked_by: Any) -> bool:
    """Revoke an invitation not accepted yet; False when there is none to revoke (a second tap)."""
    invitation = (
        Invitation.objects.filter(pk=invitation_id, host=host, revoked_at__isnull=True, accepted_at__isnull=True)
        .select_related("tournament")
        .first()
    )
    if invitation is None:
        return False
    Invitation.objects.filter(pk=invitation.pk).update(revoked_at=timezone.now())
    log_change(None, revoked_by, "invitation_revoked", before=_described(invitation), host=host)
    return True


def _is_tablet(user: Any) -> bool:
    """A tablet's own account (a device link's) holds its one tournament's role and nothing more."""
    return DeviceLink.objects.filter(user=user).exists()


def _stronger(held: str | None, offered: str) -> str:
    return offered if held is None or RANK[Role(offered)] > RANK[Role(held)] else held


@transaction.atomic
def accept_invitation(token: str, *, user: Any) -> Invitation:
    """`user` takes the invitation of `token`: a compare-and-swap on `accepted_at`, so of two taps
    one wins; Refused (`invitation_unusable`) when it is expired, revoked or used. Audited."""
    invitation = invitation_by_token(token)
    now = timezone.now()
    if invitation is None or not invitation.is_usable(now) or not user.is_active or _is_tablet(user):
        raise Refused("invitation_unusable")
    if not invitation_stands(invitation):
        raise Refused("invitation_unusable")
    if not Invitation.objects.filter(pk=invitation.pk, accepted_at__isnull=True).update(
        accepted_at=now, accepted_by=user
    ):
        raise Refused("invitation_unusable")
    if invitation.tournament_id:
        held = TournamentRole.objects.filter(user=user, tournament_id=invitation.tournament_id).first()
        TournamentRole.objects.update_or_create(
            user=user,
            tournament_id=invitation.tournament_id,
            defaults={"role": _stronger(held and held.role, invitation.role)},
        )
    else:
        held = Membership.objects.filter(user=user, host=invitation.host).first()
        Membership.objects.update_or_create(
            user=user, host=invitation.host, defaults={"role": _stronger(held and held.role, invitation.role)}
        )
    log_change(
        None,
        user,
        "invitation_accepted",
        after={**_described(invitation), "user": user.get_username()},
        host=invitation.host,
    )
    return invitation


@transaction.atomic
def accept_with_new_account(token: str, *, username: str, password: str) -> Any:
    """A new account (user name and password) that takes the invitation of `token`; returns the
    user. Nothing is made when the invitation cannot be used or the name is taken."""
    invitation = invitation_by_token(token)
    if invitation is None or not invitation.is_usable(timezone.now()) or not invitation_stands(invitation):
        raise Refused("invitation_unusable")
    if get_user_model().objects.filter(username__iexact=username).exists():
        raise Refused("username_taken", field="username")
    user = _new_account(username=username, password=password)
    accept_invitation(token, user=user)
    return user

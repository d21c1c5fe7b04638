"""What the staff pages read of the accounts: tablet sign-in links (by token or by tournament)
the tournaments a staff member was granted, and a tournament's staff."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db.models import Exists, OuterRef, QuerySet, Subquery
from django.http import Http404
from django.utils import timezone

from accounts.devices import token_hash
from accounts.models import DeviceLink, Role, TournamentRole
from tournament.models import Tournament

MAX_TOKEN_LENGTH = 200


def find_link(token: str) -> DeviceLink | None:
    """The link of a token (whatever its state), with its tournament and user, or None."""
    if not token or len(token) > MAX_TOKEN_LENGTH:
        return None
    return DeviceLink.objects.select_related("tournament", "user").filter(token_hash=token_hash(token)).first()


def usable_link(token: str) -> DeviceLink | None:
    """The link a token opens, or None when it is unknown, revoked, expired or already used."""
    link = find_link(token)
    if link is None or not link.is_usable(timezone.now()) or not link.user.is_active:
        return None
    return link


def active_links(tournament: Tournament) -> QuerySet[DeviceLink]:
    """The tournament's links that still sign a tablet in (neither revoked nor expired)."""
    return DeviceLink.objects.filter(tournament=tournament, revoked_at__isnull=True, expires_at__gt=timezone.now())


def active_link_count(tournament: Tournament) -> int:
    return active_links(tournament).count()


def tournament_links(tournament: Tournament) -> list[DeviceLink]:
    """Every link of the tournament, the newest first, with who made it."""
    return list(DeviceLink.objects.filter(tournament=tournament).select_related("created_by"))


def link_or_404(tournament: Tournament, pk: int) -> DeviceLink:
    """One of the tournament's links, with its tablet's user."""
    try:
        link = DeviceLink.objects.select_related("user").get(tournament=tournament, pk=pk)
    except DeviceLink.DoesNotExist:
        raise Http404("no such link") from None
    link.tournament = tournament
    return link


def granted_tournaments(user: User) -> list[Tournament]:
    """The tournaments a user holds a role in (for users without a role everywhere)."""
    return [grant.tournament for grant in TournamentRole.objects.filter(user=user).select_related("tournament")]


def organiser_grants(user: User) -> list[Tournament]:
    """The tournaments a user was made an organiser of, one by one (by date, newest first)."""
    grants = TournamentRole.objects.filter(user=user, role=Role.ORGANISER).select_related("tournament")
    return [grant.tournament for grant in grants.order_by("-tournament__date", "tournament__name")]


def staff_grants(tournament: Any) -> list[TournamentRole]:
    """The people who hold a role for this tournament (tablets' own accounts are on the tablets page)."""
    return list(
        TournamentRole.objects.filter(tournament=tournament, user__device_link__isnull=True)
        .select_related("user").order_by("role", "user__username")
    )


def granted_roles(user: User) -> set[str]:
    """The roles a user was granted for any tournament."""
    return set(TournamentRole.objects.filter(user=user).values_list("role", flat=True))


def tournament_and_grants(slug: str, user: User) -> Tournament:
    """The tournament of `slug` (404 if none), read in the same query as what `user` holds: its
    `granted` role for this tournament (or None) and, for each role, whether a group gives it
    everywhere (`in_<role>`)."""
    grants = TournamentRole.objects.filter(user=user.pk, tournament=OuterRef("pk")).order_by("pk").values("role")[:1]
    member = User.groups.through.objects.filter(user=user.pk)
    groups = {f"in_{role}": Exists(member.filter(group__name=role)) for role in Role}
    tournament = Tournament.objects.filter(slug=slug).annotate(granted=Subquery(grants), **groups).first()
    if tournament is None:
        raise Http404("no such tournament")
    return tournament

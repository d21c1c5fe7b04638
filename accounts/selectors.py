"""What the staff pages read of the accounts: tablet sign-in links (by token or by tournament),
what a staff member holds (memberships of host organisations, grants for tournaments) and the
tournaments that opens to them, and a tournament's staff."""

from __future__ import annotations

import functools
from typing import Any

from django.contrib.auth.models import User
from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.http import Http404
from django.utils import timezone

from accounts.devices import token_hash
from accounts.models import DeviceLink, Membership, Role, TournamentRole
from tournament.models import HostOrganisation, Tournament

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


def tournaments_of(user: User) -> list[Tournament]:
    """The tournaments a user may open, the newest first: every one of the host organisations they
    are a member of, and those they hold a grant for; a superuser's, every tournament."""
    tournaments = Tournament.objects.select_related("host")
    if not user.is_superuser:
        mine = Q(host__memberships__user=user.pk) | Q(staff_roles__user=user.pk)
        tournaments = tournaments.filter(pk__in=Tournament.objects.filter(mine).values("pk"))
    return list(tournaments)


def organised_tournaments(user: User) -> list[Tournament]:
    """The tournaments a user organises: those of the host organisations where they are an
    organiser, and those they were made an organiser of (a superuser: every one)."""
    tournaments = Tournament.objects.select_related("host")
    if not user.is_superuser:
        mine = Q(host__in=organiser_host_ids(user)) | Q(staff_roles__user=user.pk, staff_roles__role=Role.ORGANISER)
        tournaments = tournaments.filter(pk__in=Tournament.objects.filter(mine).values("pk"))
    return list(tournaments)


def organiser_host_ids(user: User) -> list[int]:
    """The host organisations in whose team `user` is an organiser."""
    return list(Membership.objects.filter(user=user.pk, role=Role.ORGANISER).values_list("host", flat=True))


def organised_hosts(user: User) -> list[HostOrganisation]:
    """The host organisations whose tournaments `user` may create (a superuser: every one)."""
    hosts = HostOrganisation.objects.all()
    return list(hosts if user.is_superuser else hosts.filter(pk__in=organiser_host_ids(user)))


def held_roles(user: User) -> tuple[dict[int, str], set[str]]:
    """What `user` holds: their membership roles by host organisation, and their grants' roles."""
    members = dict(Membership.objects.filter(user=user.pk).values_list("host", "role"))
    return members, set(TournamentRole.objects.filter(user=user.pk).values_list("role", flat=True))


def grant_for(user: User, tournament: Tournament) -> str | None:
    """The role `user` was granted for this one tournament, or None."""
    return TournamentRole.objects.filter(user=user.pk, tournament=tournament).values_list("role", flat=True).first()


def staff_grants(tournament: Any) -> list[TournamentRole]:
    """The people who hold a role for this tournament (tablets' own accounts are on the tablets page)."""
    return list(
        TournamentRole.objects.filter(tournament=tournament, user__device_link__isnull=True)
        .select_related("user").order_by("role", "user__username")
    )


def tournament_and_grants(slug: str, user: User) -> Tournament:
    """The tournament of `slug` (404 if none), read in the same query as what `user` holds for it:
    its `granted` role for this tournament and its `member_role` in the tournament's host
    organisation (each None when there is none).

    Every staff request asks it: the query is built by the ORM once per database
    (`_tournament_and_grants_sql`), which took longer than running it."""
    sql, marks = _tournament_and_grants_sql(Tournament.objects.db)
    values = {SLUG_MARK: slug, USER_MARK: user.pk}
    tournament = next(iter(Tournament.objects.raw(sql, [values[mark] for mark in marks])), None)
    if tournament is None:
        raise Http404("no such tournament")
    return tournament


SLUG_MARK, USER_MARK = "\x00slug", -424242  # stand for the slug and the user in the query built once


@functools.cache
def _tournament_and_grants_sql(alias: str) -> tuple[str, tuple[Any, ...]]:
    """The SQL of `tournament_and_grants` for database `alias` and, in order, what each of its
    parameters stands for (SLUG_MARK or USER_MARK)."""
    grants = TournamentRole.objects.filter(user=USER_MARK, tournament=OuterRef("pk")).values("role")[:1]
    member = Membership.objects.filter(user=USER_MARK, host=OuterRef("host")).values("role")[:1]
    query = Tournament.objects.filter(slug=SLUG_MARK).annotate(granted=Subquery(grants), member_role=Subquery(member))
    sql, params = query.order_by("pk")[:1].query.get_compiler(using=alias).as_sql()
    if set(params) - {SLUG_MARK, USER_MARK}:
        raise ValueError(f"a parameter of the tournament's query is not marked: {params}")
    return sql, tuple(params)

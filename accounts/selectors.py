"""What the staff pages read of the accounts: tablet sign-in links (by token or by tournament),
what a staff member holds (memberships of host organisations, grants for tournaments) and the
tournaments that opens to them, and a tournament's staff."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet, Value
from django.db.models.functions import Concat, Lower
from django.http import Http404
from django.utils import timezone

from accounts.devices import token_hash
from accounts.models import DeviceLink, Invitation, Membership, Role, TournamentRole
from tournament.listing import (
    PAGE_SIZE,
    ListPage,
    counted,
    host_page,
    in_listing_order,
    newest_first_page,
    page_of,
    tournament_page,
)
from tournament.models import AuditEntry, HostOrganisation, Season, Tournament
from tournament.text import match_key

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


def _open_to(user: User, *, organiser: bool) -> QuerySet[Tournament]:
    """The tournaments of the host organisations where `user` is a member (an organiser, when
    `organiser`) and those they hold a grant for (the same); a superuser's, every tournament.

    The organisations' ids and the granted tournaments' ids are read first (two small indexed
    queries), so the tournaments are read by host or by id through the indexes: never a filter
    over every tournament of the service."""
    if user.is_superuser:
        return Tournament.objects.all()
    memberships = Membership.objects.filter(user=user.pk)
    grants = TournamentRole.objects.filter(user=user.pk)
    if organiser:
        memberships, grants = memberships.filter(role=Role.ORGANISER), grants.filter(role=Role.ORGANISER)
    hosts = list(memberships.values_list("host", flat=True))
    granted = list(grants.values_list("tournament", flat=True))
    return Tournament.objects.filter(Q(host__in=hosts) | Q(pk__in=granted))


def tournaments_of(user: User, *, search: str = "", number: Any = 1) -> ListPage:
    """A page of the tournaments a user may open (upcoming first, then the most recent), searched:
    every one of the host organisations they are a member of, and those they hold a grant for; a
    superuser's, every tournament."""
    return tournament_page(_open_to(user, organiser=False), search=search, number=number)


def organised_tournaments(user: User, *, search: str = "", number: Any = 1) -> ListPage:
    """A page of the tournaments a user organises: those of the host organisations where they are
    an organiser, and those they were made an organiser of (a superuser: every one)."""
    return tournament_page(_open_to(user, organiser=True), search=search, number=number)


def organiser_host_ids(user: User) -> list[int]:
    """The host organisations in whose team `user` is an organiser."""
    return list(Membership.objects.filter(user=user.pk, role=Role.ORGANISER).values_list("host", flat=True))


def _organised_hosts(user: User) -> QuerySet[HostOrganisation]:
    """The host organisations `user` organises: whose tournaments they may create and whose team
    they may open (a superuser: every one)."""
    hosts = HostOrganisation.objects.all()
    return hosts if user.is_superuser else hosts.filter(pk__in=organiser_host_ids(user))


HOSTS_LISTED = 12  # a form offers at most this many organisations in a list; more: typed by address or name


def hosts_to_offer(user: User) -> list[HostOrganisation]:
    """The host organisations whose tournaments `user` may create, by name, at most HOSTS_LISTED + 1
    of them: one more than HOSTS_LISTED says there are too many to list (a superuser on a service
    of many), and the forms ask for the organisation's address or name instead
    (`organised_hosts_named`)."""
    return list(_organised_hosts(user).order_by("name", "pk")[: HOSTS_LISTED + 1])


def organised_hosts_named(user: User, text: str) -> list[HostOrganisation]:
    """The host organisation whose short address is `text` (or a link ending with it) when `user`
    may create its tournaments (a superuser: any); else those whose name is `text` (case, spacing
    and Polish diacritics ignored), at most two: two say the name is not enough."""
    hosts = _organised_hosts(user)
    address = text.strip().rstrip("/").rsplit("/", 1)[-1].lower()
    by_address = list(hosts.filter(slug=address)[:1]) if address else []
    if by_address or not match_key(text):
        return by_address
    return list(hosts.filter(search_key=Concat(Value(f"{match_key(text)} "), Lower("slug"))).order_by("pk")[:2])


def own_organised_hosts(user: User) -> list[HostOrganisation]:
    """The host organisations in whose team `user` is an organiser, a superuser too (the lists'
    team buttons: a superuser reaches every other one from the operator's page)."""
    return list(HostOrganisation.objects.filter(pk__in=organiser_host_ids(user)))


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
        .select_related("user")
        .order_by("role", "user__username")
    )


def tournament_and_grants(slug: str, user: User) -> Tournament:
    """The tournament of `slug` (404 if none), read in the same query as what `user` holds for it:
    its `granted` role for this tournament and its `member_role` in the tournament's host
    organisation (each None when there is none), and that organisation's name and address.

    Every staff request asks it, so it is one plain SQL query (`TOURNAMENT_AND_GRANTS`): the ORM
    took longer to build it than the database to run it."""
    query = TOURNAMENT_AND_GRANTS.format(
        tournament=Tournament._meta.db_table,
        host=HostOrganisation._meta.db_table,
        grant=TournamentRole._meta.db_table,
        member=Membership._meta.db_table,
    )
    tournament: Any = next(iter(Tournament.objects.raw(query, [user.pk, user.pk, slug])), None)
    if tournament is None:
        raise Http404("no such tournament")
    tournament.host = HostOrganisation(pk=tournament.host_id, name=tournament.host_name, slug=tournament.host_slug)
    return tournament


TOURNAMENT_AND_GRANTS = """
    SELECT t.*, h.name AS host_name, h.slug AS host_slug,
        (SELECT g.role FROM {grant} g WHERE g.user_id = %s AND g.tournament_id = t.id) AS granted,
        (SELECT m.role FROM {member} m WHERE m.user_id = %s AND m.host_id = t.host_id) AS member_role
    FROM {tournament} t JOIN {host} h ON h.id = t.host_id WHERE t.slug = %s
"""


def invitation_by_token(token: str) -> Invitation | None:
    """The invitation of a link's token, whatever its state (the page says why it cannot be used)."""
    found = Invitation.objects.select_related("host", "tournament", "created_by").filter(token_hash=token_hash(token))
    return found.first()


def _stands(invitation: Invitation, maker_role: str | None) -> bool:
    """An invitation stands while its maker still holds the role making one needs (organiser in
    the team) and a role no lower than the one it gives."""
    return (
        maker_role is not None
        and RANK_ORDER[Role(maker_role)] >= RANK_ORDER[Role.ORGANISER]
        and RANK_ORDER[Role(maker_role)] >= RANK_ORDER[Role(invitation.role)]
    )


def _maker_roles(host_id: int, makers: list[Any]) -> dict[int, str]:
    """The current team role of each active maker (a superuser: organiser), by user id."""
    active = [maker for maker in makers if maker is not None and maker.is_active]
    roles = dict(
        Membership.objects.filter(host=host_id, user__in=[maker.pk for maker in active]).values_list("user", "role")
    )
    roles.update({maker.pk: Role.ORGANISER.value for maker in active if maker.is_superuser})
    return roles


def invitation_stands(invitation: Invitation) -> bool:
    """Whether its maker still backs the invitation (`_stands`): one whose maker was removed from
    the team or demoted stops working."""
    roles = _maker_roles(invitation.host_id, [invitation.created_by])
    return _stands(invitation, roles.get(invitation.created_by_id or 0))


def organised_host_or_404(user: User, slug: str) -> HostOrganisation:
    """The host organisation of `slug` when `user` is an organiser in its team (a superuser: any);
    else 404, which says nothing of whether it exists."""
    host = HostOrganisation.objects.filter(slug=slug).first()
    if host is None or not (user.is_superuser or host.pk in organiser_host_ids(user)):
        raise Http404("no such organisation")
    return host


def team_members(host: HostOrganisation) -> list[Membership]:
    """The people in `host`'s team with their roles, organisers first, by user name."""
    members = Membership.objects.filter(host=host).select_related("user")
    return sorted(members, key=lambda member: (-RANK_ORDER[Role(member.role)], member.user.get_username().lower()))


def chosen_grants(host: HostOrganisation) -> list[TournamentRole]:
    """The roles held for one of `host`'s tournaments alone (tablets' accounts left out)."""
    return list(
        TournamentRole.objects.filter(tournament__host=host, user__device_link__isnull=True)
        .select_related("user", "tournament")
        .order_by("tournament__name", "user__username")
    )


def open_invitations(host: HostOrganisation) -> list[Invitation]:
    """`host`'s invitations still waiting to be accepted (neither revoked, nor expired, nor used),
    each with `stands`: False when its maker no longer backs it (`invitation_stands`)."""
    invitations = list(
        Invitation.objects.filter(
            host=host, revoked_at__isnull=True, accepted_at__isnull=True, expires_at__gt=timezone.now()
        ).select_related("tournament", "created_by")
    )
    roles = _maker_roles(host.pk, [invitation.created_by for invitation in invitations])
    for invitation in invitations:
        invitation.stands = _stands(invitation, roles.get(invitation.created_by_id or 0))  # type: ignore[attr-defined]
    return invitations


def host_tournament_or_none(host: HostOrganisation, pk: Any) -> Tournament | None:
    return Tournament.objects.filter(host=host, pk=pk).first()


def host_tournaments(host: HostOrganisation) -> list[Tournament]:
    """The tournaments of `host` an invitation may be for: the upcoming ones (the nearest first),
    then the most recent, at most a list's page (PAGE_SIZE) however many the organisation ran."""
    return list(in_listing_order(Tournament.objects.filter(host=host))[:PAGE_SIZE])


def season_tournament_page(host: HostOrganisation, *, search: str = "", number: Any = 1) -> ListPage:
    """A page of `host`'s tournaments a season may gather, the newest first, searched."""
    return newest_first_page(Tournament.objects.filter(host=host), search=search, number=number)


def season_tournaments_chosen(host: HostOrganisation, slugs: list[str]) -> list[Tournament]:
    """Those of `slugs` that are `host`'s tournaments, the newest first (a form's choices kept)."""
    return list(Tournament.objects.filter(host=host, slug__in=slugs).order_by("-date", "name", "pk"))


def hosts_page(*, search: str = "", number: Any = 1) -> ListPage:
    """A page of the host organisations (the operator's), by name, searched, each with how many
    people its team has (`members`, counted for the page's organisations only)."""
    page = host_page(HostOrganisation.objects.all(), search=search, number=number)
    counted(page.object_list, Membership.objects.all(), "host", "members")
    return page


RANK_ORDER = {Role.REFEREE: 1, Role.HEAD_REFEREE: 2, Role.ORGANISER: 3}


def team_log(host: HostOrganisation, count: int = 20) -> list[AuditEntry]:
    """The latest audit entries of `host`'s own (its team, its invitations), the newest first."""
    return list(AuditEntry.objects.filter(host=host, tournament__isnull=True).order_by("-created_at", "-pk")[:count])


def organised_seasons(user: User, *, number: Any = 1) -> ListPage:
    """A page of the seasons of the host organisations where `user` is an organiser (a superuser:
    every one), by organisation, the newest first."""
    seasons = Season.objects.select_related("host").order_by("host__name", "host", "-created_at", "name", "pk")
    return page_of(seasons if user.is_superuser else seasons.filter(host__in=organiser_host_ids(user)), number)


def team_hosts_page(user: User, *, search: str = "", number: Any = 1) -> ListPage:
    """A page of the host organisations whose team `user` may open (a superuser: every one), searched."""
    return host_page(_organised_hosts(user), search=search, number=number)


def organised_season_or_404(user: User, slug: str) -> Season:
    """The season of `slug` when `user` organises its organisation (a superuser: any); else 404,
    which says nothing of whether it exists."""
    season = Season.objects.select_related("host").filter(slug=slug).first()
    if season is None or not (user.is_superuser or season.host_id in organiser_host_ids(user)):
        raise Http404("no such season")
    return season


def season_log(season: Season, count: int = 20) -> list[AuditEntry]:
    """The season's own audit entries (made and changed), the newest first."""
    entries = AuditEntry.objects.filter(host=season.host_id, tournament__isnull=True, after__season=season.pk)
    return list(entries.order_by("-created_at", "-pk")[:count])

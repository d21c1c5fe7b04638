"""Who may do what: organiser > head referee > referee (SPEC §6).

A user's role for a tournament is the stronger of two: the role their membership of the
tournament's host organisation gives for all its tournaments, and a `TournamentRole` for that
tournament alone. Superusers (the people who run the service) are organisers everywhere. A
tournament of an organisation the user holds nothing in answers 404, never its data.
"""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404

from accounts.models import Role
from accounts.selectors import grant_for, held_roles, organiser_host_ids, tournament_and_grants

RANK = {Role.REFEREE: 1, Role.HEAD_REFEREE: 2, Role.ORGANISER: 3}


def _held(user):
    """(the roles of the user's memberships by host organisation, the roles of their grants),
    read once per request and kept on the user."""
    if not hasattr(user, "_held_roles"):
        user._held_roles = held_roles(user)
    return user._held_roles


def best_role(user):
    """The strongest role `user` holds anywhere (a membership or a grant), or None."""
    if not user.is_authenticated or not user.is_active:
        return None
    if user.is_superuser:
        return Role.ORGANISER
    members, grants = _held(user)
    return strongest([*members.values(), *grants])


def role_for(user, tournament):
    """The strongest role `user` holds for `tournament`, or None."""
    if not user.is_authenticated or not user.is_active or tournament is None:
        return None
    if user.is_superuser:
        return Role.ORGANISER
    members, _grants = _held(user)
    return strongest([members.get(tournament.host_id), grant_for(user, tournament)])


def strongest(roles):
    """The strongest of some roles or role names (None among them is no role), or None."""
    held = [Role(role) for role in roles if role]
    return max(held, key=RANK.get) if held else None


def staff_role(user, slug):
    """The tournament of `slug` and the strongest role `user` holds for it, read in one query;
    404 when the tournament is missing or belongs to an organisation the user holds nothing in."""
    tournament = tournament_and_grants(slug, user)
    if not user.is_active:
        return tournament, None
    if user.is_superuser:
        return tournament, Role.ORGANISER
    role = strongest([tournament.member_role, tournament.granted])
    if role is None:
        raise Http404("no such tournament")
    return tournament, role


def has_role(user, tournament, minimum):
    return outranks(role_for(user, tournament), minimum)


def outranks(role, minimum):
    """Whether `role` (None: no role) is `minimum` or stronger, e.g. `request.role` on a staff page."""
    return role is not None and RANK[role] >= RANK[Role(minimum)]


def is_staff_anywhere(user):
    return best_role(user) is not None


def is_organiser_anywhere(user):
    """An organiser of a host organisation or of at least one tournament."""
    return best_role(user) == Role.ORGANISER


def organises_a_host(user):
    """Whether `user` may create tournaments: an organiser in a host organisation's team."""
    return user.is_authenticated and user.is_active and (user.is_superuser or bool(organiser_host_ids(user)))


def member_role(user, tournament):
    """The role `user`'s membership of `tournament`'s host organisation gives (a superuser: organiser);
    a role for this one tournament alone does not count. `tournament` comes from `staff_role`."""
    if user.is_superuser:
        return Role.ORGANISER
    return strongest([getattr(tournament, "member_role", None)])


def staff_required(minimum, *, member=False):
    """View decorator for `/<slug>/…` staff pages.

    Anonymous visitors go to the login page; signed-in users without the role get 403.
    The view receives the tournament instead of the slug, and `request.role` is set, and
    `request.organisation_role`: the role held in the organisation's team (None for a role given
    for this one tournament alone). With `member`, the role must be the team's: the organisation's
    own pages (its people, merges) are not a one-tournament role's (SPEC §10).
    """

    def decorator(view):
        @wraps(view)
        def wrapper(request, slug, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            tournament, role = staff_role(request.user, slug)
            if role is None or RANK[role] < RANK[Role(minimum)]:
                raise PermissionDenied
            request.organisation_role = member_role(request.user, tournament)
            if member and not outranks(request.organisation_role, minimum):
                raise PermissionDenied
            request.role = role
            request.tournament = tournament
            return view(request, tournament, *args, **kwargs)

        return wrapper

    return decorator

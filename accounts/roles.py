"""Who may do what: organiser > head referee > referee (SPEC §6).

A user's role comes from a Django group of the same name (valid for every tournament) or
from a `TournamentRole` for one tournament; superusers are organisers everywhere.
"""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied

from accounts.models import Role, TournamentRole
from accounts.selectors import tournament_and_grants

RANK = {Role.REFEREE: 1, Role.HEAD_REFEREE: 2, Role.ORGANISER: 3}
GROUP_NAMES = {role.value for role in Role}


def global_role(user):
    """The strongest role a user holds through groups, or None."""
    if not user.is_authenticated or not user.is_active:
        return None
    if user.is_superuser:
        return Role.ORGANISER
    cached = getattr(user, "_global_role_cache", False)
    if cached is not False:
        return cached
    names = set(user.groups.filter(name__in=GROUP_NAMES).values_list("name", flat=True))
    roles = [Role(name) for name in names]
    best = max(roles, key=RANK.get) if roles else None
    user._global_role_cache = best
    return best


def role_for(user, tournament):
    """The strongest role `user` holds for `tournament`, or None."""
    best = global_role(user)
    if user.is_authenticated and tournament is not None:
        grant = TournamentRole.objects.filter(user=user, tournament=tournament).values_list("role", flat=True).first()
        best = stronger(best, grant)
    return best


def stronger(best, grant):
    """The stronger of a role and a granted role's name (either may be None)."""
    if grant and (best is None or RANK[Role(grant)] > RANK[best]):
        return Role(grant)
    return best


def staff_role(user, slug):
    """The tournament of `slug` (404 if none) and the strongest role `user` holds for it, read with
    the user's groups in one query (the groups are kept on the user for `global_role`)."""
    tournament = tournament_and_grants(slug, user)
    if not user.is_active:
        return tournament, None
    if user.is_superuser:
        return tournament, Role.ORGANISER
    held = [role for role in Role if getattr(tournament, f"in_{role}")]
    user._global_role_cache = max(held, key=RANK.get) if held else None
    return tournament, stronger(user._global_role_cache, tournament.granted)


def has_role(user, tournament, minimum):
    return outranks(role_for(user, tournament), minimum)


def outranks(role, minimum):
    """Whether `role` (None: no role) is `minimum` or stronger, e.g. `request.role` on a staff page."""
    return role is not None and RANK[role] >= RANK[Role(minimum)]


def is_staff_anywhere(user):
    return global_role(user) is not None or (
        user.is_authenticated and TournamentRole.objects.filter(user=user).exists()
    )


def is_organiser_anywhere(user):
    """An organiser of the whole server or of at least one tournament."""
    return global_role(user) == Role.ORGANISER or (
        user.is_authenticated and TournamentRole.objects.filter(user=user, role=Role.ORGANISER).exists()
    )


def staff_required(minimum):
    """View decorator for `/<slug>/…` staff pages.

    Anonymous visitors go to the login page; signed-in users without the role get 403.
    The view receives the tournament instead of the slug, and `request.role` is set.
    """

    def decorator(view):
        @wraps(view)
        def wrapper(request, slug, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            tournament, role = staff_role(request.user, slug)
            if role is None or RANK[role] < RANK[Role(minimum)]:
                raise PermissionDenied
            request.role = role
            request.tournament = tournament
            return view(request, tournament, *args, **kwargs)

        return wrapper

    return decorator

"""Template context: the signed-in user's role for the current tournament, and their help page."""

from accounts.help import help_url
from accounts.models import Role


def roles(request):
    role = getattr(request, "role", None)
    return {
        "staff_role": role,
        "is_organiser": role == Role.ORGANISER,
        "is_head_referee": role in (Role.HEAD_REFEREE, Role.ORGANISER),
        # An organiser in the organisation's team (not of this one tournament alone): its people pages.
        "organises_organisation": getattr(request, "organisation_role", None) == Role.ORGANISER,
        # A function: the template calls it only where the header shows the help link.
        "help_url": lambda: help_url(request),
    }

"""Template context: the signed-in user's role for the current tournament."""

from accounts.models import Role


def roles(request):
    role = getattr(request, "role", None)
    return {
        "staff_role": role,
        "is_organiser": role == Role.ORGANISER,
        "is_head_referee": role in (Role.HEAD_REFEREE, Role.ORGANISER),
    }

"""Who may open the referee pages, and loading a table with its seats and score sheet."""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django_htmx.http import HttpResponseClientRedirect

from accounts.models import Role
from accounts.roles import RANK, staff_required
from scoring.selectors import sheets as selectors
from scoring.services import sheets as services
from tournament.navigation import htmx_page


def referee_view(minimum=Role.REFEREE):
    """`staff_required`, and a signed-out tablet's htmx request is sent to the login page.

    (A plain redirect would swap the login page into the score sheet.)
    """

    def decorator(view):
        guarded = staff_required(minimum)(view)

        @wraps(view)
        def wrapper(request, slug, *args, **kwargs):
            if request.htmx and not request.user.is_authenticated:
                return HttpResponseClientRedirect(redirect_to_login(htmx_page(request, request.path)).url)
            return guarded(request, slug, *args, **kwargs)

        return wrapper

    return decorator


def is_head(request):
    return RANK[request.role] >= RANK[Role.HEAD_REFEREE]


def load_table(tournament, round_number, table_number):
    """A table of a round that is not a draft, with its seats, players and score sheet (404 if none)."""
    table = selectors.sheet_table(tournament, round_number=round_number, table_number=table_number)
    if table is None:
        raise Http404
    sheet = selectors.sheet_of(table) or services.ensure_sheet(table)
    sheet.table = table
    return table, sheet

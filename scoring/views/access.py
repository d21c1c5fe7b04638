"""Who may open the referee pages, and loading a table with its seats and score sheet."""

from functools import wraps

from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django_htmx.http import HttpResponseClientRedirect

from accounts.models import Role
from accounts.roles import RANK, staff_required
from scoring import services
from tournament.models import Round, Seat, Table


def referee_view(minimum=Role.REFEREE):
    """`staff_required`, and a signed-out tablet's htmx request is sent to the login page.

    (A plain redirect would swap the login page into the score sheet.)
    """

    def decorator(view):
        guarded = staff_required(minimum)(view)

        @wraps(view)
        def wrapper(request, slug, *args, **kwargs):
            if request.htmx and not request.user.is_authenticated:
                back = request.htmx.current_url_abs_path or request.path
                return HttpResponseClientRedirect(f"{reverse('accounts:login')}?next={back}")
            return guarded(request, slug, *args, **kwargs)

        return wrapper

    return decorator


def is_head(request):
    return RANK[request.role] >= RANK[Role.HEAD_REFEREE]


def seats_prefetch():
    return Prefetch("seats", Seat.objects.select_related("player").order_by("letter"))


def load_table(tournament, round_number, table_number):
    """A table of a round that is not a draft, with its seats, players and score sheet."""
    table = get_object_or_404(
        Table.objects.select_related("round").prefetch_related(seats_prefetch()),
        round__tournament=tournament, round__number=round_number, number=table_number,
    )
    if table.round.state == Round.State.DRAFT:
        raise Http404
    table.round.tournament = tournament
    sheet = services.ensure_sheet(table)
    sheet.table = table
    return table, sheet

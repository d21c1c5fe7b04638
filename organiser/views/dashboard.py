"""The organiser's start page for one tournament, and the round status it polls."""

from collections import Counter
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.shortcuts import redirect, render
from django.utils.translation import npgettext
from django_htmx.http import HttpResponseClientRedirect

from accounts.forms import DeviceSheetForm
from accounts.models import Role
from accounts.roles import outranks, staff_required
from organiser import selectors
from organiser.server_log import errors_seen_by
from organiser.views.common import with_method_labels
from scoring.models import ScoreSheet
from scoring.selectors.sheets import cards_given, round_tables
from scoring.selectors.ties import decisions_to_review
from tournament.models import Player
from tournament.navigation import htmx_page
from tournament.selectors import rounds_in_order

# How many sheets are in each state, as the dashboard counts them ("3 verified"): the words
# agree with the number (Polish: 1 zweryfikowany, 2 zweryfikowane, 5 zweryfikowanych).
SHEET_COUNT_LABELS = {
    ScoreSheet.State.EMPTY: lambda n: npgettext("score sheets counted", "empty", "empty", n),
    ScoreSheet.State.IN_PROGRESS: lambda n: npgettext("score sheets counted", "in progress", "in progress", n),
    ScoreSheet.State.SUBMITTED: lambda n: npgettext("score sheets counted", "submitted", "submitted", n),
    ScoreSheet.State.VERIFIED: lambda n: npgettext("score sheets counted", "verified", "verified", n),
}


def _dashboard_context(tournament):
    rounds = with_method_labels(rounds_in_order(tournament))
    current = rounds[-1] if rounds else None
    tables = round_tables(current) if current is not None else []
    states = Counter(table.state for table in tables)
    waiting = len(tables) - states[ScoreSheet.State.VERIFIED]
    player_counts, present_count = selectors.player_counts(tournament)
    return {
        "tournament": tournament,
        "rounds": rounds,
        "current": current,
        "tables": tables,
        "sheet_counts": [
            (state, SHEET_COUNT_LABELS[state](states[state]), states[state]) for state in ScoreSheet.State
        ],
        "waiting": waiting,
        "step": selectors.next_step(tournament, latest=current, waiting_tables=waiting),
        "next_number": (current.number + 1) if current else 1,
        "player_counts": player_counts,
        "present_count": present_count,
        "absent_count": player_counts[Player.Status.ACTIVE] - present_count,
    }


def _htmx_login(view):
    """A polling fragment whose session expired sends the whole page to the login page."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.htmx and not request.user.is_authenticated:
            return HttpResponseClientRedirect(redirect_to_login(htmx_page(request, "/staff/")).url)
        return view(request, *args, **kwargs)

    return wrapper


@staff_required(Role.REFEREE)
def dashboard(request, tournament):
    """The organiser's start page for one tournament; referees are sent to score entry."""
    if not outranks(request.role, Role.HEAD_REFEREE):
        return redirect(f"/referee/{tournament.slug}/")
    context = _dashboard_context(tournament)
    context["cards"] = cards_given(tournament, newest_first=True)
    context["ties_to_review"] = len(decisions_to_review(tournament))
    context["device_sheet_form"] = DeviceSheetForm()
    context["logged_error"] = (
        errors_seen_by(tournament, request.user) if outranks(request.organisation_role, Role.ORGANISER) else None
    )
    context["timetable"] = selectors.day_timetable(tournament, rounds=context["rounds"])
    context["final_release"] = selectors.final_release_plan(tournament, context["rounds"])
    return render(request, "organiser/dashboard.html", context)


@_htmx_login
@staff_required(Role.HEAD_REFEREE)
def dashboard_status(request, tournament):
    """The current round's tables and sheet states: the fragment the dashboard polls."""
    return render(request, "organiser/dashboard.html#round-status", _dashboard_context(tournament))

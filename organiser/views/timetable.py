"""The day's timetable: each round's planned start and length, its actual start and end, and
the tables still playing when a round's time is up. The dashboard shows it and polls it."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import Role
from accounts.roles import outranks, staff_required
from organiser import selectors, services
from organiser.forms import TimetableForm
from organiser.views.common import posted_data, redirect_after_post, staff_url


@staff_required(Role.HEAD_REFEREE)
def timetable(request, tournament):
    """The timetable (an htmx GET gets the block the dashboard polls); POST: the organiser sets it."""
    may_edit = outranks(request.role, Role.ORGANISER)
    if request.method == "POST" and not may_edit:
        raise PermissionDenied
    lines = selectors.day_timetable(tournament)
    if request.htmx and request.method == "GET":
        return render(request, "organiser/_timetable.html", {"tournament": tournament, "timetable": lines})
    form = TimetableForm(posted_data(request), lines=lines) if may_edit else None
    if request.method == "POST" and form.is_valid():
        changed = services.save_timetable(tournament, lines=form.lines(), user=request.user)
        if changed:
            messages.success(
                request,
                ngettext(
                    "The timetable has been saved: %(count)s round changed.",
                    "The timetable has been saved: %(count)s rounds changed.",
                    changed,
                )
                % {"count": changed},
            )
        else:
            messages.info(request, _("Nothing was changed in the timetable."))
        return redirect_after_post(request, staff_url("timetable", tournament))
    return render(request, "organiser/timetable.html", {"tournament": tournament, "timetable": lines, "form": form})

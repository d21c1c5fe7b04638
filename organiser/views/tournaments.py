"""The organisers' list of tournaments, creating one and its settings."""


from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import Role
from accounts.roles import global_role, staff_required
from organiser import services
from organiser.forms import TournamentForm
from organiser.views.common import posted_data, redirect_after_post, staff_url
from tournament.refusals import Refused
from tournament.selectors import all_tournaments


@login_required
def staff_home(request):
    """The organisers' list of tournaments; other staff go to their own start page."""
    if global_role(request.user) != Role.ORGANISER:
        return redirect("accounts:home")
    return render(request, "organiser/home.html", {"tournaments": all_tournaments()})


@login_required
def tournament_create(request):
    if global_role(request.user) != Role.ORGANISER:
        raise PermissionDenied
    form = TournamentForm(posted_data(request))
    if request.method == "POST" and form.is_valid():
        try:
            tournament, _rescored = services.save_tournament(form, user=request.user)
        except Refused as refusal:
            form.add_error(refusal.field, refusal.message)
        else:
            messages.success(request, _("The tournament has been created. Now add the players."))
            return redirect_after_post(request, staff_url("players", tournament))
    return render(request, "organiser/tournament_form.html", {"form": form})


@staff_required(Role.ORGANISER)
def tournament_edit(request, tournament):
    form = TournamentForm(posted_data(request), instance=tournament)
    if request.method == "POST" and form.is_valid():
        tournament, rescored = services.save_tournament(form, user=request.user)
        messages.success(request, _("The settings have been saved."))
        if rescored:
            messages.info(request, ngettext(
                "Scores were recomputed with the new settings: %(count)s result changed.",
                "Scores were recomputed with the new settings: %(count)s results changed.", rescored,
            ) % {"count": rescored})
        return redirect_after_post(request, staff_url("dashboard", tournament))
    return render(request, "organiser/tournament_form.html", {"form": form, "tournament": tournament})

"""The organisers' list of tournaments, creating one, its settings and the plan for the final's results."""

from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from accounts.models import Role
from accounts.roles import organises_a_host, staff_required
from accounts.selectors import hosts_to_offer, organised_hosts_named, organised_tournaments, own_organised_hosts
from organiser import services
from organiser.forms import FinalReleaseForm, RescoreForm, TournamentForm
from organiser.views.common import posted_data, redirect_after_post, staff_url
from tournament.listing import search_of
from tournament.models import Tournament
from tournament.refusals import Refused


@login_required
def staff_home(request):
    """The organisers' list of tournaments, a page at a time with a search; other staff go to
    their own start page."""
    if not organises_a_host(request.user):
        return redirect("accounts:home")
    search = search_of(request.GET.get("q"))
    page = organised_tournaments(request.user, search=search, number=request.GET.get("page"))
    context = {
        "page": page,
        "tournaments": page.object_list,
        "search": search,
        "hosts": own_organised_hosts(request.user),
    }
    return render(request, "organiser/home.html", context)


@login_required
def tournament_create(request):
    if not organises_a_host(request.user):
        raise PermissionDenied
    form = TournamentForm(
        posted_data(request), hosts=hosts_to_offer(request.user), find_host=partial(organised_hosts_named, request.user)
    )
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.create_tournament(form, user=request.user)
        except Refused as refusal:
            form.add_error(refusal.field, refusal.message)
        else:
            messages.success(request, _("The tournament has been created. Now add the players."))
            return redirect_after_post(request, staff_url("players", tournament))
    return render(request, "organiser/tournament_form.html", {"form": form})


@staff_required(Role.ORGANISER)
def tournament_edit(request, tournament):
    """The settings. New scoring settings that change verified results are shown first (which
    sheets, players and places) and saved only when confirmed with a reason."""
    data = posted_data(request)
    form = TournamentForm(data, instance=tournament)
    context = {"form": form, "tournament": tournament}
    if request.method == "POST" and form.is_valid():
        try:
            tournament, saved = services.save_tournament(
                form, user=request.user, confirmation=RescoreForm(data).confirmation()
            )
        except services.ResultsWouldChange as refusal:
            tournament.refresh_from_db()  # the form holds what was posted; the page shows what is stored
            context.update(plan=refusal.plan, refusal=refusal, rescore_form=RescoreForm.for_plan(refusal, data))
        except Refused as refusal:  # the final started meanwhile: its plan no longer changes
            tournament.refresh_from_db()
            form.add_error(refusal.field, refusal.message)
        else:
            settings_saved_messages(request, saved)
            return redirect_after_post(request, staff_url("dashboard", tournament))
    return render(request, "organiser/tournament_form.html", context)


FINAL_RELEASE_MESSAGES = {
    Tournament.FinalRelease.CEREMONY: gettext_lazy(
        "Planned: the final's results are hidden from the final's start until the medal ceremony reveals them."
    ),
    Tournament.FinalRelease.LIVE: gettext_lazy(
        "Planned: the final's results are live, public as soon as its score sheet is verified."
    ),
}


@require_POST
@staff_required(Role.HEAD_REFEREE)
def final_release(request, tournament):
    """The dashboard's button: change the plan for the final's results before the final starts (audited)."""
    form = FinalReleaseForm(request.POST)
    if not form.is_valid():
        messages.error(request, Refused("final_release_unknown").message)
        return redirect_after_post(request, staff_url("dashboard", tournament))
    release = form.cleaned_data["final_release"]
    try:
        services.set_final_release(tournament, release, user=request.user, reason=form.cleaned_data["reason"].strip())
    except Refused as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(request, FINAL_RELEASE_MESSAGES[release])
    return redirect_after_post(request, staff_url("dashboard", tournament))


def settings_saved_messages(request, saved):
    messages.success(request, _("The settings have been saved."))
    if saved.verified_changes:
        messages.warning(
            request,
            ngettext(
                "%(count)s result of verified sheets changed; each is in the log with your reason.",
                "%(count)s results of verified sheets changed; each is in the log with your reason.",
                saved.verified_changes,
            )
            % {"count": saved.verified_changes},
        )
        if saved.plan.ties:
            messages.warning(
                request,
                ngettext(
                    "%(count)s tie decision no longer orders a tie: the head referee must look at it again (Ties).",
                    "%(count)s tie decisions no longer order a tie: the head referee must look at them again (Ties).",
                    len(saved.plan.ties),
                )
                % {"count": len(saved.plan.ties)},
            )
    elif saved.rescored:
        messages.info(
            request,
            ngettext(
                "Scores were recomputed with the new settings: %(count)s result changed.",
                "Scores were recomputed with the new settings: %(count)s results changed.",
                saved.rescored,
            )
            % {"count": saved.rescored},
        )

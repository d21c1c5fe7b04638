"""Seasons: the organiser's list, a new season (the organisation chosen first when the user organises
several: a page at a time, with a search), its staff table (every finished tournament, public or
not), its settings changed with a reason, and its files (XLSX, CSV).

The form offers a page of the organisation's tournaments: its search and its pages are buttons of
the form itself (`show`), so the form comes back with everything typed and chosen kept, nothing saved."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from accounts.roles import organises_a_host
from accounts.selectors import (
    organised_host_or_404,
    organised_season_or_404,
    organised_seasons,
    season_log,
    team_hosts_page,
)
from organiser import services
from organiser.exports.seasons import SEASON_FILES
from organiser.season_forms import SeasonForm
from organiser.views.common import posted_data, redirect_after_post
from scoring.selectors.seasons import season_table, season_tournaments
from tournament.listing import search_of
from tournament.models import DEFAULT_SEASON_POINTS
from tournament.refusals import Refused


def season_url(season):
    return reverse("organiser:season", args=[season.slug])


def _points_text(points):
    return ", ".join(str(p) for p in points)


@require_safe
@login_required
def season_list(request):
    if not organises_a_host(request.user):
        raise PermissionDenied
    page = organised_seasons(request.user, number=request.GET.get("page"))
    return render(request, "organiser/seasons.html", {"page": page, "seasons": page.object_list})


def _host_or_choice(request):
    """The organisation of the new season (`?organisation=`, or the user's only one), else a page
    of the organisations to choose from, searched."""
    slug = request.GET.get("organisation")
    if slug:
        return organised_host_or_404(request.user, slug), None
    search = search_of(request.GET.get("q"))
    page = team_hosts_page(request.user, search=search, number=request.GET.get("page"))
    if page.sole() and not search:
        return page.sole(), None
    return None, {"page": page, "hosts": page.object_list, "search": search}


def _season_form(request, host, *, initial, editing=False):
    """The form and whether it was sent to be saved; a search or another page of its tournaments
    (`show`: a page number, or `all` to drop the search) shows it again with what was sent kept."""
    if request.method == "POST" and "show" in request.POST:
        show = request.POST["show"]
        shown = {"search": "" if show == "all" else request.POST.get("q"), "number": show}
        return SeasonForm(host=host, editing=editing, initial=SeasonForm.kept_from(request.POST), **shown), False
    return SeasonForm(posted_data(request), host=host, editing=editing, initial=initial), request.method == "POST"


@login_required
def season_create(request):
    if not organises_a_host(request.user):
        raise PermissionDenied
    host, choice = _host_or_choice(request)
    if host is None:
        return render(request, "organiser/season_host_choice.html", choice)
    form, sent = _season_form(request, host, initial={"place_points": _points_text(DEFAULT_SEASON_POINTS)})
    if sent and form.is_valid():
        try:
            season = services.create_season(host, form.season_data(), user=request.user)
        except Refused as refusal:
            form.add_error(refusal.field, refusal.message)
        else:
            messages.success(request, _("The season has been created."))
            return redirect_after_post(request, season_url(season))
    chosen = "organisation" in request.GET
    return render(request, "organiser/season_form.html", {"form": form, "host": host, "host_chosen": chosen})


@require_safe
@login_required
def season_detail(request, season):
    season = organised_season_or_404(request.user, season)
    context = {"season": season, "table": season_table(season, public=False), "log": season_log(season)}
    return render(request, "organiser/season.html", context)


@login_required
def season_edit(request, season):
    season = organised_season_or_404(request.user, season)
    initial = {
        "name": season.name,
        "slug": season.slug,
        "tournaments": [t.slug for t in season_tournaments(season)],
        "place_points": _points_text(season.place_points),
        "best_count": season.best_count,
    }
    form, sent = _season_form(request, season.host, initial=initial, editing=True)
    if sent and form.is_valid():
        try:
            season = services.edit_season(
                season, form.season_data(), reason=form.cleaned_data["reason"], user=request.user
            )
        except Refused as refusal:
            form.add_error(refusal.field, refusal.message)
        else:
            messages.success(request, _("The season has been saved."))
            return redirect_after_post(request, season_url(season))
    return render(request, "organiser/season_form.html", {"form": form, "season": season, "host": season.host})


@require_safe
@login_required
def season_file(request, season, file):
    season = organised_season_or_404(request.user, season)
    if file not in SEASON_FILES:
        raise Http404("no such file")
    content_type, make = SEASON_FILES[file]
    response = HttpResponse(make(season), content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{season.slug}-{file}"'
    response["Cache-Control"] = "no-store"
    return response

"""Seasons: the organiser's list, a new season, its staff table (every finished tournament, public or
not), its settings changed with a reason, and its files (XLSX, CSV)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from accounts.roles import organises_a_host
from accounts.selectors import host_tournaments, organised_hosts, organised_season_or_404, organised_seasons, season_log
from organiser import services
from organiser.exports.seasons import SEASON_FILES
from organiser.forms import SeasonForm
from organiser.views.common import posted_data, redirect_after_post
from scoring.selectors.seasons import season_table, season_tournaments
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


@login_required
def season_create(request):
    if not organises_a_host(request.user):
        raise PermissionDenied
    hosts = organised_hosts(request.user)
    tournaments = [t for host in hosts for t in host_tournaments(host)]
    form = SeasonForm(
        posted_data(request),
        tournaments=tournaments,
        hosts=hosts,
        initial={"place_points": _points_text(DEFAULT_SEASON_POINTS)},
    )
    if request.method == "POST" and form.is_valid():
        try:
            season = services.create_season(form.season_host(), form.season_data(), user=request.user)
        except Refused as refusal:
            form.add_error(refusal.field, refusal.message)
        else:
            messages.success(request, _("The season has been created."))
            return redirect_after_post(request, season_url(season))
    return render(request, "organiser/season_form.html", {"form": form})


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
    form = SeasonForm(posted_data(request), tournaments=host_tournaments(season.host), editing=True, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            season = services.edit_season(
                season, form.season_data(), reason=form.cleaned_data["reason"], user=request.user
            )
        except Refused as refusal:
            form.add_error(refusal.field, refusal.message)
        else:
            messages.success(request, _("The season has been saved."))
            return redirect_after_post(request, season_url(season))
    return render(request, "organiser/season_form.html", {"form": form, "season": season})


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

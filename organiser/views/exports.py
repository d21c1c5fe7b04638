"""Results and exports: the organiser's page with the downloads, and the downloads themselves."""

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from accounts.models import Role
from accounts.roles import staff_required
from organiser.exports.downloads import EXPORT_FILES, SITE_ZIP
from organiser.exports.site import make_results_site, site_request
from scoring.selectors.sheets import unverified_sheet_count
from tournament.navigation import produced_file_answer
from tournament.services.files import ask_for_file


@staff_required(Role.ORGANISER)
@require_safe
def exports_page(request, tournament):
    return render(
        request, "organiser/exports.html", {"tournament": tournament, "unverified": unverified_sheet_count(tournament)}
    )


@staff_required(Role.ORGANISER)
@require_safe
def export_file(request, tournament, name):
    """A results file; the website's zip is made by a task (its progress page until it is ready)."""
    if name not in EXPORT_FILES:
        raise Http404("no such export")
    if name == SITE_ZIP:
        asked = site_request(tournament, request.get_full_path())
        return produced_file_answer(ask_for_file(tournament, asked, make_results_site))
    content_type, make = EXPORT_FILES[name]
    response = HttpResponse(make(tournament), content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-{name}"'
    response["Cache-Control"] = "no-store"
    return response

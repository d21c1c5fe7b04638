"""Public pages for players and the projector. Everything here obeys `scoring.visibility`."""

from django.http import JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from scoring.standings import standings_json
from scoring.visibility import public_standings
from tournament.models import Tournament


def standings_json_view(request, slug):
    """SPEC §9: the public standings rows; 403 with a reason while results are hidden."""
    tournament = get_object_or_404(Tournament, slug=slug)
    rows = public_standings(tournament)
    if rows is None:
        return JsonResponse({"detail": _("The results are hidden until the end of the tournament.")}, status=403)
    response = JsonResponse(standings_json(rows), safe=False, json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "no-cache"
    return response

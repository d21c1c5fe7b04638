"""A season's public pages: its table (phones and the projector) and a person's history in it.

Only the tournaments whose results are public count (`scoring.selectors.seasons`, public); the
others are listed as pending. The pages are answered like the tournaments' public pages
(`public.freshness.season_page`: 304 while nothing changed, the table computed once per version).
"""

from django.http import Http404
from django.views.decorators.http import require_safe

from public.freshness import cached, season_page, shared_page
from scoring.selectors.seasons import season_table
from tournament.selectors import season_person_or_404


def public_table(season):
    return cached(season, "season-table", lambda: season_table(season, public=True))


@require_safe
@season_page
def season_standings(request, season):
    return shared_page(
        request, "public/season.html", lambda: {"season": season, "table": public_table(season), "public": True}
    )


@require_safe
@season_page
def season_person(request, season, uid):
    """A person's places and points in the season's public tournaments (404 without any: a person
    known only from results not yet public is not shown)."""
    person = season_person_or_404(season, uid)
    table = public_table(season)
    line = table.line_of(person)
    if line is None:
        raise Http404("no public result")
    return shared_page(
        request, "public/season_person.html", lambda: {"season": season, "table": table, "person": person, "line": line}
    )

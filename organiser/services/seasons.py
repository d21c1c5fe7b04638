"""Seasons: an organiser makes one (its name, address, tournaments and scoring) and changes it
later. A season's change changes its table, so it is audited as a change to a result: who,
when, before, after and the reason (the organisation's own log: `host`, no tournament).

Only the organisation's own tournaments may be in its season: a tournament of another
organisation, or an unknown address, is refused and nothing is written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, transaction

from tournament import selectors
from tournament.audit import log_change
from tournament.models import HostOrganisation, Season, Tournament
from tournament.refusals import Refused

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

MAX_PLACE_POINTS = 100  # places with points
MAX_POINTS = 10_000  # for one place


@dataclass(frozen=True)
class SeasonData:
    """What a season is made of, as a form or the command line gives it."""

    name: str
    slug: str
    tournaments: tuple[str, ...]  # the tournaments' addresses
    place_points: tuple[int, ...]
    best_count: int | None


def _checked(host: HostOrganisation, data: SeasonData) -> list[Tournament]:
    """The season's tournaments, once every value is checked; a refusal names its field."""
    if not data.name.strip():
        raise Refused("season_name_required", field="name")
    if not data.place_points or len(data.place_points) > MAX_PLACE_POINTS:
        raise Refused("season_points_count", field="place_points", max=MAX_PLACE_POINTS)
    if any(not 0 <= points <= MAX_POINTS for points in data.place_points):
        raise Refused("season_points_range", field="place_points", max=MAX_POINTS)
    if data.best_count is not None and data.best_count < 1:
        raise Refused("season_best_count", field="best_count")
    slugs = list(dict.fromkeys(data.tournaments))
    found = selectors.host_tournaments_by_slug(host, slugs)
    for slug in slugs:
        if slug not in found:
            raise Refused("season_tournament_not_ours", field="tournaments", slug=slug)
    return [found[slug] for slug in slugs]


def _state(season: Season) -> dict[str, Any]:
    """The season as the audit log keeps it."""
    return {
        "season": season.pk,
        "name": season.name,
        "slug": season.slug,
        "tournaments": sorted(season.tournaments.values_list("slug", flat=True)),
        "place_points": list(season.place_points),
        "best_count": season.best_count,
    }


RESERVED_SEASON_SLUGS = frozenset({"new"})  # /staff/seasons/new/ makes a season


def _slug_taken(slug: str, season: Season | None = None) -> bool:
    if slug in RESERVED_SEASON_SLUGS:
        return True
    others = Season.objects.filter(slug=slug)
    return (others.exclude(pk=season.pk) if season else others).exists()


def create_season(host: HostOrganisation, data: SeasonData, *, user: AbstractBaseUser | None) -> Season:
    """Make `host`'s season from checked data (audited)."""
    tournaments = _checked(host, data)
    if _slug_taken(data.slug):
        raise Refused("season_slug_taken", field="slug")
    try:
        with transaction.atomic():
            season = Season.objects.create(
                host=host,
                name=data.name.strip(),
                slug=data.slug,
                place_points=list(data.place_points),
                best_count=data.best_count,
            )
            season.tournaments.set(tournaments)
            log_change(None, user, "season_created", after=_state(season), host=host)
    except IntegrityError:  # the address was taken at the same moment
        raise Refused("season_slug_taken", field="slug") from None
    return season


def edit_season(season: Season, data: SeasonData, *, reason: str, user: AbstractBaseUser | None) -> Season:
    """Change a season (audited with the reason); an unchanged season writes nothing."""
    if not reason.strip():
        raise Refused("season_reason_required", field="reason")
    tournaments = _checked(season.host, data)
    if _slug_taken(data.slug, season):
        raise Refused("season_slug_taken", field="slug")
    try:
        with transaction.atomic():
            season = Season.objects.select_for_update().get(pk=season.pk)
            before = _state(season)
            season.name, season.slug = data.name.strip(), data.slug
            season.place_points, season.best_count = list(data.place_points), data.best_count
            season.save()
            season.tournaments.set(tournaments)
            after = _state(season)
            if after != before:
                log_change(
                    None, user, "season_changed", before=before, after=after, reason=reason.strip(), host=season.host
                )
    except IntegrityError:
        raise Refused("season_slug_taken", field="slug") from None
    return season

"""A season's table in constant queries: each finished tournament's placings are kept per public
version (`scoring.selectors.seasons.placings_of`), so the table reads its tournaments, the kept
placings (one round trip to the cache) and its people, whatever the number of tournaments; a
change to one tournament's results computes that one again, and nothing stale is shown."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.selectors.seasons import season_table
from tests.factories import SEASON_STAFF_TABLE, season_of_three
from tournament import shared_cache
from tournament.models import Player, Season, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache():
    shared_cache.clear()
    yield
    shared_cache.clear()


def queries_of(season, *, public=False):
    with CaptureQueriesContext(connection) as queries:
        table = season_table(season, public=public)
    return len(queries), table


def line_of(table, name):
    return next(line for line in table.lines if line.name == name)


def test_a_kept_season_reads_the_same_queries_for_one_tournament_as_for_three():
    three = season_of_three()
    one = Season.objects.create(host=three.host, name="Jedna", slug="jedna")
    one.tournaments.add(Tournament.objects.get(slug="zima-1"))
    first, _ = queries_of(three)  # computes and keeps the three tournaments' placings
    assert first > 6
    warm_three, table = queries_of(three)
    warm_one, _ = queries_of(one)
    # The season's tournaments with their versions, and its people: 2 queries at both sizes.
    assert (warm_three, warm_one) == (2, 2)
    assert [(line.rank, line.name, line.points) for line in table.lines] == [
        row[:2] + row[3:4] for row in SEASON_STAFF_TABLE
    ]
    public, _ = queries_of(three, public=True)  # the public table shares the kept placings
    assert public == 2


def test_a_change_to_one_tournament_computes_that_one_again_and_shows_it():
    season = season_of_three()
    queries_of(season)
    warm, before = queries_of(season)
    # Żak: zima-1 2nd (20), zima-2 5th (11), zima-3 1st (25); the best 2: 25 + 20 = 45.
    assert (line_of(before, "Żak Łucja").points, line_of(before, "Żak Łucja").best_place) == (45, 1)
    Player.objects.filter(tournament__slug="zima-1", surname="Żak").update(status="disqualified")
    changed, after = queries_of(season)
    # Disqualified in zima-1 (0 points): the best 2 are now 25 + 11 = 36.
    zak = line_of(after, "Żak Łucja")
    assert zak.points == 36
    assert [(r.tournament.slug, r.place, r.points) for r in zak.results][0] == ("zima-1", None, 0)
    assert warm < changed  # zima-1 alone computed again
    again, _ = queries_of(season)
    assert again == warm


def test_a_visibility_change_is_seen_at_once():
    season = season_of_three()
    queries_of(season, public=True)
    Tournament.objects.filter(slug="zima-3").update(visibility=Tournament.Visibility.LIVE)
    _, table = queries_of(season, public=True)
    assert table.pending == []
    Tournament.objects.filter(slug="zima-3").update(visibility=Tournament.Visibility.HIDDEN)
    _, table = queries_of(season, public=True)
    assert [entry.tournament.slug for entry in table.pending] == ["zima-3"]

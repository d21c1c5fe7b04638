"""The leaderboard and player pages read a fixed number of queries, however many players."""

import pytest
from django.core.cache import cache

from tests.factories import build_hall
from tournament.models import Round

pytestmark = pytest.mark.django_db

# (path, htmx, bound): measured with 8 players, and the same bound holds for 40. The fragment
# cache is emptied first, so every request computes the standings.
PAGES = [
    ("/t/test/standings/", False, 7),  # the rounds, for "after round N of M" and the medals
    ("/t/test/standings/", True, 7),
    ("/t/test/player/p1/", False, 10),  # the rounds: a medal only once the places are final
    ("/t/test/round/1/", False, 6),
    ("/t/test/", False, 5),
    ("/t/test/?q=a", True, 5),
    ("/t/test/projector/?page=2", True, 7),  # the rounds, for its heading
]


@pytest.mark.parametrize("players", [8, 40])
@pytest.mark.parametrize("path, htmx, bound", PAGES)
def test_query_count_does_not_grow_with_players(client, django_assert_max_num_queries, players, path, htmx, bound):
    build_hall(players=players)
    cache.clear()
    with django_assert_max_num_queries(bound):
        assert client.get(path, **({"HTTP_HX_REQUEST": "true"} if htmx else {})).status_code == 200


@pytest.mark.parametrize("players", [8, 40])
def test_the_projectors_seating_reads_a_fixed_number_of_queries(client, django_assert_max_num_queries, players):
    tournament = build_hall(players=players)
    Round.objects.filter(tournament=tournament, number=3).update(state="completed")  # round 4 waits to start
    cache.clear()
    with django_assert_max_num_queries(4):
        html = client.get("/t/test/projector/", HTTP_HX_REQUEST="true").content.decode()
    assert "board--seating" in html

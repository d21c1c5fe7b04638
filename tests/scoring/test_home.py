"""The referee's start page says where the tournament stands, also between rounds."""

import pytest

from organiser import services
from tests.factories import checked_in, verify_sheets

pytestmark = pytest.mark.django_db


def test_before_any_round_is_published_the_page_says_so(referee_client, organiser):
    tournament = checked_in(8)
    services.draw_round(tournament, user=organiser)  # a draft is not for the referees yet
    html = referee_client.get("/referee/test/").content.decode()
    assert "No round has been published yet." in html


def test_between_rounds_it_names_the_last_completed_round_and_links_to_it(referee_client, organiser):
    """Rounds 1 and 2 completed, round 3 drawn but not published (the issue's case)."""
    tournament = checked_in(8)
    for _ in range(2):
        round_ = services.draw_round(tournament, user=organiser)
        services.start_round(round_, user=organiser)
        verify_sheets(round_)
        services.complete_round(round_, user=organiser)
    services.draw_round(tournament, user=organiser)
    html = referee_client.get("/referee/test/").content.decode()
    assert "No round has been published yet" not in html
    assert "Round 2 is completed. The next round is not published yet" in html
    assert 'href="/referee/test/round/2/"' in html and 'href="/referee/test/round/1/"' in html
    assert referee_client.get("/referee/test/round/2/").status_code == 200


def test_after_the_last_round_it_says_the_tournament_is_over(referee_client, organiser):
    """Two planned rounds and no final: once round 2 is completed nothing is left to enter."""
    tournament = checked_in(8, rounds_planned=2, final=False)
    for _ in range(2):
        round_ = services.draw_round(tournament, user=organiser)
        services.start_round(round_, user=organiser)
        verify_sheets(round_)
        services.complete_round(round_, user=organiser)
    html = referee_client.get("/referee/test/").content.decode()
    assert "Every round of the tournament is completed" in html
    assert "The next round is not published yet" not in html
    assert 'href="/referee/test/round/2/"' in html


@pytest.mark.parametrize("n_players", [8, 40])
def test_the_tables_page_costs_the_same_number_of_queries_for_8_and_40_players(
    referee_client, organiser, django_assert_max_num_queries, n_players
):
    tournament = checked_in(n_players)
    round_ = services.draw_round(tournament, user=organiser)
    services.start_round(round_, user=organiser)
    with django_assert_max_num_queries(8):  # the round's tables with sheets, seats and players: one of them
        html = referee_client.get("/referee/test/").content.decode()
    assert html.count('<a class="table-button ') == n_players // 4

"""Conditional GET (ETag → 304) and the fragment cache: unchanged polls are cheap, and a
verification, correction, card or visibility change shows at once."""

import contextlib
from unittest import mock

import pytest
from django.conf import settings as django_settings
from django.contrib import messages
from django.contrib.auth.models import User
from django.contrib.messages.storage.cookie import CookieStorage
from django.contrib.sessions.middleware import SessionMiddleware
from django.db.models import F
from django.http import HttpResponse
from django.test import Client

from public.freshness import public_state
from scoring.models import Card, ScoreSheet, SeatResult
from scoring.services.visibility import set_visibility
from tests.factories import build_hall
from tournament.models import Player, Tournament

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
LEADERBOARD = "/t/test/standings/"


def poll(client, url, etag=None):
    headers = dict(HX)
    if etag:
        headers["HTTP_IF_NONE_MATCH"] = etag
    return client.get(url, **headers)


def sheet(tournament, round_number, table_number):
    return ScoreSheet.objects.filter(
        table__round__tournament=tournament, table__round__number=round_number, table__number=table_number
    )


def test_an_unchanged_poll_gets_304_and_headers_for_revalidation(client):
    build_hall()
    first = poll(client, LEADERBOARD)
    assert first.status_code == 200 and first["ETag"].startswith('"')
    assert "no-cache" in first["Cache-Control"] and "HX-Request" in first["Vary"]
    again = poll(client, LEADERBOARD, first["ETag"])
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == first["ETag"] and "HX-Request" in again["Vary"]


def test_fragment_page_and_language_have_their_own_etags(client):
    build_hall()
    fragment = poll(client, LEADERBOARD)["ETag"]
    page = client.get(LEADERBOARD)["ETag"]
    english = client.get(LEADERBOARD, HTTP_ACCEPT_LANGUAGE="en")["ETag"]
    polish = client.get(LEADERBOARD, HTTP_ACCEPT_LANGUAGE="pl")["ETag"]
    assert len({fragment, page}) == 2 and english != polish
    assert poll(client, "/t/test/projector/?page=1")["ETag"] != poll(client, "/t/test/projector/?page=2")["ETag"]


def change_verify(tournament):
    # The referee service saves with a compare-and-swap update: no model save, no signal.
    sheet(tournament, 3, 2).update(state=ScoreSheet.State.VERIFIED, version=F("version") + 1)


def change_correct(tournament):
    result = SeatResult.objects.get(game__sheet__in=sheet(tournament, 3, 1), game__number=2, letter="B")
    SeatResult.objects.filter(pk=result.pk).update(override_score=77, override_reason="recount")
    sheet(tournament, 3, 1).update(version=F("version") + 1)


def change_card(tournament):
    player = Player.objects.get(tournament=tournament, ext_id="p1")
    Card.objects.create(tournament=tournament, player=player, colour=Card.Colour.RED, reason="cheating")
    Player.objects.filter(pk=player.pk).update(status=Player.Status.DISQUALIFIED)


def change_visibility(tournament):
    set_visibility(tournament, Tournament.Visibility.FROZEN)


@pytest.mark.parametrize(
    "change, before, after",
    [
        # p5 (+54) wins game 1 of round 3's table 2 with +2789, then −12, −5, −8: 54 + 2764
        (change_verify, "+54", "+2818"),
        (change_correct, "+118", "+146"),  # p2's +49 in round 3, game 2 becomes +77
        (change_card, "+8084", "row--dq"),  # p1 leads (no medal: round 3 of 5 is being played), then is DQ
        (change_visibility, "+8084", "+3788"),
    ],
)
def test_a_change_shows_at_once_on_the_next_poll(client, change, before, after):
    tournament = build_hall()
    first = poll(client, LEADERBOARD)
    assert before in first.content.decode()
    change(tournament)
    second = poll(client, LEADERBOARD, first["ETag"])
    assert second.status_code == 200 and second["ETag"] != first["ETag"]
    html = second.content.decode()
    assert after in html
    assert client.get(LEADERBOARD).content.decode().count(after) >= 1  # the full page too


def test_hiding_the_results_drops_the_numbers_from_every_cached_fragment(client):
    tournament = build_hall()
    for url in (LEADERBOARD, "/t/test/projector/?page=1", "/t/test/standings.json"):
        assert "8084" in client.get(url, **HX).content.decode()
    set_visibility(tournament, Tournament.Visibility.HIDDEN)
    for url in (LEADERBOARD, "/t/test/projector/?page=1", "/t/test/standings.json"):
        assert "8084" not in client.get(url, **HX).content.decode()


PUBLIC_PAGES = (
    LEADERBOARD,
    "/t/test/",
    "/t/test/player/p1/",
    "/t/test/round/3/",
    "/t/test/projector/",
    "/t/test/ceremony/",
)


@pytest.mark.parametrize("url", PUBLIC_PAGES)
def test_visitors_share_one_rendering_of_a_page_that_posts_nothing(url, django_assert_max_num_queries):
    build_hall()
    page = Client().get(url)
    with django_assert_max_num_queries(1):  # the version with the tournament row: the page comes from the cache
        again = Client().get(url)
    assert page.content == again.content
    html = page.content.decode()
    assert 'method="post"' not in html and "csrfmiddlewaretoken" not in html and "X-CSRFToken" not in html
    assert "csrftoken" not in page.cookies  # no token is made for a visitor


def test_the_public_language_switch_is_a_link_that_sets_the_language_cookie():
    build_hall()
    visitor = Client()
    html = visitor.get(LEADERBOARD, HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert 'action="/language/" method="get"' in html and "Klasyfikacja" in html
    switched = visitor.get("/language/", {"language": "en", "next": LEADERBOARD})
    assert switched.status_code == 302 and switched["Location"] == LEADERBOARD
    assert "Standings" in visitor.get(LEADERBOARD).content.decode()
    for odd in ({"language": "xx", "next": LEADERBOARD}, {"language": "pl", "next": "https://example.org/"}, {}):
        response = Client().get("/language/", odd)
        assert response.status_code == 302 and response["Location"] in (LEADERBOARD, "/")


def test_signed_in_staff_and_visitors_with_a_message_get_a_page_of_their_own(client, head_referee):
    build_hall()
    client.get(LEADERBOARD)  # an anonymous visitor fills the shared cache
    client.force_login(head_referee)
    assert "Sign out" in client.get(LEADERBOARD).content.decode()
    visitor = Client()
    request = visitor.get(LEADERBOARD).wsgi_request
    storage = CookieStorage(request)
    response = HttpResponse()
    storage.add(messages.INFO, "A message for this visitor only")
    storage.update(response)
    visitor.cookies[CookieStorage.cookie_name] = response.cookies[CookieStorage.cookie_name].value
    assert "A message for this visitor only" in visitor.get(LEADERBOARD).content.decode()


def test_the_tournament_read_with_its_version_is_the_one_the_orm_reads():
    tournament = build_hall("frozen", frozen_round=2)
    _, _, read = public_state("test", with_tournament=True)
    stored = Tournament.objects.get(pk=tournament.pk)
    assert [getattr(read, f.attname) for f in Tournament._meta.concrete_fields] == [
        getattr(stored, f.attname) for f in Tournament._meta.concrete_fields
    ]


WITHOUT_THE_SHORTCUT = [m for m in django_settings.MIDDLEWARE if not m.endswith("PublicAnswerMiddleware")]


@contextlib.contextmanager
def session_middleware_calls():
    """Counts the requests that got as far as the session middleware (past the shortcut)."""
    with mock.patch.object(
        SessionMiddleware, "process_request", autospec=True, side_effect=SessionMiddleware.process_request
    ) as spy:
        yield spy


@pytest.mark.parametrize("language", ["pl", "en"])
@pytest.mark.parametrize(
    "url, headers", [(LEADERBOARD, HX), (LEADERBOARD, {}), ("/t/test/", {}), ("/t/test/standings.json", {})]
)
def test_an_unchanged_poll_answered_before_the_middleware_matches_the_whole_stacks_answer(
    client, settings, django_assert_num_queries, url, headers, language
):
    """The shortcut for visitors not signed in gives the 304 the view would give, from one query."""
    build_hall()
    headers = {**headers, "HTTP_ACCEPT_LANGUAGE": language}
    etag = client.get(url, **headers)["ETag"]
    with django_assert_num_queries(1), session_middleware_calls() as spy:
        quick = client.get(url, HTTP_IF_NONE_MATCH=etag, **headers)
    assert spy.call_count == 0  # answered by the shortcut
    settings.MIDDLEWARE = WITHOUT_THE_SHORTCUT
    with session_middleware_calls() as spy:
        whole = Client().get(url, HTTP_IF_NONE_MATCH=etag, **headers)  # a new client loads the middleware anew
    assert spy.call_count == 1
    assert quick.status_code == whole.status_code == 304
    assert dict(quick.headers) == dict(whole.headers)


def test_the_shortcut_leaves_signed_in_visitors_changed_pages_and_other_urls_to_the_whole_stack(client):
    tournament = build_hall()
    etag = poll(client, LEADERBOARD)["ETag"]
    change_verify(tournament)
    with session_middleware_calls() as spy:
        assert poll(client, LEADERBOARD, etag).status_code == 200  # changed: the view answers
        assert client.get("/t/nope/standings/", HTTP_IF_NONE_MATCH=etag).status_code == 404
        assert client.get("/t/test/timer", HTTP_IF_NONE_MATCH='"x"').status_code == 200  # not a public page
    assert spy.call_count == 3
    staff = Client()
    staff.force_login(User.objects.create_user("organiser-x"))
    etag = poll(staff, LEADERBOARD)["ETag"]
    with session_middleware_calls() as spy:
        assert poll(staff, LEADERBOARD, etag).status_code == 304  # from the view, which knows the viewer
    assert spy.call_count == 1


@pytest.mark.parametrize(
    "url, headers", [(LEADERBOARD, HX), (LEADERBOARD, {}), ("/t/test/", {}), ("/t/test/standings.json", {})]
)
def test_a_page_already_answered_in_this_version_is_served_again_from_one_query(
    client, settings, django_assert_num_queries, url, headers
):
    """The second visitor of a version gets the first one's answer, byte for byte, past no other middleware."""
    build_hall()
    first = client.get(url, **headers)
    with django_assert_num_queries(1), session_middleware_calls() as spy:
        again = Client().get(url, **headers)
    assert spy.call_count == 0
    settings.MIDDLEWARE = WITHOUT_THE_SHORTCUT
    whole = Client().get(url, **headers)
    assert first.status_code == again.status_code == whole.status_code == 200
    assert again.content == first.content == whole.content
    assert dict(again.headers) == dict(first.headers)


def test_a_stored_answer_is_never_served_after_a_change_nor_to_a_signed_in_visitor(client):
    tournament = build_hall()
    before = client.get(LEADERBOARD, **HX)
    change_verify(tournament)
    with session_middleware_calls() as spy:
        after = Client().get(LEADERBOARD, **HX)
    assert spy.call_count == 1  # a new version: the view answers
    assert after["ETag"] != before["ETag"] and after.content != before.content
    staff = Client()
    staff.force_login(User.objects.create_user("organiser-y"))
    with session_middleware_calls() as spy:
        signed_in_answer = staff.get(LEADERBOARD, **HX)
    assert spy.call_count == 1 and signed_in_answer["ETag"] != after["ETag"]

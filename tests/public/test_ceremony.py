"""The medal ceremony (3rd, 2nd, 1st, one click at a time) and the head referee's controls."""

import pytest

from organiser.interchange import import_tournament
from scoring.selectors.visibility import ceremony_podium
from scoring.services.visibility import advance_ceremony, reset_ceremony
from tests.factories import NAMES, after_the_final, build_hall, hall_data
from tournament.models import AuditEntry, Tournament

pytestmark = pytest.mark.django_db

CONTROL = "/t/test/results-control/"
# Live standings (see test_public_pages): 1 Jan Łęcki, 2 Anna Nowak, 3 Zofia Żółkiewska.
PODIUM = {1: "Jan Łęcki", 2: "Anna Nowak", 3: "Zofia Żółkiewska"}


def names_on(html):
    return {name for name, _ in NAMES if name in html}


@pytest.mark.parametrize("step, shown", [(0, set()), (1, {3}), (2, {3, 2}), (3, {3, 2, 1})])
def test_the_ceremony_page_sends_only_the_revealed_places(client, step, shown):
    tournament = build_hall("hidden")  # the ceremony is the reveal: it works while results are hidden
    Tournament.objects.filter(pk=tournament.pk).update(ceremony_step=step)
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        html = client.get("/t/test/ceremony/", **headers).content.decode()
        assert names_on(html) == {PODIUM[place] for place in shown}
    assert "<form" not in html  # no controls for the public


def test_steps_go_3_2_1_and_stop(db):
    tournament = build_hall()
    assert ceremony_podium(tournament) == []
    steps = [advance_ceremony(tournament) for _ in range(4)]
    assert steps == [1, 2, 3, 3]
    assert [(place, [r.player.name for r in rows]) for place, rows in ceremony_podium(tournament)] == [
        (3, ["Zofia Żółkiewska"]),
        (2, ["Anna Nowak"]),
        (1, ["Jan Łęcki"]),
    ]
    assert reset_ceremony(tournament) == 0
    actions = list(AuditEntry.objects.filter(tournament=tournament).order_by("pk").values_list("action", flat=True))
    assert actions == ["ceremony_advance"] * 3 + ["ceremony_reset"]


def test_a_click_from_an_out_of_date_screen_reveals_nothing_more(db):
    tournament = build_hall()
    assert advance_ceremony(tournament, seen_step=0) == 1
    assert advance_ceremony(tournament, seen_step=0) == 1  # the second screen still showed step 0


def test_a_shared_medal_place_shows_every_tied_player(db):
    data = hall_data()
    data["rounds"] = data["rounds"][:2]  # after two rounds p2 and p6 share place 2 (+138 each)
    tournament = import_tournament(data)
    Tournament.objects.filter(pk=tournament.pk).update(ceremony_step=2)
    tournament.refresh_from_db()
    podium = {place: sorted(r.player.ext_id for r in rows) for place, rows in ceremony_podium(tournament)}
    assert podium == {3: [], 2: ["p2", "p6"]}


def test_before_any_verified_result_the_ceremony_reveals_nobody(db):
    data = hall_data()
    data["rounds"] = data["rounds"][3:]  # only the published round 4 and the draft
    tournament = import_tournament(data)
    Tournament.objects.filter(pk=tournament.pk).update(ceremony_step=3)
    tournament.refresh_from_db()
    assert ceremony_podium(tournament) == [(3, []), (2, []), (1, [])]


def test_staff_reveal_one_place_per_click_from_the_ceremony_screen(head_referee_client):
    tournament = build_hall()
    page = head_referee_client.get("/t/test/ceremony/").content.decode()
    assert "Reveal place 3" in page and 'href="/t/test/ceremony/?confirm=next"' in page
    assert 'name="ceremony"' not in page  # the first click asks, on the page: nothing is posted yet
    asked = head_referee_client.get("/t/test/ceremony/?confirm=next", HTTP_HX_REQUEST="true").content.decode()
    assert asked.lstrip().startswith('<section id="ceremony-stage"') and "Reveal place 3 on the screen" in asked
    assert 'name="ceremony" value="next"' in asked and "Yes, reveal place 3" in asked and "Cancel" in asked
    assert "hx-trigger" not in asked  # no poll takes the question away
    post = {"ceremony": "next", "seen_step": "0", "next": "/t/test/ceremony/"}
    response = head_referee_client.post(CONTROL, post, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="ceremony-stage")
    html = response.content.decode()
    assert response.status_code == 200 and html.lstrip().startswith('<section id="ceremony-stage"')
    assert names_on(html) == {"Zofia Żółkiewska"} and "Reveal place 2" in html
    assert "Place 3 is revealed." in html and 'hx-trigger="load delay:15s"' in html  # the answer stays a while
    again = head_referee_client.post(CONTROL, post, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="ceremony-stage")
    assert "out of date" in again.content.decode()
    tournament.refresh_from_db()
    assert tournament.ceremony_step == 1
    plain = head_referee_client.post(CONTROL, {**post, "seen_step": "1"})
    assert plain.status_code == 302 and plain["Location"] == "/t/test/ceremony/"
    tournament.refresh_from_db()
    assert tournament.ceremony_step == 2


def test_visibility_is_changed_on_the_control_page_and_logged(organiser_client):
    tournament = build_hall()
    page = organiser_client.get(CONTROL)
    assert page.status_code == 200 and "Freeze as of round 2" in page.content.decode()
    response = organiser_client.post(CONTROL, {"visibility": "frozen", "reason": "last round starts"})
    assert response.status_code == 302 and response["Location"] == CONTROL
    tournament.refresh_from_db()
    assert (tournament.visibility, tournament.frozen_round) == ("frozen", 2)
    entry = AuditEntry.objects.get(tournament=tournament, action="visibility")
    assert entry.after == {"visibility": "frozen", "frozen_round": 2} and entry.reason == "last round starts"
    fragment = organiser_client.post(CONTROL, {"visibility": "live"}, HTTP_HX_REQUEST="true")
    assert fragment.status_code == 200 and 'id="results-control"' in fragment.content.decode()
    tournament.refresh_from_db()
    assert tournament.visibility == "live"


@pytest.mark.parametrize(
    "post",
    [
        {"visibility": "public"},
        {"visibility": ""},
        {"ceremony": "next", "seen_step": "x"},
        {"ceremony": "next", "seen_step": "99999999999999999999999"},
        {"ceremony": "next", "seen_step": "²"},
        {"ceremony": "next"},
        {"ceremony": "jump"},
        {},
    ],
)
def test_bad_control_posts_change_nothing(head_referee_client, post):
    tournament = build_hall()
    before = AuditEntry.objects.count()
    response = head_referee_client.post(CONTROL, post, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "message--error" in response.content.decode()
    tournament.refresh_from_db()
    assert (tournament.visibility, tournament.ceremony_step) == ("live", 0)
    assert AuditEntry.objects.count() == before


def test_an_unsafe_next_address_is_ignored(head_referee_client):
    build_hall()
    response = head_referee_client.post(CONTROL, {"ceremony": "reset", "next": "https://evil.example/"})
    assert response["Location"] == CONTROL


def test_only_the_head_referee_and_the_organiser_may_control(client, referee_client):
    build_hall()
    assert referee_client.get(CONTROL).status_code == 403
    assert referee_client.post(CONTROL, {"visibility": "hidden"}).status_code == 403
    assert 'name="ceremony"' not in referee_client.get("/t/test/ceremony/").content.decode()
    referee_client.logout()
    anonymous = client.post(CONTROL, {"visibility": "hidden"})
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")
    assert Tournament.objects.get().visibility == "live"


@pytest.mark.parametrize("page, target", [("/t/test/ceremony/", "#ceremony-stage"), (CONTROL, "#results-control")])
def test_each_ceremony_step_is_confirmed_on_the_page_and_never_in_a_browser_dialog(head_referee_client, page, target):
    build_hall()
    html = head_referee_client.get(page).content.decode()
    assert "hx-confirm" not in html and "confirm(" not in html
    reset = head_referee_client.get(page + "?confirm=reset", HTTP_HX_REQUEST="true").content.decode()
    assert "Hide all revealed places again?" in reset and 'value="reset"' in reset and f'hx-target="{target}"' in reset
    assert 'value="next"' not in reset
    plain = head_referee_client.get(page + "?confirm=next").content.decode()  # without JavaScript: the whole page
    assert "<html" in plain and "Reveal place 3 on the screen" in plain and 'value="next"' in plain


def test_the_question_names_results_that_are_not_final(head_referee_client):
    build_hall()  # round 4 is still to play: the results are not final
    html = head_referee_client.get(CONTROL + "?confirm=next").content.decode()
    assert "The results are not final. Reveal place 3 on the screen anyway?" in html


def test_the_public_cannot_ask_the_ceremonys_question(client):
    build_hall()
    html = client.get("/t/test/ceremony/?confirm=next").content.decode()
    assert "on the screen" not in html and "<form" not in html


# ---------------------------------------------------------------- the final's results released by the ceremony


def final_hidden_by_the_plan(release="ceremony"):
    """After the final (every sheet verified), its results hidden as its start hid them."""
    tournament = after_the_final()
    Tournament.objects.filter(pk=tournament.pk).update(visibility="hidden", final_release=release)
    tournament.refresh_from_db()
    return tournament


def test_revealing_first_place_makes_the_hidden_results_public(head_referee):
    tournament = final_hidden_by_the_plan()
    for step in (1, 2):
        assert advance_ceremony(tournament, user=head_referee) == step
        tournament.refresh_from_db()
        assert tournament.visibility == "hidden", f"still hidden after place {4 - step}"
    assert advance_ceremony(tournament, user=head_referee) == 3
    tournament.refresh_from_db()
    assert tournament.visibility == "live"
    entry = AuditEntry.objects.filter(tournament=tournament, action="visibility").get()
    assert (entry.user, entry.before["visibility"], entry.after["visibility"]) == (head_referee, "hidden", "live")
    assert entry.reason == "the medal ceremony revealed 1st place"
    reset_ceremony(tournament)
    tournament.refresh_from_db()
    assert tournament.visibility == "live", "a ceremony started again does not hide what was public"


@pytest.mark.parametrize("tournament_with", ["the live plan", "no final started"])
def test_the_last_reveal_changes_nothing_else(db, tournament_with):
    tournament = final_hidden_by_the_plan("live") if tournament_with == "the live plan" else build_hall("hidden")
    for _ in range(3):
        advance_ceremony(tournament)
    tournament.refresh_from_db()
    assert (tournament.ceremony_step, tournament.visibility) == (3, "hidden")
    assert not AuditEntry.objects.filter(tournament=tournament, action="visibility").exists()


WARNING = "The order is already public:"


def test_the_ceremony_warns_the_head_referee_when_the_finals_order_is_already_public(head_referee_client):
    tournament = after_the_final()  # live results: the final's order is on every phone
    for page in ("/t/test/ceremony/", CONTROL):
        assert WARNING in head_referee_client.get(page).content.decode(), page
    Tournament.objects.filter(pk=tournament.pk).update(visibility="hidden")
    for page in ("/t/test/ceremony/", CONTROL):
        assert WARNING not in head_referee_client.get(page).content.decode(), page
    Tournament.objects.filter(pk=tournament.pk).update(visibility="live", ceremony_step=3)
    assert WARNING not in head_referee_client.get("/t/test/ceremony/").content.decode(), "the ceremony is over"


def test_the_public_screen_never_shows_the_warning(client):
    after_the_final()
    assert WARNING not in client.get("/t/test/ceremony/").content.decode()


def test_no_warning_before_the_final(head_referee_client):
    build_hall()  # live results, no final
    assert WARNING not in head_referee_client.get("/t/test/ceremony/").content.decode()


@pytest.mark.parametrize(
    "after_the_final_too, label", [(False, "Freeze as of round 2"), (True, "Freeze as of the final")]
)
def test_the_freeze_button_names_the_final_when_it_is_the_last_completed_round(
    head_referee_client, after_the_final_too, label
):
    after_the_final() if after_the_final_too else build_hall()
    html = head_referee_client.get(CONTROL).content.decode()
    assert label in html and ("Freeze as of round" in html) != after_the_final_too
    head_referee_client.post(CONTROL, {"visibility": "frozen"})
    now = head_referee_client.get(CONTROL).content.decode()
    assert ("public results as of the final" if after_the_final_too else "public results as of round 2") in now

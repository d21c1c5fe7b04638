"""Ties the head referee decides (SPEC §4): across the last seat of the final, and at a medal place."""

import pytest
from django.test import Client

from organiser import services
from scoring.models import TieDecision
from scoring.selectors import sheets as selectors
from scoring.selectors.ties import decisions_to_review
from scoring.services import ties
from tests.factories import build, out_game, table
from tests.support.browser import PHONE, TABLET, assert_no_horizontal_scroll, screenshot, signed_in_page
from tournament.models import AuditEntry, Player, Seat
from tournament.refusals import Refused

pytestmark = pytest.mark.django_db

# Round 1, verified. Table 1 (p1 A, p2 B, p3 C, p4 D):
#   game 1: A out; B, C, D 10 each → A +30, B −10, C −10, D −10
#   game 2: A out; B, C, D 5 each  → A +15, B −5,  C −5,  D −5
#   game 3: B out; A, C, D 1 each  → B +3,  A −1,  C −1,  D −1
#   game 4: C out; A, B, D 2 each  → C +6,  A −2,  B −2,  D −2
#   p1 2 big points +42, p2 1 −14, p3 1 −10, p4 0 −18.
# Table 2 (p5 A, p6 B, p7 C, p8 D):
#   game 1: A out; B, C, D 10 each → A +30, B −10, C −10, D −10
#   game 2: B out; A 1, C 2, D 3   → B +6,  A −1,  C −2,  D −3
#   game 3: C out; A 10, B 1, D 0  → C +11, A −10, B −1,  D 0
#   game 4: D out; A, B, C 2 each  → D +6,  A −2,  B −2,  C −2
#   p5 1 big point +17, p6 1 −7, p7 1 −3, p8 1 −7.
# Standings: 1 p1, 2 p5, 3 p7, 4–5 p6 and p8 (1, −7, one game won each), 6 p3, 7 p2, 8 p4.
TABLE_1 = [
    out_game(1, "A", B=(10, 0), C=(10, 0), D=(10, 0)),
    out_game(2, "A", B=(5, 0), C=(5, 0), D=(5, 0)),
    out_game(3, "B", A=(1, 0), C=(1, 0), D=(1, 0)),
    out_game(4, "C", A=(2, 0), B=(2, 0), D=(2, 0)),
]
TABLE_2 = [
    out_game(1, "A", B=(10, 0), C=(10, 0), D=(10, 0)),
    out_game(2, "B", A=(1, 0), C=(2, 0), D=(3, 0)),
    out_game(3, "C", A=(10, 0), B=(1, 0), D=(0, 0)),
    out_game(4, "D", A=(2, 0), B=(2, 0), C=(2, 0)),
]


def qualified(rounds_planned=1, **settings):
    rounds = [
        {
            "number": 1,
            "state": "completed",
            "tables": [
                table(1, ["p1", "p2", "p3", "p4"], TABLE_1, "verified"),
                table(2, ["p5", "p6", "p7", "p8"], TABLE_2, "verified"),
            ],
        }
    ]
    return build(8, rounds=rounds, settings={"rounds_planned": rounds_planned, **settings})


def place_field(ext_id):
    return f"place-{Player.objects.get(ext_id=ext_id).pk}"


def test_a_tie_across_the_last_seat_of_the_final_is_decided_by_the_head_referee(head_referee_client, organiser):
    tournament = qualified()
    with pytest.raises(Refused, match="^final_cut_tied$") as refused:
        services.seat_final(tournament, user=organiser)
    assert "Place 4 is tied (Gracz 6, Gracz 8)" in refused.value.message
    page = head_referee_client.get("/referee/test/ties/").content.decode()
    assert "Place 4–5" in page and "Gracz 6" in page and "Gracz 8" in page and "Gracz 7" not in page

    response = head_referee_client.post(
        "/referee/test/ties/",
        {place_field("p6"): "5", place_field("p8"): "4", "reason": "Losowanie przy stoliku sędziowskim"},
    )
    assert response.status_code == 302 and response["Location"] == "/referee/test/ties/"
    decision = TieDecision.objects.get()
    assert (decision.order, decision.reason, decision.decided_by.username) == (
        ["p8", "p6"],
        "Losowanie przy stoliku sędziowskim",
        "head",
    )
    entry = AuditEntry.objects.get(action="tie_decision")
    assert (entry.before, entry.after, entry.reason, entry.user.username) == (
        {"place": "4–5"},
        {"order": ["p8", "p6"], "names": ["Gracz 8", "Gracz 6"]},
        "Losowanie przy stoliku sędziowskim",
        "head",
    )
    assert "No tie to decide now." in head_referee_client.get("/referee/test/ties/").content.decode()
    final = services.seat_final(tournament, user=organiser)
    seats = dict(Seat.objects.filter(round=final).values_list("letter", "player__ext_id"))
    assert seats == {"A": "p1", "B": "p5", "C": "p7", "D": "p8"}


def test_a_medal_tie_is_decided_once_the_results_are_final(head_referee_client):
    # No games: all eight players share places 1–8; without a final that is a tie at the medal places.
    rounds = [
        {
            "number": 1,
            "state": "completed",
            "tables": [
                table(1, ["p1", "p2", "p3", "p4"], state="verified"),
                table(2, ["p5", "p6", "p7", "p8"], state="verified"),
            ],
        }
    ]
    build(8, rounds=rounds, settings={"rounds_planned": 1, "final": False})
    assert "Place 1–8" in head_referee_client.get("/referee/test/ties/").content.decode()
    assert 'href="/referee/test/ties/"' in head_referee_client.get("/t/test/results-control/").content.decode()
    order = ["p3", "p1", "p8", "p2", "p4", "p5", "p6", "p7"]
    data = {place_field(ext_id): str(place) for place, ext_id in enumerate(order, start=1)}
    head_referee_client.post("/referee/test/ties/", {**data, "reason": "Dogrywka"})
    assert TieDecision.objects.get().order == order
    medals = head_referee_client.get("/print/test/diplomas.pdf")
    assert medals.status_code == 200 and medals["Content-Type"] == "application/pdf"


@pytest.mark.parametrize(
    "places, reason, error",
    [
        ({"p6": "4", "p8": "4"}, "lot", "Give each player a different place."),
        ({"p6": "4", "p8": "5"}, "  ", "Give a reason for this change."),
        ({"p6": "4", "p8": ""}, "lot", "This field is required."),
        ({"p6": "4", "p8": "6"}, "lot", "Select a valid choice."),
    ],
)
def test_a_bad_decision_is_explained_and_changes_nothing(head_referee_client, places, reason, error):
    qualified()
    data = {place_field(ext_id): place for ext_id, place in places.items()}
    response = head_referee_client.post("/referee/test/ties/", {**data, "reason": reason})
    assert response.status_code == 200
    assert error in response.content.decode()
    assert not TieDecision.objects.exists() and not AuditEntry.objects.filter(action="tie_decision").exists()


def test_no_tie_is_decided_before_the_last_qualifying_round_is_completed(head_referee_client, head_referee):
    tournament = qualified(rounds_planned=2)
    assert selectors.ties_to_decide(tournament) == []
    page = head_referee_client.get("/referee/test/ties/").content.decode()
    assert "No tie to decide now." in page
    response = head_referee_client.post(
        "/referee/test/ties/", {place_field("p6"): "5", place_field("p8"): "4", "reason": "lot"}, follow=True
    )
    assert "These players are no longer tied on a place to decide." in response.content.decode()
    with pytest.raises(Refused, match="^tie_gone$"):
        ties.decide_tie(tournament, order=["p8", "p6"], reason="lot", user=head_referee)
    assert not TieDecision.objects.exists()


def test_only_the_head_referee_decides_a_tie(referee_client, referee, organiser):
    tournament = qualified()
    assert referee_client.get("/referee/test/ties/").status_code == 403
    assert referee_client.post("/referee/test/ties/", {"reason": "lot"}).status_code == 403
    with pytest.raises(Refused, match="^tie_head_referee_only$"):
        ties.decide_tie(tournament, order=["p8", "p6"], reason="lot", user=referee)
    assert not TieDecision.objects.exists()
    ties.decide_tie(
        tournament, order=["p8", "p6"], reason="lot", user=organiser
    )  # the organiser outranks the head referee
    assert TieDecision.objects.get().order == ["p8", "p6"]


def test_the_dashboard_and_the_results_page_lead_to_the_ties(organiser_client):
    qualified()
    assert organiser_client.get("/staff/test/").context["step"] == "final"
    assert 'href="/referee/test/ties/"' in organiser_client.get("/staff/test/").content.decode()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport, name", [(TABLET, "tablet"), (PHONE, "phone")])
def test_the_head_referee_decides_the_tie_on_a_tablet_or_a_phone(new_page, live_server, head_referee, viewport, name):
    qualified()
    page = signed_in_page(new_page, live_server, Client(), head_referee, viewport)
    page.goto(f"{live_server.url}/referee/test/ties/")
    page.select_option(f"#id_{place_field('p8')}", "4")
    page.select_option(f"#id_{place_field('p6')}", "5")
    page.fill("#id_reason", "Losowanie")
    assert_no_horizontal_scroll(page)
    screenshot(page, f"ties-{name}")
    with page.expect_navigation():
        page.click("form.tie-form button[type=submit]")
    assert "The tie at place 4–5 is decided." in page.locator(".message--success").inner_text()
    assert "No tie to decide now." in page.content()
    assert TieDecision.objects.get().order == ["p8", "p6"]


def test_a_decision_whose_players_are_no_longer_tied_is_set_aside_with_a_reason(head_referee_client, head_referee):
    tournament = qualified()
    standing = TieDecision.objects.create(
        tournament=tournament, order=["p8", "p6"], reason="lot", decided_by=head_referee
    )
    stale = TieDecision.objects.create(
        tournament=tournament, order=["p2", "p3"], reason="old lot", decided_by=head_referee
    )
    assert [review.decision for review in decisions_to_review(tournament)] == [stale]
    page = head_referee_client.get("/referee/test/ties/").content.decode()
    assert "Needs a new look: Gracz 2, Gracz 3" in page and "old lot" in page
    assert "Needs a new look: Gracz 8" not in page

    response = head_referee_client.post("/referee/test/ties/", {"set_aside": "1", "decision": stale.pk, "reason": " "})
    assert response.status_code == 200 and "Give a reason for this change." in response.content.decode()
    assert TieDecision.objects.count() == 2

    response = head_referee_client.post(
        "/referee/test/ties/", {"set_aside": "1", "decision": stale.pk, "reason": "Not tied after the new settings"}
    )
    assert response.status_code == 302
    assert list(TieDecision.objects.all()) == [standing]
    entry = AuditEntry.objects.get(action="tie_decision_set_aside")
    assert (entry.before, entry.reason, entry.user) == (
        {"order": ["p2", "p3"], "names": ["Gracz 2", "Gracz 3"], "reason": "old lot"},
        "Not tied after the new settings",
        head_referee,
    )
    again = head_referee_client.post(
        "/referee/test/ties/", {"set_aside": "1", "decision": stale.pk, "reason": "x"}, follow=True
    )
    assert "has been set aside already" in again.content.decode()


def test_a_decision_that_still_orders_a_tie_is_not_set_aside(head_referee, referee):
    tournament = qualified()
    decision = TieDecision.objects.create(
        tournament=tournament, order=["p8", "p6"], reason="lot", decided_by=head_referee
    )
    with pytest.raises(Refused, match="^tie_decision_stands$"):
        ties.set_decision_aside(tournament, decision.pk, reason="why not", user=head_referee)
    with pytest.raises(Refused, match="^tie_head_referee_only$"):
        ties.set_decision_aside(tournament, decision.pk, reason="why not", user=referee)
    assert TieDecision.objects.count() == 1 and not AuditEntry.objects.exists()

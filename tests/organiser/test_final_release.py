"""How the final's results reach the public (SPEC §8, regulations §12.3): chosen when the
tournament is created (hidden until the medal ceremony by default, or live), shown and changed
on the dashboard before the final starts, audited, fixed once the final has started."""

import pytest
from django.test import Client

from organiser import services
from tests.factories import build, out_game, settings_data, table
from tournament.models import AuditEntry, Tournament

pytestmark = pytest.mark.django_db

CHANGE = "/staff/test/final/release/"


def qualified(**settings):
    """`test`: one qualifying round of one table completed; the final not seated yet."""
    games = [out_game(1, "A", B=(5, 0), C=(6, 0), D=(7, 0))]
    rounds = [{"number": 1, "state": "completed", "tables": [table(1, ["p1", "p2", "p3", "p4"], games)]}]
    return build(4, rounds=rounds, settings={"rounds_planned": 1, **settings})


def plan_changes(tournament):
    entries = AuditEntry.objects.filter(tournament=tournament, action="final_release").order_by("pk")
    return [(entry.before["final_release"], entry.after["final_release"], entry.reason) for entry in entries]


def test_a_new_tournament_with_a_final_hides_its_results_until_the_ceremony_unless_live_is_chosen(organiser_client):
    organiser_client.post("/staff/new/", settings_data())
    organiser_client.post("/staff/new/", settings_data(name="Złota Jesień", final_release="live"))
    assert dict(Tournament.objects.values_list("name", "final_release")) == {
        "Senioriada Łódź": "ceremony",
        "Złota Jesień": "live",
    }
    html = organiser_client.get("/staff/new/").content.decode()
    assert 'value="ceremony" required id="id_final_release_0" checked' in html


def test_the_dashboard_shows_the_plan_and_changes_it_with_a_logged_reason(head_referee_client, head_referee):
    tournament = qualified()
    html = head_referee_client.get("/staff/test/").content.decode()
    assert "Planned: hidden until the medal ceremony." in html
    assert 'name="final_release" value="live"' in html and "Show the final's results live instead" in html
    response = head_referee_client.post(CHANGE, {"final_release": "live", "reason": "the club wants it live"})
    assert response.status_code == 302 and response["Location"] == "/staff/test/"
    tournament.refresh_from_db()
    assert tournament.final_release == "live"
    assert plan_changes(tournament) == [("ceremony", "live", "the club wants it live")]
    html = head_referee_client.get("/staff/test/").content.decode()
    assert "Planned: live." in html and 'name="final_release" value="ceremony"' in html
    head_referee_client.post(CHANGE, {"final_release": "live"})  # the plan it has: nothing more is logged
    assert len(plan_changes(tournament)) == 1


def test_once_the_final_has_started_the_plan_no_longer_changes(organiser_client, organiser):
    tournament = qualified()
    services.start_round(services.seat_final(tournament, user=organiser), user=organiser)
    html = organiser_client.get("/staff/test/").content.decode()
    assert (
        "Hidden from the public until the medal ceremony" in html and 'action="/staff/test/final/release/"' not in html
    )
    response = organiser_client.post(CHANGE, {"final_release": "live"}, follow=True)
    assert "The final has started, so the plan for its results no longer changes." in response.content.decode()
    form = organiser_client.get("/staff/test/settings/").context["form"]
    assert form.fields["final_release"].disabled
    tournament.refresh_from_db()
    organiser_client.post("/staff/test/settings/", settings_data(tournament, final_release="live"))
    tournament.refresh_from_db()
    assert (tournament.final_release, tournament.visibility, plan_changes(tournament)) == ("ceremony", "hidden", [])


def test_the_settings_form_changes_the_plan_before_the_final_and_logs_it(organiser_client):
    tournament = qualified()
    response = organiser_client.post("/staff/test/settings/", settings_data(tournament, final_release="live"))
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.final_release == "live"
    assert plan_changes(tournament) == [("ceremony", "live", "changed in the tournament settings")]


@pytest.mark.parametrize("post", [{}, {"final_release": "sometimes"}, {"final_release": "live", "reason": "x" * 501}])
def test_a_bad_post_changes_nothing(head_referee_client, post):
    tournament = qualified()
    response = head_referee_client.post(CHANGE, post, follow=True)
    assert "Choose hidden until the ceremony or live." in response.content.decode()
    tournament.refresh_from_db()
    assert (tournament.final_release, plan_changes(tournament)) == ("ceremony", [])


def test_only_staff_who_control_the_results_may_change_the_plan(referee_client):
    qualified()
    assert referee_client.post(CHANGE, {"final_release": "live"}).status_code == 403
    assert Client().post(CHANGE, {"final_release": "live"}).status_code == 302  # to the sign-in page
    assert Tournament.objects.get().final_release == "ceremony"


def test_a_tournament_without_a_final_has_no_plan_on_its_dashboard(organiser_client):
    qualified(final=False)
    assert 'id="final-release"' not in organiser_client.get("/staff/test/").content.decode()
    assert "no final" in organiser_client.post(CHANGE, {"final_release": "live"}, follow=True).content.decode()

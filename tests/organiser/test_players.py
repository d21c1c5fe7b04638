"""Registering players: the list, adding, editing, removing, check-in, late arrival, withdrawal."""

import re

import pytest

from organiser import selectors, services
from tests.factories import build, checked_in, table
from tournament.models import AuditEntry, Organisation, Player
from tournament.refusals import Refused

pytestmark = pytest.mark.django_db


HTMX = {"HX-Request": "true"}


def add(client, name, organisation, headers=None, follow=False, **more):
    """Post the add form: `name` is "Given names Surname" (the surname is the last word)."""
    given_names, _space, surname = name.strip().rpartition(" ")
    data = {"surname": surname, "given_names": given_names, "organisation": organisation, **more}
    return client.post("/staff/test/players/", data, headers=headers, follow=follow)


def is_fragment(response):
    return "<!doctype" not in response.content.decode().lower()


def started_round_1():
    """Tournament `test`: 8 players, p1–p7 checked in and seated in round 1, which has started."""
    tournament = build(
        8,
        rounds=[
            {
                "number": 1,
                "state": "started",
                "tables": [table(1, ["p1", "p2", "p3", "p4"]), table(2, ["p5", "p6", "p7"])],
            }
        ],
    )
    Player.objects.filter(tournament=tournament).exclude(ext_id="p8").update(present=True)
    return tournament


def test_the_list_is_in_surname_order_with_start_numbers(organiser_client):
    tournament = build(0)
    for name in [
        "Barbara Żak",
        "Łukasz Lis",
        "Andrzej Nowak",
        "Jan Ćwik",
        "Adam Łukasz",
        "Anna Cebula",
        "Ewa Lis",
        "Zenon Zając",
    ]:
        services.add_player(tournament, name=name, organisation=f"Klub {name}", user=None)
    response = organiser_client.get("/staff/test/players/")
    rows = [(p.start_number, p.surname_first) for p in response.context["players"]]
    # By first name Adam, Andrzej and Anna would lead; by surname: c < ć, l < ł, ż last.
    assert rows == [
        (6, "Cebula Anna"),
        (4, "Ćwik Jan"),
        (7, "Lis Ewa"),
        (2, "Lis Łukasz"),
        (5, "Łukasz Adam"),
        (3, "Nowak Andrzej"),
        (8, "Zając Zenon"),
        (1, "Żak Barbara"),
    ]
    html = response.content.decode()
    assert "By surname, A–Ż" in html
    shown = [html.index(f">{name}</a>") for _number, name in rows]
    assert shown == sorted(shown)


def test_the_add_and_edit_forms_take_the_surname_and_given_names_apart(organiser_client):
    build(1)
    html = organiser_client.get("/staff/test/players/").content.decode()
    assert 'name="surname"' in html and 'name="given_names"' in html and 'name="name"' not in html
    assert 'name="arrival"' not in html  # before round 1 the desk checks players in
    response = add(organiser_client, "", "Klub 7", given_names="Anna Maria", surname="  Nowak-Lis ")
    assert response.status_code == 302
    player = Player.objects.get(surname="Nowak-Lis")
    assert (player.given_names, player.name, player.present) == ("Anna Maria", "Anna Maria Nowak-Lis", False)
    page = organiser_client.get(f"/staff/test/players/{player.pk}/").content.decode()
    assert 'value="Nowak-Lis"' in page and 'value="Anna Maria"' in page
    edited = {"surname": "Lis", "given_names": "Anna", "organisation": "Klub 7"}
    assert organiser_client.post(f"/staff/test/players/{player.pk}/", edited).status_code == 302
    player.refresh_from_db()
    assert (player.surname, player.given_names, player.name) == ("Lis", "Anna", "Anna Lis")
    response = organiser_client.post(f"/staff/test/players/{player.pk}/", {**edited, "surname": " "})
    assert response.status_code == 200 and "surname" in response.context["form"].errors


def test_adding_a_player_gives_the_next_start_number_id_and_organisation_place(organiser_client):
    build(3, settings={"players_per_organisation": 2})
    response = add(organiser_client, "  Anna   Nowak ", "Klub 2")
    assert response.status_code == 302
    player = Player.objects.get(name="Anna Nowak")
    assert (player.start_number, player.ext_id, player.org_slot, player.organisation.name) == (4, "p4", 2, "Klub 2")
    assert not player.present
    add(organiser_client, "Jan Lis", "klub 2 ")  # the same organisation, whatever the case
    assert Player.objects.filter(organisation__name="Klub 2").count() == 2
    assert (
        "already has 2 players; the limit is 2"
        in add(organiser_client, "Ewa Bąk", "KLUB 2").context["form"].errors["organisation"][0]
    )


def test_the_quota_and_duplicates_are_refused_next_to_the_field(organiser_client):
    build(2)
    response = add(organiser_client, "Gracz 1", "Klub 1")
    assert response.status_code == 200
    assert response.context["form"].errors["surname"] == ["Gracz 1 is already registered for Klub 1."]
    response = add(organiser_client, "Ktoś Inny", "Klub 1")
    assert response.context["form"].errors["organisation"] == [
        "Klub 1 already has 1 player; the limit is 1 per organisation."
    ]
    response = add(organiser_client, "   ", "Klub 9", headers=HTMX)
    assert response.status_code == 200 and "surname" in response.context["form"].errors
    assert is_fragment(response) and 'id="add-player"' in response.content.decode()
    assert Player.objects.count() == 2


def test_a_new_id_never_collides_with_an_imported_one(organiser_client):
    tournament = build(2)
    Player.objects.filter(ext_id="p2").update(ext_id="p3")
    player = services.add_player(tournament, name="Nowy", organisation="Klub X", user=None)
    assert (player.start_number, player.ext_id) == (3, "p3x")


def test_editing_moves_a_player_to_another_organisation_and_cleans_up(organiser_client):
    tournament = build(2)
    player = Player.objects.get(ext_id="p1")
    response = organiser_client.post(
        f"/staff/test/players/{player.pk}/",
        {"surname": "Pierwszy", "given_names": "Gracz", "organisation": "Nowy Klub"},
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert (player.name, player.organisation.name, player.org_slot) == ("Gracz Pierwszy", "Nowy Klub", 1)
    assert not Organisation.objects.filter(tournament=tournament, name="Klub 1").exists()
    response = organiser_client.post(
        f"/staff/test/players/{player.pk}/", {"surname": "2", "given_names": "Gracz", "organisation": "Klub 2"}
    )
    assert response.status_code == 200
    assert response.context["form"].errors["surname"] == ["Gracz 2 is already registered for Klub 2."]


def test_a_player_registered_by_mistake_is_removed_before_round_1(organiser_client):
    build(5)
    p5 = Player.objects.get(ext_id="p5")
    assert organiser_client.post(f"/staff/test/players/{p5.pk}/remove/", {"confirm": "remove"}).status_code == 302
    assert not Player.objects.filter(ext_id="p5").exists()
    assert not Organisation.objects.filter(name="Klub 5").exists()


def test_a_player_in_a_draft_cannot_be_removed_until_the_draw_is_discarded(organiser_client):
    tournament = checked_in(4)
    round_ = services.draw_round(tournament, user=None)
    player = Player.objects.get(ext_id="p1")
    with pytest.raises(Refused, match="^seated_in_draft$") as refused:
        services.remove_player(player, user=None)
    assert "is seated in Round 1, which is drawn but not started. Discard that draw first" in refused.value.message
    services.discard_round(round_, user=None)
    services.remove_player(player, user=None)
    assert Player.objects.count() == 3


def test_after_round_1_has_started_players_are_withdrawn_not_removed(organiser_client):
    started_round_1()
    p1 = Player.objects.get(ext_id="p1")
    response = organiser_client.post(f"/staff/test/players/{p1.pk}/remove/", {"confirm": "remove"}, follow=True)
    assert "withdraw the player instead" in response.content.decode()
    assert Player.objects.filter(pk=p1.pk).exists()
    organiser_client.post(f"/staff/test/players/{p1.pk}/withdraw/", {"confirm": "withdraw"})
    p1.refresh_from_db()
    assert p1.status == "withdrawn"
    assert AuditEntry.objects.filter(action="player_withdraw").count() == 1
    response = organiser_client.post(f"/staff/test/players/{p1.pk}/withdraw/", {"confirm": "withdraw"}, follow=True)
    assert "Gracz 1 is not active." in response.content.decode()
    organiser_client.post(f"/staff/test/players/{p1.pk}/reinstate/")
    p1.refresh_from_db()
    assert p1.status == "active"


def test_check_in_from_the_list_swaps_only_the_row(organiser_client):
    build(4)
    player = Player.objects.get(ext_id="p2")
    response = organiser_client.post(f"/staff/test/players/{player.pk}/check-in/", {"row": "1"}, headers=HTMX)
    assert response.status_code == 200 and is_fragment(response)
    assert f'id="player-{player.pk}"' in response.content.decode()
    assert "checked in" in response.content.decode() and "Undo check-in" in response.content.decode()
    player.refresh_from_db()
    assert (player.present, player.joins_from_round) == (True, None)
    organiser_client.post(f"/staff/test/players/{player.pk}/check-out/")
    player.refresh_from_db()
    assert not player.present


def test_check_in_everyone_before_round_1_only(organiser_client):
    build(6)
    Player.objects.filter(ext_id="p6").update(status="withdrawn")
    organiser_client.post("/staff/test/players/check-in-everyone/")
    assert list(Player.objects.filter(present=True).values_list("ext_id", flat=True).order_by("start_number")) == [
        "p1",
        "p2",
        "p3",
        "p4",
        "p5",
    ]


def test_a_late_arrival_joins_from_the_next_round(organiser_client):
    started_round_1()
    p8 = Player.objects.get(ext_id="p8")
    response = organiser_client.get("/staff/test/players/")
    assert "A player who arrives now plays from round 2." in response.content.decode()
    response = organiser_client.post(f"/staff/test/players/{p8.pk}/check-in/", {"row": "1"}, headers=HTMX)
    assert "plays from round 2" in response.content.decode()
    p8.refresh_from_db()
    assert (p8.present, p8.joins_from_round) == (True, 2)
    assert list(selectors.eligible_players(p8.tournament, 1).filter(pk=p8.pk)) == []
    assert list(selectors.eligible_players(p8.tournament, 2).filter(pk=p8.pk)) == [p8]
    # Undoing the arrival is fine (not seated yet); checking out someone who played is not.
    organiser_client.post(f"/staff/test/players/{p8.pk}/check-out/")
    p8.refresh_from_db()
    assert (p8.present, p8.joins_from_round) == (False, None)
    p1 = Player.objects.get(ext_id="p1")
    response = organiser_client.post(f"/staff/test/players/{p1.pk}/check-out/", {"row": "1"}, headers=HTMX)
    assert "has already played: withdraw them instead" in response.content.decode()
    assert Player.objects.get(pk=p1.pk).present
    response = organiser_client.post("/staff/test/players/check-in-everyone/", follow=True)
    assert "check in late arrivals one by one" in response.content.decode()


def test_a_player_added_after_the_start_is_seated_once_checked_in(organiser_client):
    tournament = started_round_1()
    player = services.add_player(tournament, name="Spóźniona", organisation="Klub Nowy", present=False, user=None)
    assert (player.present, player.joins_from_round) == (False, None)
    services.set_present(player, present=True, user=None)
    player.refresh_from_db()
    assert player.joins_from_round == 2


def test_a_player_added_after_the_start_is_here_by_default(organiser_client):
    tournament = started_round_1()
    assert services.add_player(tournament, name="Ewa Późna", organisation="Klub A", user=None).joins_from_round == 2
    html = organiser_client.get("/staff/test/players/").content.decode()
    assert "Here now: checked in, plays from round 2" in html and "Not here yet" in html
    assert re.search(r'<input type="radio" name="arrival" value="here"[^>]* checked', html)
    response = add(organiser_client, "Anna Spóźniona", "Klub B", follow=True)
    assert "Anna Spóźniona has start number 10 and plays from round 2." in response.content.decode()
    late = Player.objects.get(surname="Spóźniona")
    assert (late.present, late.joins_from_round) == (True, 2)
    assert late in selectors.eligible_players(tournament, 2)
    add(organiser_client, "Jan Jutro", "Klub C", arrival="not-yet")
    later = Player.objects.get(surname="Jutro")
    assert (later.present, later.joins_from_round) == (False, None)


def test_an_unknown_player_action_is_refused(organiser_client):
    build(4)
    player = Player.objects.get(ext_id="p1")
    assert organiser_client.post(f"/staff/test/players/{player.pk}/explode/").status_code == 403


@pytest.mark.parametrize("n_players", [8, 40])
def test_the_player_list_costs_the_same_number_of_queries_for_8_and_40_players(
    organiser_client, django_assert_max_num_queries, n_players
):
    build(n_players)
    Player.objects.filter(start_number__lte=n_players // 2).update(present=True)
    # 10: the page, its counts and names, the recognised people and the likely duplicates (one query each)
    with django_assert_max_num_queries(10):
        response = organiser_client.get("/staff/test/players/")
    assert len(response.context["players"]) == n_players

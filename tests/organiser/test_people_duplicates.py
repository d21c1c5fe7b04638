"""Likely duplicates (issue 48.3): the people page and the players' page flag two records of one
organisation that may be one person (the same words in another order, or one letter off), with a
link to the person's page where "the same person as…" has that record chosen; nothing is merged
until the organiser confirms there, and the flags cost one query however many people there are."""

import pytest

from organiser import selectors, services
from tests.support.people import earlier, pk_of, season_with_typos
from tournament.models import HostOrganisation, Person

pytestmark = pytest.mark.django_db


def test_the_selector_pairs_the_likely_duplicates_in_one_query(django_assert_num_queries):
    tournament = season_with_typos()
    with django_assert_num_queries(1):
        found = selectors.likely_duplicates(tournament.host_id)
    maria, teresa = pk_of("Chmiel", "Maria Teresa"), pk_of("Maria", "Chmiel Teresa")
    kowalski, kowlaski = pk_of("Kowalski", "Jan"), pk_of("Kowlaski", "Jan")
    assert {pk: [(other.pk, other.name) for other in others] for pk, others in found.items()} == {
        maria: [(teresa, "Maria Chmiel Teresa")],
        teresa: [(maria, "Chmiel Maria Teresa")],
        kowalski: [(kowlaski, "Kowlaski Jan")],
        kowlaski: [(kowalski, "Kowalski Jan")],
    }


def test_another_organisations_people_are_never_flagged():
    tournament = season_with_typos()
    other = HostOrganisation.objects.create(name="Inna organizacja", slug="inna")
    earlier("obcy", ("Jan Kowalsky", "Klub"), host=other)
    found = selectors.likely_duplicates(tournament.host_id)
    assert pk_of("Kowalsky", "Jan") not in found
    assert selectors.likely_duplicates(other.pk) == {}


def test_the_people_page_flags_them_with_a_link_to_merge_and_merges_nothing(organiser_client):
    tournament = season_with_typos()
    html = organiser_client.get("/staff/test/people/").content.decode()
    maria, teresa = pk_of("Chmiel", "Maria Teresa"), pk_of("Maria", "Chmiel Teresa")
    assert f'href="/staff/test/people/{maria}/?same_as={teresa}#merge"' in html
    assert f'href="/staff/test/people/{teresa}/?same_as={maria}#merge"' in html
    assert html.count('class="likely-duplicate"') == 4  # Chmiel ×2, Kowalski/Kowlaski ×2; Nowak/Nowicka not
    assert "Maybe the same person as Maria Chmiel Teresa" in html
    assert not Person.objects.filter(host=tournament.host_id, merged_into__isnull=False).exists()


def test_the_merge_link_opens_the_person_with_the_record_chosen(organiser_client):
    season_with_typos()
    maria, teresa = pk_of("Chmiel", "Maria Teresa"), pk_of("Maria", "Chmiel Teresa")
    html = organiser_client.get(f"/staff/test/people/{teresa}/?same_as={maria}").content.decode()
    assert f'<option value="{maria}" selected>' in html
    assert not Person.objects.filter(merged_into__isnull=False).exists()  # chosen, not merged
    assert organiser_client.get(f"/staff/test/people/{teresa}/?same_as=x").status_code == 200  # nothing chosen
    assert organiser_client.get(f"/staff/test/people/{teresa}/?same_as=x%00").status_code == 400  # NUL: a bad request


def test_the_players_page_flags_a_player_whose_person_has_a_likely_duplicate(organiser_client):
    tournament = season_with_typos()
    # registered in this tournament as typed in March: the same person as Jan Kowlaski
    services.add_player(tournament, surname="Kowlaski", given_names="Jan", organisation="UTW Kraków", user=None)
    html = organiser_client.get("/staff/test/players/").content.decode()
    kowalski, kowlaski = pk_of("Kowalski", "Jan"), pk_of("Kowlaski", "Jan")
    assert f'href="/staff/test/people/{kowlaski}/?same_as={kowalski}#merge"' in html
    assert "Maybe the same person as Kowalski Jan" in html


@pytest.mark.parametrize("extra", [0, 30])
def test_the_people_page_reads_a_fixed_number_of_queries(organiser_client, django_assert_max_num_queries, extra):
    season_with_typos()
    if extra:
        earlier("kwiecien", *[(f"Osoba{n:03d} Nazwisko{n:03d}", f"UTW {n}") for n in range(extra)], date="2026-04-01")
    with django_assert_max_num_queries(5):  # session, user, tournament, the people, the likely duplicates
        assert organiser_client.get("/staff/test/people/").status_code == 200

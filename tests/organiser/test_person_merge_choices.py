"""Issue 50: the person page's "the same person as…" offers a bounded list (the same surname
first, then the likely duplicates, then the others in surname order; a search finds the rest, with
a line saying how many more match), while the merge still takes anyone of the organisation; its
queries and size do not grow with the organisation's people."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from organiser.person_selectors import MERGE_CHOICES, merge_choices
from tests.factories import build
from tournament.models import AuditEntry, HostOrganisation, Person
from tournament.names import full_name
from tournament.text import match_key

pytestmark = pytest.mark.django_db

OPTION = re.compile(r'<option value="(\d+)"')


def person(host, given_names, surname, club="UTW Kraków"):
    return Person.objects.create(host=host, given_names=given_names, surname=surname, club=club)


def crowd(host, count):
    """`count` people of `host` named Osoba NNN Nazwisko NNN (none alike Łucja Żak)."""
    crowd_from(host, 0, count)


@pytest.fixture
def lucja():
    """Łucja Żak and nine others of her organisation (hand-sorted in the tests below)."""
    host = build(0).host
    for given_names, surname in [
        ("Adam", "Bąk"),
        ("Ewa", "Adamska"),
        ("Celina", "Ćwik"),
        ("Zofia", "Zając"),
        ("Jan", "Zak"),  # the same surname, Polish letters aside
        ("Anna", "ŻAK"),  # the same surname, case aside
        ("Maria", "Nowak Żak"),  # a longer surname that ends in it: not the same
        ("Łucja", "Żaak"),  # one letter more: a likely duplicate
        ("Żak", "Łucja"),  # the same words in another order: a likely duplicate
    ]:
        person(host, given_names, surname)
    return person(host, "Łucja", "Żak")


def names(people):
    return [f"{other.surname} {other.given_names}" for other in people]


def pk(surname):
    return Person.objects.get(surname=surname).pk


def test_without_a_search_the_same_surname_comes_first_then_the_likely_duplicates_then_the_others(lucja):
    choices = merge_choices(lucja, limit=6)
    assert names(choices.people) == ["Zak Jan", "ŻAK Anna", "Łucja Żak", "Żaak Łucja", "Adamska Ewa", "Bąk Adam"]
    assert (choices.shown, choices.total, choices.more) == (6, 9, True)
    everyone = merge_choices(lucja)
    assert len(everyone.people) == 9 and lucja not in everyone.people
    assert (everyone.shown, everyone.total, everyone.more) == (9, 9, False)


def test_a_search_ignores_polish_letters_and_case_and_counts_who_it_finds(lucja):
    found = merge_choices(lucja, search="zak")  # not Łucja Żak herself; Żaak holds "zaak"
    assert names(found.people) == ["Łucja Żak", "Nowak Żak Maria", "Zak Jan", "ŻAK Anna"]
    assert (found.shown, found.total, found.more) == (4, 4, False)
    fewer = merge_choices(lucja, search="ZAK", limit=3)
    assert len(fewer.people) == 3 and set(fewer.people) < set(found.people)
    assert (fewer.shown, fewer.total, fewer.more) == (3, 4, True)
    assert merge_choices(lucja, search="nikt taki").people == []


def test_the_chosen_person_is_always_offered_first_if_the_organisation_has_them(lucja):
    chosen = merge_choices(lucja, limit=2, chosen=pk("Zając"))
    assert names(chosen.people) == ["Zając Zofia", "Zak Jan", "ŻAK Anna"]
    assert (chosen.shown, chosen.total) == (2, 9)
    assert names(merge_choices(lucja, search="adamska", chosen=pk("Zając")).people) == ["Zając Zofia", "Adamska Ewa"]
    stranger = person(HostOrganisation.objects.create(name="Inna", slug="inna"), "Jan", "Obcy")
    merged = Person.objects.get(surname="Ćwik")
    Person.objects.filter(pk=merged.pk).update(merged_into=pk("Bąk"))
    for nobody in (stranger.pk, merged.pk, lucja.pk, 10**12):
        assert merge_choices(lucja, limit=2, chosen=nobody).people == merge_choices(lucja, limit=2).people


def test_the_page_offers_at_most_the_limit_and_says_how_to_find_the_others(organiser_client, lucja):
    crowd(lucja.host, 40)
    html = organiser_client.get(f"/staff/test/people/{lucja.pk}/").content.decode()
    offered = OPTION.findall(html)
    assert len(offered) == MERGE_CHOICES == 30
    assert offered[:4] == [str(pk(surname)) for surname in ("Zak", "ŻAK", "Łucja", "Żaak")]
    assert "Showing 30 of 49 people: search by name for the others." in html
    found = organiser_client.get(f"/staff/test/people/{lucja.pk}/?find=nazwisko0").content.decode()
    assert len(OPTION.findall(found)) == 30
    assert "Showing 30 of 40 people found: type more of the name." in found
    assert 'name="find" value="nazwisko0"' in found  # the search field, and kept in the merge form
    narrowed = organiser_client.get(f"/staff/test/people/{lucja.pk}/?find=lucja+zaak").content.decode()
    assert OPTION.findall(narrowed) == [str(pk("Żaak"))]
    assert "Showing" not in narrowed
    nobody = organiser_client.get(f"/staff/test/people/{lucja.pk}/?find=nikt").content.decode()
    assert OPTION.findall(nobody) == [] and "Nobody of that name." in nobody


@pytest.mark.parametrize(
    ("total", "polish"),
    [
        (32, "Pokazano 30 z 32 znalezionych osób: wpisz więcej liter imienia lub nazwiska."),
        (35, "Pokazano 30 z 35 znalezionych osób: wpisz więcej liter imienia lub nazwiska."),
        (122, "Pokazano 30 z 122 znalezionych osób: wpisz więcej liter imienia lub nazwiska."),
    ],
)
def test_the_line_in_polish(organiser_client, lucja, total, polish):
    crowd(lucja.host, total)
    html = organiser_client.get(f"/staff/test/people/{lucja.pk}/?find=osoba", HTTP_ACCEPT_LANGUAGE="pl")
    assert polish in html.content.decode()


def test_the_polish_plural_forms_of_both_lines():
    with translation.override("pl"):
        one = translation.ngettext(
            "Showing %(shown)s of %(counter)s person: search by name for the others.",
            "Showing %(shown)s of %(counter)s people: search by name for the others.",
            1,
        )
        few = translation.ngettext(
            "Showing %(shown)s of %(counter)s person found: type more of the name.",
            "Showing %(shown)s of %(counter)s people found: type more of the name.",
            34,
        )
    assert one % {"shown": 1, "counter": 1} == "Pokazano 1 z 1 osoby: pozostałe znajdzie wyszukiwanie po nazwisku."
    assert few % {"shown": 30, "counter": 34} == (
        "Pokazano 30 z 34 znalezionych osób: wpisz więcej liter imienia lub nazwiska."
    )


def test_a_person_not_in_the_list_is_still_merged_if_the_organisation_has_them(organiser_client, lucja):
    crowd(lucja.host, 40)
    far = Person.objects.get(surname="Nazwisko039")
    assert str(far.pk) not in OPTION.findall(organiser_client.get(f"/staff/test/people/{lucja.pk}/").content.decode())
    response = organiser_client.post(f"/staff/test/people/{lucja.pk}/merge/", {"survivor": far.pk, "reason": "ta sama"})
    assert response.status_code == 302 and response["Location"] == f"/staff/test/people/{far.pk}/"
    lucja.refresh_from_db()
    assert lucja.merged_into == far
    assert AuditEntry.objects.get(action="person_merge").after["merged_into"]["uid"] == str(far.uid)


@pytest.mark.parametrize("who", ["stranger", "itself", "merged", "nobody", "not a number"])
def test_another_organisations_person_itself_or_a_merged_record_is_refused_and_nothing_changes(
    organiser_client, lucja, who
):
    stranger = person(HostOrganisation.objects.create(name="Inna", slug="inna"), "Łucja", "Żak")
    merged = Person.objects.get(surname="Ćwik")
    Person.objects.filter(pk=merged.pk).update(merged_into=pk("Bąk"))
    survivor, message = {
        "stranger": (stranger.pk, "That person is not one of this organisation&#x27;s people: choose another."),
        "itself": (lucja.pk, "A record cannot be merged into itself: choose another person."),
        "merged": (merged.pk, "The record of Celina Ćwik has been merged into another one: use that one."),
        "nobody": (10**12 - 1, "That person is not one of this organisation&#x27;s people: choose another."),
        "not a number": ("x", "Enter a whole number."),
    }[who]
    response = organiser_client.post(
        f"/staff/test/people/{lucja.pk}/merge/", {"survivor": survivor, "reason": "ta sama", "find": "zak"}
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert message in html
    assert 'name="find" value="zak"' in html and len(OPTION.findall(html)) == 4  # the search kept
    assert Person.objects.filter(merged_into__isnull=False).count() == 1  # Ćwik's, as before
    assert not AuditEntry.objects.filter(action="person_merge").exists()


def crowd_from(host, start, count):
    people = [
        Person(host=host, given_names=f"Osoba{n:03d}", surname=f"Nazwisko{n:03d}", club="Klub")
        for n in range(start, start + count)
    ]
    for each in people:
        each.name_key = match_key(full_name(each.given_names, each.surname))
    Person.objects.bulk_create(people)


def measured(send):
    with CaptureQueriesContext(connection) as queries:
        response = send()
    assert response.status_code == 200
    return len(queries), len(response.content)


@pytest.mark.parametrize("url", ["", "?find=osoba", "?same_as={zak}"])
def test_the_page_reads_as_many_queries_and_weighs_about_the_same_for_10_or_300_people(organiser_client, lucja, url):
    crowd_from(lucja.host, 0, 1)  # Łucja Żak, her 9 others and 1: 10 people besides her
    address = f"/staff/test/people/{lucja.pk}/" + url.format(zak=pk("Zak"))
    small_queries, small_size = measured(lambda: organiser_client.get(address))
    crowd_from(lucja.host, 1, 290)
    large_queries, large_size = measured(lambda: organiser_client.get(address))
    assert large_queries == small_queries <= 14
    # 10 people: 10 options; 300: 30 (~100 bytes each). Listing all 300 would add ~29 KB.
    assert large_size - small_size < 20 * 130


def test_a_merge_reads_as_many_queries_for_10_or_300_people(organiser_client, lucja):
    crowd_from(lucja.host, 0, 1)
    address = f"/staff/test/people/{lucja.pk}/merge/"
    refused = {"survivor": pk("Zak"), "reason": ""}
    small = measured(lambda: organiser_client.post(address, refused))
    crowd_from(lucja.host, 1, 290)
    large = measured(lambda: organiser_client.post(address, refused))
    assert large[0] == small[0] and large[1] - small[1] < 20 * 130
    with CaptureQueriesContext(connection) as queries:
        response = organiser_client.post(address, {"survivor": pk("Nazwisko290"), "reason": "ta sama"})
    assert response.status_code == 302
    assert len(queries) <= 20

"""The service's lists (`tournament.listing`): upcoming tournaments first, the nearest first, then
the past ones, the most recent first; a search by name or short address with case and Polish
diacritics ignored; PAGE_SIZE rows a page, whatever number the request names."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournament.listing import PAGE_SIZE, UpcomingThenPast, host_page, in_listing_order, search_of, searched
from tournament.models import HostOrganisation, Tournament
from tournament.selectors import public_tournament_page

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2026, 6, 15)


def tournament(name, slug, date, host=None):
    host = host or HostOrganisation.objects.get_or_create(slug="utw", defaults={"name": "UTW"})[0]
    return Tournament.objects.create(host=host, name=name, slug=slug, date=date)


def test_upcoming_tournaments_come_first_the_nearest_first_then_the_most_recent():
    for slug, date in [
        ("past-old", "2026-01-10"),
        ("later", "2026-09-01"),
        ("today", "2026-06-15"),
        ("past-recent", "2026-06-14"),
        ("soon", "2026-06-20"),
    ]:
        tournament(slug.title(), slug, date)
    order = [t.slug for t in in_listing_order(Tournament.objects.all(), TODAY)]
    assert order == ["today", "soon", "later", "past-recent", "past-old"]


def test_the_search_ignores_case_diacritics_and_word_order_and_reads_the_address_too():
    tournament("Puchar Łodzi 2026", "puchar-lodzi", "2026-05-01")
    tournament("Turniej Kraków", "krakow-wiosna", "2026-04-01")
    tournament("Mistrzostwa Śląska", "slask", "2026-03-01")

    def found(search):
        return sorted(t.slug for t in searched(Tournament.objects.all(), search))

    assert found("LODZI") == ["puchar-lodzi"]
    assert found("2026 puchar") == ["puchar-lodzi"]
    assert found("slaska") == ["slask"]
    assert found("wiosna") == ["krakow-wiosna"]  # only in its address
    assert found("krakow wiosna") == ["krakow-wiosna"]
    assert found("warszawa") == []
    assert found("  ") == ["krakow-wiosna", "puchar-lodzi", "slask"]


def test_a_search_key_follows_a_rename():
    renamed = tournament("Stara nazwa", "turniej", "2026-05-01")
    renamed.name = "Złota Jesień"
    renamed.save(update_fields=["name"])
    assert [t.slug for t in searched(Tournament.objects.all(), "zlota jesien")] == ["turniej"]
    host = HostOrganisation.objects.create(name="Klub Żółw", slug="zolw")
    assert list(host_page(HostOrganisation.objects.all(), search="ZOLW").object_list) == [host]


def test_a_list_of_45_pages_20_20_and_5_and_a_wrong_page_number_is_no_error():
    start = datetime.date(2020, 1, 1)
    for n in range(45):
        tournament(f"Turniej {n}", f"t-{n}", start + datetime.timedelta(days=n))
    assert PAGE_SIZE == 20
    pages = [public_tournament_page(number=n) for n in (1, 2, 3)]
    assert [len(page.object_list) for page in pages] == [20, 20, 5]
    # All past: the most recent first (day 44 first, day 0 last).
    assert pages[0].object_list[0].slug == "t-44" and pages[2].object_list[-1].slug == "t-0"
    assert public_tournament_page(number="abc").number == 1
    assert public_tournament_page(number="99").number == 3


def test_an_empty_list_and_a_search_finding_nothing_are_one_empty_page():
    assert public_tournament_page().object_list == []
    tournament("Puchar", "puchar", "2026-05-01")
    assert public_tournament_page(search="warszawa", number="3").object_list == []


def test_one_organisations_list_holds_its_tournaments_only():
    other = HostOrganisation.objects.create(name="Klub", slug="klub")
    mine = tournament("Mój", "moj", "2026-05-01")
    tournament("Obcy", "obcy", "2026-05-01", host=other)
    assert [t.slug for t in public_tournament_page(mine.host).object_list] == ["moj"]


def test_a_search_typed_is_trimmed():
    assert search_of("  Puchar   Łodzi ") == "Puchar Łodzi"
    assert search_of(None) == ""
    assert len(search_of("x" * 500)) == 100


@pytest.mark.parametrize("upcoming", [0, 1, 19, 20, 21, 45])
def test_the_pages_read_by_date_hold_the_lists_order_across_upcoming_and_past(upcoming):
    """45 tournaments, `upcoming` of them today or later: page after page is the order of
    `in_listing_order` (20, 20, 5), each page read by date, in a bounded slice (LIMIT), never by
    sorting every tournament on an expression and never counting them all."""
    for n in range(45):
        day = TODAY + datetime.timedelta(days=n - 45 + upcoming)  # the last `upcoming` are today or later
        tournament(f"Turniej {n % 7}", f"t-{n}", day)
    expected = [t.slug for t in in_listing_order(Tournament.objects.all(), TODAY)]
    rows = UpcomingThenPast(Tournament.objects.all(), TODAY)
    pages = []
    for start in (0, 20, 40):
        with CaptureQueriesContext(connection) as queries:
            pages.append([t.slug for t in rows[start : start + 20]])
        # upcoming rows, then past ones when the slice reaches past the upcoming; a slice that
        # starts past them counts the upcoming ones before it (at most `start` rows) first.
        reads_past = start + 20 > upcoming
        counts_first = reads_past and upcoming <= start and start > 0
        assert len(queries) == 1 + reads_past + counts_first
        assert all("LIMIT" in q["sql"] and "CASE" not in q["sql"] for q in queries)
    assert [len(page) for page in pages] == [20, 20, 5]
    assert sum(pages, []) == expected


def test_a_page_reads_one_row_more_to_know_of_the_next_and_counts_nothing():
    for n in range(41):
        tournament(f"Turniej {n}", f"t-{n}", datetime.date(2020, 1, 1) + datetime.timedelta(days=n))
    with CaptureQueriesContext(connection) as queries:
        first = public_tournament_page(number=1)
    assert len(queries) == 2  # no upcoming ones (one query), then 21 past ones
    assert not any("COUNT" in q["sql"] for q in queries)
    assert (first.has_previous(), first.has_next()) == (False, True)
    last = public_tournament_page(number=3)
    assert [t.slug for t in last] == ["t-0"] and (last.has_previous(), last.has_next()) == (True, False)
    assert last.sole() is None  # one row on this page, but not the list's only one
    assert public_tournament_page(number=2).has_next()  # 41 rows: page 2 holds 21-40, one is left


def test_a_short_list_is_one_whole_page():
    tournament("Puchar", "puchar", "2026-05-01")
    page = public_tournament_page()
    assert page.sole().slug == "puchar" and not page.has_other_pages()


def test_a_page_number_past_the_end_or_absurdly_large_gives_the_last_page():
    for n in range(25):
        tournament(f"Turniej {n}", f"t-{n}", datetime.date(2020, 1, 1) + datetime.timedelta(days=n))
    assert public_tournament_page(number="7").number == 2
    assert public_tournament_page(number="9" * 40).number == 2
    assert public_tournament_page(number="-3").number == 1

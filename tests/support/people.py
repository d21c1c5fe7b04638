"""People who come back, for the tests of the people pages, likely duplicates and recognised
players: `earlier` imports a past tournament like a laptop's file; `season_with_typos` and
`known_people` are the seasons those tests start from."""

from organiser.interchange import import_tournament
from tests.factories import build, tournament_data
from tournament.models import Person

LINE = "Lucja Wojcik → Łucja Wójcik, UTW Kraków, 1 earlier tournament"


def earlier(slug, *players, date="2026-01-10", host=None, rounds=()):
    """A tournament `slug` of (name, organisation) players, imported like a laptop's file."""
    data = tournament_data(0, rounds=rounds, settings={"players_per_organisation": 4})
    data["tournament"].update(slug=slug, name=f"Turniej {slug}", date=date)
    data["players"] = [{"id": f"p{i}", "name": name, "organisation": org} for i, (name, org) in enumerate(players, 1)]
    return import_tournament(data, host=host)


def season_with_typos():
    """styczen: Maria Teresa Chmiel, Jan Kowalski, Anna Nowak (UTW Kraków); test (this tournament):
    Chmiel Teresa Maria (the same words in another order), Jan Kowlaski (two letters swapped) and
    Anna Nowicka (not alike: three edits from Anna Nowak)."""
    earlier(
        "styczen", ("Maria Teresa Chmiel", "UTW Kraków"), ("Jan Kowalski", "UTW Kraków"), ("Anna Nowak", "UTW Kraków")
    )
    earlier(
        "marzec",
        ("Chmiel Teresa Maria", "UTW Kraków"),
        ("Jan Kowlaski", "UTW Kraków"),
        ("Anna Nowicka", "UTW Kraków"),
        date="2026-03-01",
    )
    return build(0)


def pk_of(surname, given_names):
    return Person.objects.get(surname=surname, given_names=given_names).pk


def known_people():
    """Łucja Wójcik and Anna Nowak played in January (UTW Kraków); "test" has no players yet."""
    earlier("styczen", ("Łucja Wójcik", "UTW Kraków"), ("Anna Nowak", "UTW Kraków"))
    return build(0, settings={"players_per_organisation": 4})

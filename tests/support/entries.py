"""Entries (SPEC §11) for the tests: a tournament open for entries, the form's data, the links in mail."""

import datetime
import re
import secrets

from django.utils import timezone

from organiser.interchange import import_tournament
from tests.factories import tournament_data


def open_tournament(capacity=8, players=0, quota=1, days_open=7, slug="test", date=None):
    """A tournament taking entries for `days_open` more days, held 30 days from now (or on `date`)."""
    until = (timezone.now() + datetime.timedelta(days=days_open)).isoformat()
    held = date or (timezone.localdate() + datetime.timedelta(days=30))
    settings = {"entries_until": until, "players_per_organisation": quota}
    if capacity is not None:
        settings["capacity"] = capacity
    data = tournament_data(players, settings=settings)
    data["tournament"]["slug"] = slug
    tournament = import_tournament(data)
    tournament.date = held
    tournament.save(update_fields=["date"])
    return tournament


def entry_data(number=1, **changes):
    data = {
        "organisation": f"UTW Miasto {number}",
        "surname": f"Kowalska{number}",
        "given_names": "Anna",
        "birth_year": "1950",
        "contact_name": "Jan Sekretarz",
        "contact_email": f"utw{number}@example.pl",
        "contact_phone": "+48 600 100 200",
        "consent": "on",
        "website": "",
        "form_key": secrets.token_urlsafe(24),
    }
    data.update(changes)
    return data


LINK = re.compile(r"https?://[^\s<>\"]+/t/[^\s<>\"]+/entry/[A-Za-z0-9_-]+/(?:confirm/)?")


def links_in(text):
    """The entry links of a message's text, in order (confirmation links end in confirm/)."""
    return LINK.findall(text)


def path_of(url):
    return "/" + url.split("/", 3)[3]

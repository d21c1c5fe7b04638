"""Sides: the host organisations on one server, each with its own tournament and people.

`make_side` is the one place that decides who belongs where; the tests that prove one side
sees and changes nothing of another (tests/system/test_organisations_crawl.py, the hidden-results
audit tests/public/test_leak.py, the POST fuzzing tests/system/test_fuzz_posts.py) build their
sides with it. `rows_of` is everything stored of a tournament, to compare before and after.
"""

from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from accounts.models import DeviceLink, Role, TournamentRole, TournamentVenue
from accounts.services import create_device_link, make_member
from organiser.backups import files
from organiser.interchange import import_tournament
from scoring.models import Card, Game, ScoreSheet, SeatResult, TieDecision
from tournament.models import (
    AuditEntry,
    HostOrganisation,
    Organisation,
    Player,
    Round,
    RoundTime,
    Seat,
    Table,
    Tournament,
)

PEOPLE = ("organiser", "head referee", "referee", "tablet")


@dataclass
class Side:
    """One side's tournament and its people: users by role label, and a tablet's sign-in token."""

    tournament: Tournament
    people: dict = field(default_factory=dict)
    tablet_token: str = ""


def make_side(name, data):
    """A side: a host organisation of its own, its tournament imported from `data` into it, and its
    team: an organiser, a head referee and a referee (user names `<name>.<role>`), members of that
    organisation only, and a tablet link (a grant for the side's tournament). Who belongs where is
    decided here and nowhere else."""
    # Its address names nothing of the side: a 404 page shows the address it was asked.
    host = HostOrganisation.objects.create(
        name=f"Organizacja {name}", slug=f"host-{HostOrganisation.objects.count() + 1}"
    )
    tournament = import_tournament(data, host=host)
    side = Side(tournament)
    for role in (Role.ORGANISER, Role.HEAD_REFEREE, Role.REFEREE):
        user = User.objects.create_user(f"{name}.{role}")
        make_member(user, role, host)
        side.people[role.label] = user
    _link, side.tablet_token = create_device_link(
        tournament, label=f"Tablet {name}", created_by=side.people["organiser"]
    )
    return side


def client_of(side, person):
    """A test client signed in as one of the side's people (`PEOPLE`); the tablet with its link."""
    client = Client(raise_request_exception=False)
    if person == "tablet":
        assert client.post(reverse("accounts:device_sign_in", args=[side.tablet_token])).status_code == 302
    else:
        client.force_login(side.people[person])
    return client


def rows_of(tournament):
    """Everything stored of a tournament (every row's values), with its snapshots' names and sizes."""
    of = {"tournament": tournament}
    querysets = [
        Tournament.objects.filter(pk=tournament.pk),
        Organisation.objects.filter(**of),
        Player.objects.filter(**of),
        Round.objects.filter(**of),
        RoundTime.objects.filter(**of),
        Table.objects.filter(round__tournament=tournament),
        Seat.objects.filter(round__tournament=tournament),
        ScoreSheet.objects.filter(table__round__tournament=tournament),
        Game.objects.filter(sheet__table__round__tournament=tournament),
        SeatResult.objects.filter(game__sheet__table__round__tournament=tournament),
        Card.objects.filter(**of),
        TieDecision.objects.filter(**of),
        TournamentRole.objects.filter(**of),
        DeviceLink.objects.filter(**of),
        TournamentVenue.objects.filter(**of),
    ]
    dump = [list(queryset.order_by("pk").values_list()) for queryset in querysets]
    dump.append(AuditEntry.objects.filter(**of).count())
    dump.append(sorted((snapshot.name, snapshot.size) for snapshot in files.snapshots(tournament)))
    return dump

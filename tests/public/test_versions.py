"""The public version moves with every change the public pages can show, through any door.

The triggers of `public.versions` are checked with plain ORM writes (no service, no signal),
as the admin, an import or a script would make them; writes the public never sees (sheets not
verified yet, check-in aside) leave the version alone, so entering games never contends for it.
"""

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import connection
from django.db.models import F

from public.models import PublicVersion
from public.versions import watched_sources
from scoring.models import Card, Game, ScoreSheet, SeatResult, TieDecision
from tests.factories import build_hall
from tournament.models import AuditEntry, Organisation, Player, Round, Seat, Table, Tournament

pytestmark = pytest.mark.django_db

# Models that belong to a tournament but whose rows no public page shows.
NOT_PUBLIC = {
    "tournament.AuditEntry": "the audit log is for staff",
    "accounts.TournamentRole": "staff roles (a signed-in page renews every minute instead)",
    "accounts.DeviceLink": "tablet sign-in links",
    "accounts.Invitation": "invitations into a team (one may name a tournament)",
    "accounts.TournamentVenue": "the venue address: staff pages and printed links only",
    "tournament.RoundTime": "the timetable: the public round clock (/t/<slug>/clock/) is never cached",
    "public.PublicVersion": "the version itself",
    "tournament.ServerError": "the server's errors: the organiser's dashboard only",
    "organiser.StagedRestore": "a restore being staged: the organiser's pages only",
    "tournament.ProducedFile": "files a task made for staff (a round's PDFs, the results-site zip)",
    "organiser.Entry": "entries and their contacts: the organiser's page; an entry that becomes a player changes the players (watched)",
    "tournament.OutgoingMail": "the outbox: mail to contacts and staff, never shown to the public",
}


def version(tournament):
    return PublicVersion.objects.get(tournament=tournament).version


def sheets(tournament, state):
    return ScoreSheet.objects.filter(table__round__tournament=tournament, state=state)


def results(tournament, state):
    return SeatResult.objects.filter(game__sheet__in=sheets(tournament, state))


PUBLIC_CHANGES = {
    "hide the results": lambda t: Tournament.objects.filter(pk=t.pk).update(visibility="hidden"),
    "reveal a medal place": lambda t: Tournament.objects.filter(pk=t.pk).update(ceremony_step=1),
    "rename a player": lambda t: Player.objects.filter(tournament=t, ext_id="p1").update(name="Jan Nowy"),
    "withdraw a player": lambda t: Player.objects.filter(tournament=t, ext_id="p2").update(status="withdrawn"),
    "rename an organisation": lambda t: Organisation.objects.filter(tournament=t, name="UTW Opole").update(
        name="UTW Opole 2"
    ),
    "start a round": lambda t: Round.objects.filter(tournament=t, number=4).update(state="started"),
    "delete a draft round": lambda t: Round.objects.filter(tournament=t, number=5).delete(),
    "renumber a table": lambda t: Table.objects.filter(round__tournament=t, round__number=4, number=2).update(number=9),
    "rewrite a seat": lambda t: Seat.objects.filter(round__tournament=t, round__number=4, letter="A").update(
        letter="A"
    ),
    "verify a sheet": lambda t: sheets(t, "submitted").update(state="verified"),
    "reopen a verified sheet": lambda t: (
        sheets(t, "verified").filter(table__round__number=3).update(state="in_progress")
    ),
    "correct a verified score": lambda t: (
        results(t, "verified").filter(letter="B").update(override_score=7, override_reason="x")
    ),
    "delete a verified game": lambda t: Game.objects.filter(sheet__in=sheets(t, "verified"), number=4).delete(),
    "give a card": lambda t: Card.objects.create(tournament=t, player=t.players.first(), colour="warning", reason="x"),
    "record a tie decision": lambda t: TieDecision.objects.create(tournament=t, order=["p2", "p6"], reason="lot"),
}

PRIVATE_CHANGES = {
    "save a game on a sheet not verified": lambda t: (
        results(t, "submitted").filter(went_out=False).update(tiles=F("tiles") + 1)
    ),
    "raise the version of a sheet not verified": lambda t: sheets(t, "submitted").update(version=F("version") + 1),
    "write the audit log": lambda t: AuditEntry.objects.create(tournament=t, action="note"),
}


@pytest.mark.parametrize("change", PUBLIC_CHANGES.values(), ids=PUBLIC_CHANGES.keys())
def test_every_public_change_raises_the_version_of_its_tournament_only(change):
    tournament, other = build_hall(), build_hall(slug="other")
    before, other_before = version(tournament), version(other)
    change(tournament)
    assert version(tournament) > before
    assert version(other) == other_before


@pytest.mark.parametrize("change", PRIVATE_CHANGES.values(), ids=PRIVATE_CHANGES.keys())
def test_changes_the_public_never_sees_leave_the_version_alone(change):
    tournament = build_hall()
    before = version(tournament)
    change(tournament)
    assert version(tournament) == before


def test_a_statement_raises_the_version_once_on_postgresql_and_once_a_row_on_sqlite():
    """A bulk correction (a rescore, an import) costs one bump on PostgreSQL, not one a row."""
    tournament = build_hall()
    before = version(tournament)
    changed = results(tournament, "verified").filter(letter="B").update(override_score=7, override_reason="x")
    assert changed == 20  # seat B of 4 games on each of the 5 verified sheets
    assert version(tournament) - before == (1 if connection.vendor == "postgresql" else changed)


def test_every_tournament_gets_a_version_and_every_model_of_a_tournament_is_watched_or_private():
    tournament = Tournament.objects.create(name="Nowy", slug="nowy", date="2026-03-01")
    assert version(tournament) >= 0

    def belongs_to_a_tournament(model, seen=()):
        for field in model._meta.concrete_fields:
            target = field.related_model if field.is_relation else None
            if target is Tournament or (
                target and target not in seen and belongs_to_a_tournament(target, (*seen, model))
            ):
                return True
        return False

    owned = {model._meta.label for model in apps.get_models() if belongs_to_a_tournament(model)}
    watched = {model._meta.label for model in watched_sources()}
    assert owned - watched == set(NOT_PUBLIC), "a new model: watch it in public.versions or list it here"


def test_a_tournament_created_again_never_gets_the_version_of_the_deleted_one():
    deleted = build_hall()
    before = (deleted.pk, version(deleted))
    deleted.delete()
    again = build_hall()
    assert (again.pk, version(again)) != before


def test_the_triggers_are_back_after_a_migrate():
    tournament = build_hall()
    call_command("migrate", verbosity=0)
    before = version(tournament)
    PUBLIC_CHANGES["verify a sheet"](tournament)
    assert version(tournament) > before

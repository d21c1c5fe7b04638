"""Restoring a tournament over itself keeps what belongs to this server, not to the file (issue
46, row 10): its place in its seasons (the public season table is unchanged) and its waiting
one-tournament invitations (their links still work)."""

import pytest
from django.test import Client

from accounts.models import Invitation, Membership, Role
from accounts.team import create_invitation
from organiser.backups.restore import restore
from organiser.interchange import dumps, export_tournament
from tests.factories import season_of_three
from tournament.models import Season, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("backup_dir")]


def test_a_restore_over_itself_keeps_its_seasons_and_its_waiting_invitations(organiser):
    season = season_of_three()
    zima_1 = Tournament.objects.get(slug="zima-1")
    Membership.objects.filter(user=organiser).update(host=zima_1.host)
    invitation, token = create_invitation(zima_1.host, role=Role.REFEREE, tournament=zima_1, created_by=organiser)
    table_before = Client().get(f"/s/{season.slug}/").content.decode()
    restored = restore(dumps(export_tournament(zima_1)), user=organiser, replace=zima_1)
    assert restored.pk != zima_1.pk and not Tournament.objects.filter(pk=zima_1.pk).exists()
    season = Season.objects.get(pk=season.pk)
    assert sorted(season.tournaments.values_list("slug", flat=True)) == ["zima-1", "zima-2", "zima-3"]
    assert season.tournaments.get(slug="zima-1").pk == restored.pk
    assert Client().get(f"/s/{season.slug}/").content.decode() == table_before
    assert Invitation.objects.get(pk=invitation.pk).tournament_id == restored.pk
    assert Client().get(f"/accounts/invitation/{token}/").status_code == 200

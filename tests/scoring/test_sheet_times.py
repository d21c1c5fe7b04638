"""The score sheet's times read in the venue's time zone (Europe/Warsaw), as every other page's: the
season's walk found "Zweryfikowano: …, godz. 04:15." on a sheet while the team page and the round's
clock said 05:14. The sheet's one SQL query (scoring.selectors.sheets.sheet_table) read SQLite's
time without its zone, so the page took the UTC time for the venue's."""

from datetime import UTC, datetime

import pytest
from django.db.models import F

from scoring.models import ScoreSheet
from scoring.selectors.sheets import sheet_table
from tests.factories import build, started_round, table

pytestmark = pytest.mark.django_db
NOON_UTC = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)  # 13:00 in Warsaw (winter, UTC+1)


@pytest.fixture
def verified_at_noon(head_referee):
    tournament = build(4, rounds=[started_round(table(1, ["p1", "p2", "p3", "p4"], state="empty"))])
    ScoreSheet.objects.update(
        state=ScoreSheet.State.VERIFIED, verified_at=NOON_UTC, verified_by=head_referee, version=F("version") + 1
    )
    return tournament


def test_the_sheets_query_reads_the_verified_time_with_its_zone(verified_at_noon):
    sheet = sheet_table(verified_at_noon, round_number=1, table_number=1).read_sheet
    assert sheet.verified_at == NOON_UTC and sheet.verified_at.utcoffset() is not None


def test_the_verified_time_is_the_venues_time(verified_at_noon, head_referee_client):
    page = head_referee_client.get("/referee/test/round/1/table/1/").content.decode()
    assert "Verified by head at 13:00." in page

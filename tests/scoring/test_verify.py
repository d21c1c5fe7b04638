"""Verification by the head referee, corrections with a reason, score overrides, the audit log."""

import pytest
from django.contrib.auth.models import User

from accounts.services import make_member
from scoring.models import ScoreSheet
from scoring.services import sheets as services
from tests.factories import example_one, sheet_of, sheet_url, submitted_and_verified, text_of
from tournament.models import AuditEntry
from tournament.refusals import Refused

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return submitted_and_verified()


def correction(version, reason=""):
    """Game 1 of a four-game sheet entered again: A went out, B 23, C 10 + joker, D could not lay out."""
    return example_one(version=version, reason=reason)


def test_head_referee_verifies_a_submitted_sheet(head_referee_client, head_referee, tournament):
    sheet = sheet_of(tournament)
    assert "Verify sheet" in head_referee_client.get(sheet_url()).content.decode()
    response = head_referee_client.post(sheet_url("sheet_verify"), {"version": sheet.version}, follow=True)
    sheet.refresh_from_db()
    assert (sheet.state, sheet.verified_by) == ("verified", head_referee)
    assert "The sheet has been verified." in response.content.decode()
    entry = AuditEntry.objects.get(sheet=sheet, action="verify")
    assert entry.before == {"state": "submitted"} and entry.after["state"] == "verified"


def test_a_referee_cannot_verify(referee_client, tournament):
    sheet = sheet_of(tournament)
    assert referee_client.post(sheet_url("sheet_verify"), {"version": sheet.version}).status_code == 403
    sheet.refresh_from_db()
    assert sheet.state == "submitted"


def test_only_a_submitted_sheet_can_be_verified(head_referee, tournament):
    sheet = sheet_of(tournament, table_number=2)
    with pytest.raises(Refused) as refused:
        services.verify_sheet(sheet, version=sheet.version, user=head_referee)
    assert refused.value.code == "not_submitted"


def test_a_verified_sheet_is_read_only_for_referees(referee_client, tournament):
    sheet = sheet_of(tournament, table_number=2)
    html = referee_client.get(sheet_url(table_number=2)).content.decode()
    assert "Only the head referee can change it." in html
    assert 'name="B-tiles"' not in html and "game-results" in html
    response = referee_client.post(sheet_url("game_save", table_number=2, game_number=1), correction(sheet.version))
    assert response.status_code == 403
    assert "This sheet has been verified. Only the head referee can change it." in response.content.decode()
    htmx = referee_client.post(
        sheet_url("game_save", table_number=2, game_number=1), correction(sheet.version), HTTP_HX_REQUEST="true"
    )
    assert htmx.status_code == 200
    assert "This sheet has been verified. Only the head referee can change it." in htmx.content.decode()
    sheet.refresh_from_db()
    assert sheet.version == 0 and sheet.games.get(number=1).results.get(letter="B").score == -5


def test_a_referee_whose_page_predates_the_verification_is_told_it_is_verified(referee_client, tournament):
    sheet = sheet_of(tournament)
    head = User.objects.create_user("chief")
    make_member(head, "head_referee")
    services.verify_sheet(sheet, version=sheet.version, user=head)
    response = referee_client.post(
        sheet_url("game_save", game_number=1), correction(sheet.version), HTTP_HX_REQUEST="true"
    )
    assert text_of(response.content.decode(), "g1-refusal") == (
        "This sheet has been verified. Only the head referee can change it."
    )


def test_a_correction_by_the_head_referee_needs_a_reason(head_referee_client, tournament):
    sheet = sheet_of(tournament, table_number=2)
    url = sheet_url("game_save", table_number=2, game_number=1)
    html = head_referee_client.post(url, correction(sheet.version), HTTP_HX_REQUEST="true").content.decode()
    assert text_of(html, "g1-errors") == "Give a reason for this change."
    assert AuditEntry.objects.count() == 0
    response = head_referee_client.post(url, correction(sheet.version, reason="tiles recounted with the players"))
    assert response.status_code == 302
    sheet.refresh_from_db()
    assert sheet.state == "verified" and sheet.version == 1
    assert {r.letter: r.score for r in sheet.games.get(number=1).results.all()} == {
        "A": 183,
        "B": -23,
        "C": -60,
        "D": -100,
    }
    entry = AuditEntry.objects.get(sheet=sheet)
    assert (entry.action, entry.reason) == ("correct_game", "tiles recounted with the players")
    assert entry.before["game"]["scores"] == {"A": 15, "B": -5, "C": -5, "D": -5}
    assert entry.after["game"]["scores"]["A"] == 183


def test_editing_a_submitted_sheet_returns_it_to_in_progress(referee_client, tournament):
    sheet = sheet_of(tournament)
    assert referee_client.post(sheet_url("game_save", game_number=1), correction(sheet.version)).status_code == 302
    sheet.refresh_from_db()
    assert sheet.state == "in_progress"


def override(client, version, **data):
    payload = {"o1-version": version, "o1-seat": "B", "o1-score": "-80", "o1-reason": "referee decision"}
    payload.update({f"o1-{key}": value for key, value in data.items()})
    return client.post(sheet_url("score_override", game_number=1), payload)


@pytest.mark.parametrize("score", ["2147483648", "-100001"])
def test_an_override_outside_the_score_range_is_refused(head_referee_client, tournament, score):
    sheet = sheet_of(tournament)
    response = override(head_referee_client, sheet.version, score=score)
    assert response.status_code < 500
    assert "Enter a score between −100000 and 100000." in response.content.decode()
    assert sheet.games.get(number=1).results.get(letter="B").override_score is None


def test_head_referee_overrides_a_score_with_a_reason(head_referee_client, tournament):
    sheet = sheet_of(tournament)
    assert override(head_referee_client, sheet.version).status_code == 302
    result = sheet.games.get(number=1).results.get(letter="B")
    assert (result.score, result.override_score, result.override_reason) == (-5, -80, "referee decision")
    entry = AuditEntry.objects.get(sheet=sheet, action="override")
    assert entry.after["game"]["racks"]["B"]["override"] == {"score": -80, "reason": "referee decision"}
    totals = dict((letter, total) for letter, _, total in head_referee_client.get(sheet_url()).context["page"].totals)
    assert totals["B"]["small_points"] == -80 + 15 - 5 - 5


def test_an_override_without_a_reason_is_refused(head_referee_client, tournament):
    sheet = sheet_of(tournament)
    response = override(head_referee_client, sheet.version, reason="")
    assert response.status_code == 200
    assert "Give a reason for this change." in response.content.decode()
    assert sheet.games.get(number=1).results.get(letter="B").override_score is None


def test_an_override_is_kept_when_the_game_is_entered_again(head_referee_client, tournament):
    sheet = sheet_of(tournament)
    override(head_referee_client, sheet.version)
    sheet.refresh_from_db()
    head_referee_client.post(sheet_url("game_save", game_number=1), correction(sheet.version))
    result = sheet.games.get(number=1).results.get(letter="B")
    assert (result.score, result.override_score) == (-23, -80)


def test_a_referee_cannot_override(referee_client, tournament):
    sheet = sheet_of(tournament)
    assert override(referee_client, sheet.version).status_code == 403


def test_the_audit_log_shows_who_when_before_after_and_why(head_referee_client, tournament):
    head = User.objects.get(username="head")
    head.first_name, head.last_name = "Halina", "Sędzia"
    head.save()
    sheet = sheet_of(tournament, table_number=2)
    head_referee_client.post(
        sheet_url("game_save", table_number=2, game_number=1), correction(sheet.version, reason="tiles recounted")
    )
    html = head_referee_client.get(sheet_url("sheet_log", table_number=2)).content.decode()
    assert "Halina Sędzia" in html and "tiles recounted" in html
    assert "correction by the head referee" in html
    assert "B Gracz 6: 5 in tiles and 0 jokers, laid out → −5" in html  # before
    assert "C Gracz 7: 10 in tiles and 1 joker, laid out → −60" in html  # after


def test_submit_and_verify_need_the_current_version(referee_client, referee, tournament):
    sheet = sheet_of(tournament)
    ScoreSheet.objects.filter(pk=sheet.pk).update(state="in_progress")
    response = referee_client.post(sheet_url("sheet_submit"), {"version": sheet.version + 5}, follow=True)
    assert "Someone else saved this sheet after you opened it." in response.content.decode()
    sheet.refresh_from_db()
    assert sheet.state == "in_progress"


def test_a_membership_of_the_host_organisation_is_what_the_role_check_uses(client, tournament):
    user = User.objects.create_user("somebody", password="x" * 12)
    client.force_login(user)
    assert client.get(sheet_url()).status_code == 404
    make_member(user, "referee")
    assert client.get(sheet_url()).status_code == 200

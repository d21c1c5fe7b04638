"""Where a form returns to: one check (tournament/navigation.py) for every view that reads `next`.
A path on this site is followed; a bare word, another host or a script address falls back to
the page's own default, and none of them gives a 500."""

import pytest

from tests.factories import build, table
from tournament.models import Player, Round

HOSTILE = ["0", "//evil.example/", "https://evil.example/", "javascript:alert(1)", "/\\evil.example/", ""]
SAFE = "/ok/"


@pytest.fixture
def tournament(db):
    return build(
        8,
        rounds=[
            {
                "number": 1,
                "kind": "qualifying",
                "state": "draft",
                "tables": [table(1, ["p1", "p2", "p3", "p4"]), table(2, ["p5", "p6", "p7", "p8"])],
            }
        ],
    )


def player_pk(tournament):
    return Player.objects.get(tournament=tournament, ext_id="p1").pk


def check_in(client, tournament, target):
    return client.post(
        f"/staff/test/players/{player_pk(tournament)}/check-in/", {"next": target}
    ), "/staff/test/players/"


def publish(client, tournament, target):
    assert Round.objects.get(tournament=tournament, number=1).state == Round.State.DRAFT
    return client.post("/staff/test/rounds/1/publish/", {"next": target}), "/staff/test/rounds/1/"


def give_warning(client, tournament, target):
    pk = player_pk(tournament)
    data = {"colour": "warning", "reason": "Too slow", "round": "", "next": target}
    return client.post(f"/referee/test/player/{pk}/card/", data), f"/referee/test/player/{pk}/"


def set_visibility(client, tournament, target):
    return client.post("/t/test/results-control/", {"visibility": "live", "next": target}), "/t/test/results-control/"


def switch_language(client, tournament, target):
    return client.get("/language/", {"language": "en", "next": target}), "/"


FORMS = [check_in, publish, give_warning, set_visibility, switch_language]


@pytest.mark.parametrize("target", [*HOSTILE, SAFE])
@pytest.mark.parametrize("send", FORMS, ids=lambda send: send.__name__)
def test_next_is_followed_only_when_it_is_a_path_on_this_site(organiser_client, tournament, send, target):
    answer, default = send(organiser_client, tournament, target)
    assert answer.status_code == 302
    assert answer["Location"] == (SAFE if target == SAFE else default)

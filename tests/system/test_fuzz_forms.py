"""Fuzzed forms: hypothesis posts random and hostile values to every form endpoint as a user
who may use it. Never a server error, and never a partial write: when the answer reports an
error (anything but a redirect without an error message), no table of the app has changed.

Each example starts from a valid form, then replaces, drops or duplicates fields with huge,
negative, unicode, NUL-byte and wrong-typed values. Each request runs in a transaction that
is rolled back, so every example sees the same tournament.
"""

from dataclasses import dataclass

import pytest
from django.apps import apps
from django.contrib import messages
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.forms import DeviceLinkForm
from engine.tests.examples import examples
from organiser.forms import TournamentForm
from organiser.interchange import import_tournament
from scoring.models import ScoreSheet
from tests.factories import out_game, table, tournament_data
from tournament.models import Player

pytestmark = pytest.mark.django_db

EXAMPLES = examples(15)
HOSTILE_TEXT = st.one_of(
    st.text(max_size=60),
    st.sampled_from(
        [
            "",
            " ",
            "0",
            "-1",
            "-99999999999999999999",
            "99999999999999999999999999",
            "1e400",
            "NaN",
            "inf",
            "3.5",
            "0x10",
            " 12 ",
            "١٢",
            "½",
            "A",
            "B",
            "C",
            "D",
            "E",
            "pool",
            "out",
            "opened",
            "not_possible",
            "yellow",
            "red",
            "warning",
            "live",
            "frozen",
            "hidden",
            "next",
            "reset",
            "on",
            "true",
            "ąęłńóśźż Łódź",
            "💥" * 50,
            "\x00",
            "a\x00b",
            "<script>alert(1)</script>",
            "'; DROP TABLE tournament_player;--",
            "x" * 5000,
            "13,13,J,J",
            "//evil.example/",
            "https://evil.example/",
            "2026-02-30",
            "9999-12-31",
            "0000-00-00",
        ]
    ),
    st.integers(min_value=-(10**25), max_value=10**25).map(str),
)
VALUE = st.one_of(HOSTILE_TEXT, st.lists(HOSTILE_TEXT, min_size=2, max_size=3))  # a list posts the field twice
MISSING = object()


@dataclass
class Endpoint:
    """A form endpoint: who posts, where, and a valid form to start from."""

    visitor: str
    url: str
    base: dict
    extra_fields: tuple = ()  # field names that are not in the valid form
    writes: bool = True
    accepts_base: bool = True  # the valid form is accepted (checked, so the fuzzing starts deep)
    upload: bool = False
    prefix: str = ""


def form_values(form):
    """A bound-ready dict of a form's initial values (checkboxes: "on" or left out)."""
    values = {}
    for name in form.fields:
        value = form[name].value()
        if value is True:
            values[name] = "on"
        elif value not in (None, False):
            values[name] = str(value)
    return values


@pytest.fixture
def world(referee, head_referee, organiser):
    games = [out_game(1, "A", B=(23, 0), C=(10, 1), D=(5, 0))]
    rounds = [
        {"number": 1, "tables": [table(1, ["p1", "p2", "p3", "p4"], games), table(2, ["p5", "p6", "p7", "p8"], games)]},
        {
            "number": 2,
            "state": "started",
            "tables": [table(1, ["p1", "p5", "p3", "p7"]), table(2, ["p2", "p6", "p4", "p8"])],
        },
    ]
    tournament = import_tournament(tournament_data(8, rounds))
    draft = tournament_data(
        8,
        [
            {
                "number": 1,
                "state": "draft",
                "tables": [table(1, ["p1", "p2", "p3", "p4"]), table(2, ["p5", "p6", "p7", "p8"])],
            }
        ],
    )
    draft["tournament"].update(slug="draft", name="Draft cup")
    draft = import_tournament(draft)
    fresh = tournament_data(8)
    fresh["tournament"].update(slug="fresh", name="Fresh cup")
    fresh = import_tournament(fresh)
    return {
        "test": tournament,
        "draft": draft,
        "fresh": fresh,
        "visitors": {"referee": referee, "head_referee": head_referee, "organiser": organiser},
    }


def sheet_version(tournament, round_number, table_number):
    return str(
        ScoreSheet.objects.get(
            table__round__tournament=tournament, table__round__number=round_number, table__number=table_number
        ).version
    )


def endpoints(world):
    t, draft, fresh = world["test"], world["draft"], world["fresh"]
    p1 = Player.objects.get(tournament=t, ext_id="p1")
    draft_players = list(Player.objects.filter(tournament=draft).order_by("ext_id").values_list("pk", flat=True))
    game_url = {"slug": t.slug, "round_number": 2, "table_number": 1, "game_number": 1}
    game = {
        "version": sheet_version(t, 2, 1),
        "ending": "A",
        "reason": "",
        "A-tiles": "0",
        "B-tiles": "23",
        "C-tiles": "10",
        "C-jokers": "1",
        "D-tiles": "5",
        "D-opening": "opened",
    }
    seat_fields = tuple(
        f"{letter}-{name}" for letter in "ABCD" for name in ("tiles", "jokers", "opening", "first_move", "keypad")
    )
    tournament_form = form_values(TournamentForm(instance=t))
    new_tournament = {**tournament_form, "name": "Nowy turniej", "slug": ""}
    override_url = {**game_url, "round_number": 1}
    return {
        "tournament_create": Endpoint("organiser", reverse("organiser:create"), new_tournament),
        "tournament_settings": Endpoint("organiser", reverse("organiser:settings", args=[t.slug]), tournament_form),
        "player_add": Endpoint(
            "organiser",
            reverse("organiser:players", args=[t.slug]),
            {"surname": "Nowak", "given_names": "Anna", "organisation": "Klub Nowy"},
        ),
        "player_edit": Endpoint(
            "organiser",
            reverse("organiser:player", args=[t.slug, p1.pk]),
            {"surname": "Pierwszy", "given_names": "Gracz", "organisation": "Klub 1"},
        ),
        "player_import": Endpoint(
            "organiser",
            reverse("organiser:player_import", args=[fresh.slug]),
            {"file": "name,organisation\nAnna Nowak,Klub A\n"},
            upload=True,
        ),
        "draw": Endpoint(
            "organiser",
            reverse("organiser:draw", args=[fresh.slug]),
            {"method": "random", "seed": "42"},
            accepts_base=False,
        ),
        "swap": Endpoint(
            "head_referee",
            reverse("organiser:round", args=[draft.slug, 1]),
            {"player_a": str(draft_players[0]), "player_b": str(draft_players[5]), "reason": "family"},
            accepts_base=False,
        ),
        "game_save": Endpoint(
            "referee",
            reverse("scoring:game_save", kwargs=game_url),
            game,
            extra_fields=seat_fields + ("confirm_tiles",),
            accepts_base=False,
        ),
        "game_preview": Endpoint(
            "referee", reverse("scoring:game_preview", kwargs=game_url), game, extra_fields=seat_fields, writes=False
        ),
        "score_override": Endpoint(
            "head_referee",
            reverse("scoring:score_override", kwargs=override_url),
            {"version": sheet_version(t, 1, 1), "seat": "B", "score": "-30", "reason": "recount"},
            prefix="o1-",
            accepts_base=False,
        ),
        "sheet_submit": Endpoint(
            "referee",
            reverse("scoring:sheet_submit", args=[t.slug, 2, 2]),
            {"version": sheet_version(t, 2, 2)},
            accepts_base=False,
        ),
        "card": Endpoint(
            "referee",
            reverse("scoring:give_card", args=[t.slug, p1.pk]),
            {"colour": "yellow", "reason": "noise", "round": "2", "next": ""},
        ),
        "visibility": Endpoint(
            "head_referee",
            reverse("public:results_control", args=[t.slug]),
            {"visibility": "frozen", "reason": "before the final"},
        ),
        "ceremony": Endpoint(
            "head_referee",
            reverse("public:results_control", args=[t.slug]),
            {"ceremony": "next", "seen_step": "0"},
            extra_fields=("visibility", "next"),
        ),
        "device_link": Endpoint(
            "organiser",
            reverse("accounts:device_links", args=[t.slug]),
            form_values(DeviceLinkForm(initial={"label": "Tablet 1"})),
        ),
    }


ENDPOINT_NAMES = [
    "tournament_create",
    "tournament_settings",
    "player_add",
    "player_edit",
    "player_import",
    "draw",
    "swap",
    "game_save",
    "game_preview",
    "score_override",
    "sheet_submit",
    "card",
    "visibility",
    "ceremony",
    "device_link",
]


def snapshot():
    """Every row of the app's tables (and the users: device links create some)."""
    models = [User]
    for label in ("accounts", "tournament", "scoring"):
        models += list(apps.get_app_config(label).get_models())
    return {model.__name__: list(model.objects.order_by("pk").values()) for model in models}


def hostile_post(endpoint):
    """A strategy of POST data: the valid form with fields replaced, dropped or duplicated."""
    names = sorted(set(endpoint.base) | set(endpoint.extra_fields))
    changes = st.dictionaries(st.sampled_from(names), st.one_of(VALUE, st.just(MISSING)), max_size=len(names))
    junk = st.dictionaries(st.text(min_size=1, max_size=10), HOSTILE_TEXT, max_size=2)
    return st.tuples(changes, junk, st.booleans())


def post_data(endpoint, changes, junk, binary_upload):
    data = dict(endpoint.base)
    for name, value in changes.items():
        if value is MISSING:
            data.pop(name, None)
        else:
            data[name] = value
    data.update({key: value for key, value in junk.items() if key not in data and "\x00" not in key})
    if endpoint.upload and isinstance(data.get("file"), str) and binary_upload:
        text = data["file"]
        name = "players.xlsx" if text.startswith("x") else "players.csv"
        data["file"] = SimpleUploadedFile(name, text.encode("utf-8", "surrogatepass"))
    return {
        endpoint.prefix + name if name in endpoint.base or name in endpoint.extra_fields else name: value
        for name, value in data.items()
    }


def reported_error(response):
    if response.status_code != 302:
        return True
    return any(m.level >= messages.ERROR for m in messages.get_messages(response.wsgi_request))


@pytest.mark.parametrize("name", ENDPOINT_NAMES)
def test_hostile_posts_never_fail_and_never_write_half(world, name):
    endpoint = endpoints(world)[name]
    client = Client()
    client.force_login(world["visitors"][endpoint.visitor], backend="django.contrib.auth.backends.ModelBackend")
    valid = client_post(client, endpoint, dict(endpoint.base), expect_valid=True)
    assert valid or not (endpoint.writes and endpoint.accepts_base), f"the valid form of {name} should be accepted"

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(hostile_post(endpoint))
    def post_hostile(drawn):
        changes, junk, binary_upload = drawn
        client_post(client, endpoint, post_data(endpoint, changes, junk, binary_upload))

    post_hostile()


def client_post(client, endpoint, data, expect_valid=False):
    """Post in a rolled-back transaction; check the answer. Returns whether it was a success."""
    if endpoint.upload and isinstance(data.get("file"), str) and expect_valid:
        data["file"] = SimpleUploadedFile("players.csv", data["file"].encode())
    client.cookies.pop("messages", None)  # only this answer's messages count
    with transaction.atomic():
        before = snapshot()
        response = client.post(endpoint.url, data)
        after = snapshot()
        transaction.set_rollback(True)
    assert response.status_code < 500
    failed = reported_error(response)
    if failed or not endpoint.writes:
        changed = [table for table in before if before[table] != after[table]]
        assert changed == [], f"{endpoint.url} answered {response.status_code} with an error but changed {changed}"
    return not failed


@pytest.mark.parametrize("name", ["card", "visibility"])
def test_a_bare_word_as_the_page_to_return_to_goes_back_to_the_default_page(world, name):
    """Found by the fuzzing: `next=0` was taken for a view name and made a server error."""
    endpoint = endpoints(world)[name]
    client = Client()
    client.force_login(world["visitors"][endpoint.visitor], backend="django.contrib.auth.backends.ModelBackend")
    response = client.post(endpoint.url, {**endpoint.base, "next": "0"})
    assert response.status_code == 302
    assert response["Location"].startswith("/") and response["Location"] != "0"

"""Every page a user can open, for every role, on the demo tournament that `make run` loads.

The pages are enumerated from the URL conf, so a new page cannot escape: a pattern whose
arguments this test cannot fill is refused until it is given them or excluded with a reason.
Each page is fetched with a fresh GET in Polish (the default language) and must show no form
error, no English text that has a Polish translation, no template syntax left over ("{{", "%("),
and answer HEAD as it answers GET (the same status, no body).

The Polish check reads the catalogue: a msgid whose Polish msgstr differs from it must not
appear in the page's visible text (text nodes and the title, aria-label, placeholder and alt
attributes; not class names or data). Messages with placeholders are checked by their fixed
parts of three words or more, so "Round %(number)s" is not mistaken for the word "Round" in a name.
"""

import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from accounts.models import TournamentRole
from accounts.services import create_device_link
from organiser import services
from organiser.demo import DEMO_SLUG
from tests.support.files import entries
from tests.support.urls import pattern_defaults, url_patterns
from tournament.models import Player, Tournament

pytestmark = pytest.mark.django_db

# Patterns left out, each with its reason.
EXCLUDED = {
    "admin": "Django's admin: tests/organiser/test_demo.py and tests/tournament/test_admin.py open every admin page",
}

# URL arguments by name; a callable gets the demo world (see `world`).
ARGUMENTS = {
    "slug": lambda w: DEMO_SLUG,
    "number": lambda w: 1,
    "round_number": lambda w: 1,
    "table_number": lambda w: 1,
    "game_number": lambda w: 1,
    "pk": lambda w: w["player"].pk,
    "player_id": lambda w: w["player"].pk,
    "ext_id": lambda w: w["player"].ext_id,
    "link_id": lambda w: w["link"].pk,
    "grant_id": lambda w: w["grant"].pk,
    "token": lambda w: w["token"],
    "name": lambda w: "standings.csv",  # a results file (organiser/export_files.py)
}
# Arguments that depend on the page: an action of the player or the round.
ACTIONS = {"organiser:player_action": "check-in", "organiser:round_action": "publish"}

ROLES = {"public": None, "referee": "sedzia", "head referee": "sedzia-glowny", "organiser": "organizator"}
VISIBLE_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt"}
LEFTOVER_SYNTAX = ("{{", "}}", "{%", "%}", "%(")


def excluded(route):
    return next((reason for prefix, reason in EXCLUDED.items() if route.startswith(prefix)), None)


def pages(world):
    """(route, url) of every page not excluded; fails on a pattern it cannot fill."""
    found, unknown = [], []
    for route, name, arguments, _pattern in url_patterns():
        if excluded(route):
            continue
        missing = arguments - set(ARGUMENTS) - ({"action"} if name in ACTIONS else set())
        if name is None or missing:
            unknown.append(f"{route} ({name}): no value for {sorted(missing) or 'a pattern without a name'}")
            continue
        kwargs = {argument: ARGUMENTS[argument](world) for argument in arguments if argument in ARGUMENTS}
        if "action" in arguments:
            kwargs["action"] = ACTIONS[name]
        for extra in pattern_defaults(_pattern):
            kwargs.pop(extra, None)
        found.append((route, reverse(name, kwargs=kwargs)))
    assert not unknown, "add these URL arguments to ARGUMENTS, or the patterns to EXCLUDED with a reason:\n" + "\n".join(unknown)
    return found


class VisibleText(HTMLParser):
    """The text a reader sees or hears in the page's language: text nodes outside script and
    style, and the title, aria-label, placeholder and alt attributes; not the text of an element
    marked with another language (the language switch names English in English)."""

    def __init__(self):
        super().__init__()
        self.chunks, self.hidden, self.foreign = [], 0, []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag in ("script", "style"):
            self.hidden += 1
        if attributes.get("lang") and not attributes["lang"].startswith("pl") and tag != "html":
            self.foreign.append(tag)
            self.hidden += 1
        if not self.hidden:
            self.chunks.extend(value for name, value in attrs if name in VISIBLE_ATTRIBUTES and value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.hidden -= 1
        if self.foreign and self.foreign[-1] == tag:
            self.foreign.pop()
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden and data.strip():
            self.chunks.append(" ".join(data.split()))


def visible_text(html):
    parser = VisibleText()
    parser.feed(html)
    return "\n".join(parser.chunks)


def english_fragments():
    """Fixed English text that has a different Polish translation: whole messages without
    placeholders, and the parts of three words or more between the placeholders of the others."""
    fragments = set()
    for entry in entries():
        if entry["plural"] or "<" in entry["msgid"] or entry["msgstr"][0] == entry["msgid"]:
            continue
        parts = re.split(r"%\(\w+\)[sd]|%[sd]", entry["msgid"])
        if len(parts) == 1:
            fragments.add(entry["msgid"].strip())
            continue
        for part in parts:
            part = " ".join(part.split()).strip(" .,:;·()“”")
            if len(part.split()) >= 3 and part not in entry["msgstr"][0]:
                fragments.add(part)
    return {fragment for fragment in fragments if fragment}


def untranslated(text, fragments):
    lines = text.split("\n")
    found = []
    for fragment in fragments:
        pattern = re.compile(rf"(?<![\w]){re.escape(fragment)}(?![\w])")
        if any(pattern.search(line) for line in lines):
            found.append(fragment)
    return sorted(found)


@pytest.fixture
def world(settings, tmp_path):
    """The demo (rounds 1 and 2 completed) with round 3 drawn but not published, a tablet link."""
    settings.VAR_DIR = tmp_path
    settings.LANGUAGE_CODE = "pl"
    call_command("load_demo", "--if-empty", stdout=open("/dev/null", "w"))
    tournament = Tournament.objects.get(slug=DEMO_SLUG)
    organiser = User.objects.get(username="organizator")
    services.draw_round(tournament, user=organiser)
    link, token = create_device_link(tournament, label="Tablet 1", created_by=organiser)
    grant = TournamentRole.objects.create(user=User.objects.get(username="sedzia"), tournament=tournament, role="referee")
    return {"tournament": tournament, "player": Player.objects.filter(tournament=tournament).order_by("pk").first(),
            "link": link, "token": token, "grant": grant}


def client_for(role):
    client = Client(HTTP_ACCEPT_LANGUAGE="pl")
    client.cookies["django_language"] = "pl"
    if ROLES[role]:
        client.force_login(User.objects.get(username=ROLES[role]))
    return client


def test_every_url_pattern_is_covered_or_excluded_with_a_reason(world):
    covered = {route for route, _url in pages(world)}
    every = {route for route, *_ in url_patterns()}
    assert every - covered == {route for route in every if excluded(route)}
    assert len(covered) >= 40


@pytest.mark.parametrize("role", list(ROLES))
def test_every_page_reads_right_in_polish_and_answers_head_like_get(world, role):
    fragments = english_fragments()
    client = client_for(role)
    problems, seen = [], 0
    for route, url in pages(world):
        response = client.get(url)
        head = client.head(url)
        if head.status_code != response.status_code or head.content:
            problems.append(f"{url}: GET {response.status_code}, HEAD {head.status_code} with {len(head.content)} bytes")
        if response.status_code != 200 or not response["Content-Type"].startswith("text/html"):
            continue
        seen += 1
        html = response.content.decode()
        if 'class="errorlist' in html or "field--error" in html:
            problems.append(f"{url}: a form error on a fresh GET")
        text = visible_text(html)
        leftovers = [syntax for syntax in LEFTOVER_SYNTAX if syntax in text]
        if leftovers:
            problems.append(f"{url}: template syntax left in the page: {leftovers}")
        english = untranslated(text, fragments)
        if english:
            problems.append(f"{url}: English text in Polish: {english}")
    assert not problems, "\n".join(problems)
    assert seen >= (5 if role == "public" else 12)


def test_the_untranslated_text_check_finds_english_and_passes_polish():
    fragments = english_fragments()
    assert "Import players" in untranslated("Import players", fragments)
    assert untranslated("Importuj graczy", fragments) == []
    assert "Each line is one player. An organisation may enter at most" not in fragments  # a plural message
    assert untranslated(visible_text('<p class="state--empty" title="Runda 1">Runda 1</p>'), fragments) == []
    assert untranslated(visible_text('<button lang="en">English</button>'), fragments) == []
    assert untranslated(visible_text('<button title="Import players">Importuj</button>'), fragments) != []

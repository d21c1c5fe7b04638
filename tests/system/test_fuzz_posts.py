"""Every POST endpoint, for every role, with hostile values: never a server error.

The URL patterns are enumerated from the URL conf (as tests/system/test_every_page.py does) and
filled with the arguments of a built tournament, so a new page cannot escape: a pattern whose
arguments this test cannot fill fails it. Each role (anonymous, referee, head referee,
organiser, a tablet signed in with its link) posts to every pattern.

The values start from the real forms: every HTML page is fetched as each role and its POST forms
parsed (fields with their values and choices, submit buttons with their `formaction`, htmx's
`hx-post`). The first two roles shown a form post it as the page sends it, then with every field
at once set to thousands of digits, a huge negative number, a NUL byte, right-to-left marks in
10,000 characters, empty; with no field at all; with every field twice; and with random mixes of
these, of wrong choices, of missing and unknown fields and of hostile uploads. The other roles
post one mix. A pattern no page posts to gets hostile fields anyway. Half the requests are
htmx's; some are urlencoded rather than multipart.

A second walk sends the staff forms as their pages send them (CSRF checked, over http and
https) with one hostile header each (Referer, Origin, Host, htmx's HX-Current-URL) and with
hostile submission tokens (long, with a final newline, non-ASCII, empty, another user's, one sent
twice).

Any 5xx fails the test, with the traceback. Each request runs in a transaction that is rolled
back, so every request sees the same tournament, and the random choices have a fixed seed, so a
failure comes back on the next run. About 800 requests, a minute of CPU, and a few hundred more
for the headers and tokens.
"""

import json
import random
import re
import traceback
import zlib
from urllib.parse import urlencode

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.signals import got_request_exception
from django.db import transaction
from django.test import Client
from django.urls import Resolver404, resolve, reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts.models import DeviceLink, Membership, TournamentRole
from accounts.services import create_device_link, remove_staff_member
from accounts.team import create_invitation
from organiser.backups.snapshots import take_snapshot
from organiser.interchange import import_tournament
from scoring.models import Card
from tests.factories import hall_data, tournament_data, with_people
from tests.support.html_forms import page_forms
from tests.support.sides import make_side, rows_of
from tests.support.urls import pattern_defaults, url_patterns
from tournament import submissions
from tournament.models import Player, ProducedFile, Season

pytestmark = pytest.mark.django_db

SEED = 28
ROLES = ("anonymous", "referee", "head referee", "organiser", "tablet")
EXCLUDED = {
    "admin/": "Django's admin: its forms are Django's own and read-only for the app's data "
    "(tests/tournament/test_admin.py, tests/organiser/test_demo.py)",
    "accounts/venue-check/": "GET only, no form: the server's answer to its own nonce (tests/accounts/test_venue_check.py)",
}
# Routes answered with a file, never a page with a form: posted to, not fetched for forms.
FILE_SUFFIXES = (
    ".pdf",
    ".json",
    "exports/<str:name>",
    "<str:file>",
    "backups/download/",
    "backups/<str:name>/",
    "favicon.ico",
)

THOUSANDS_OF_DIGITS = "9" * 5000
HUGE_NEGATIVE = "-" + "9" * 30
RTL_LONG = ("\u200f\u202eabc\u202c" * 1250)[:10_000]
HOSTILE = [
    "",
    " ",
    "0",
    "-1",
    "-2147483649",
    "9223372036854775808",
    HUGE_NEGATIVE,
    THOUSANDS_OF_DIGITS,
    "-" + THOUSANDS_OF_DIGITS,
    "1e400",
    "NaN",
    "3.5",
    "0x10",
    "١٢",
    "\x00",
    "a\x00b",
    "\u200f",
    "\u202eabc",
    RTL_LONG,
    "x" * 10_000,
    "💥" * 50,
    "<script>alert(1)</script>",
    "'; DROP TABLE tournament_player;--",
    "//evil.example/",
    "../../etc/passwd",
    "2026-02-30",
    "9999-12-31",
    "on",
    "J",
    "back",
    "clear",
]
# Every field at once (a file field gets these as the file's content).
SWEEPS = [
    ("thousands of digits", THOUSANDS_OF_DIGITS),
    ("a huge negative number", HUGE_NEGATIVE),
    ("a NUL byte", "a\x00b"),
    ("right-to-left marks, 10,000 characters", RTL_LONG),
    ("empty", ""),
]
HOSTILE_FILES = [
    ("players.csv", b""),
    ("players.csv", b"name,organisation\n" + b"x" * 10_000 + b",\x00\n"),
    ("players.csv", THOUSANDS_OF_DIGITS.encode()),
    ("players.xlsx", b"PK\x03\x04" + b"\x00" * 100),
    ("backup.json.gz", b"\x1f\x8b" + b"\x00" * 50),
    ("backup.json", b'{"format": "rummikub-tournament/1", "tournament": 1}'),
    ("\u202egpj.csv", "\u202e\x00".encode()),
    ("../../backup.json", json.dumps({"x": THOUSANDS_OF_DIGITS}).encode()),
]
RANDOM_MIXES = 2
FULL_ROLES = 2  # the first roles shown a form get every hostile version, the others one


# ---------------------------------------------------------------- hostile values


def upload(name, content):
    return SimpleUploadedFile(name, content if isinstance(content, bytes) else content.encode("utf-8", "surrogatepass"))


def hostile_value(rng, spec, foreign=()):
    if spec.kind == "file":
        return [upload(*rng.choice(HOSTILE_FILES))]
    value = rng.choice(HOSTILE + spec.choices + list(foreign))
    return [value, rng.choice(HOSTILE)] if rng.random() < 0.2 else [value]


def mutations(form, rng, full, foreign=()):
    """(description, POST data) to send to the form's target: the form as sent, then hostile
    versions (all of them when `full`, else one random mix, whose values may be `foreign`)."""
    sent = form.sent()
    if full:
        yield "the form as the page sends it", sent
        for label, value in SWEEPS:
            yield (
                f"every field {label}",
                {
                    name: [upload("players.csv", value)] if spec.kind == "file" else [value]
                    for name, spec in form.fields.items()
                },
            )
        yield "no field at all", {}
        yield (
            "every field twice",
            {
                name: [upload("players.csv", b"name,organisation\n")] * 2
                if spec.kind == "file"
                else (sent.get(name, [""]) + [rng.choice(HOSTILE)])
                for name, spec in form.fields.items()
            },
        )
    for number in range(RANDOM_MIXES if full else 1):
        yield f"random mix {number + 1}", random_mix(form, sent, rng, foreign)


def random_mix(form, sent, rng, foreign=()):
    """The form as sent with some fields replaced by hostile values (the ids of another side's
    objects among them), repeated or dropped, and a field the form does not have."""
    data = {name: list(values) for name, values in sent.items()}
    for name, spec in form.fields.items():
        roll = rng.random()
        if roll < 0.4:
            data[name] = hostile_value(rng, spec, foreign)
        elif roll < 0.5:
            data.pop(name, None)
        elif roll < 0.6 and spec.kind != "file":
            data[name] = data.get(name, []) + [rng.choice(HOSTILE)]
    if rng.random() < 0.5:
        data[rng.choice(["unknown", "x" * 300, "next", "\u202ename", "a[]"])] = [rng.choice(HOSTILE)]
    return data


def carries(data, values):
    """Whether POST data sends any of `values` (another side's ids)."""
    return any(value in values for sent in data.values() for value in sent if isinstance(value, str))


def junk(rng):
    """POST data for a pattern no page posts to."""
    return {name: [rng.choice(HOSTILE)] for name in rng.sample(["name", "next", "token", "version", "file", "x"], 3)}


def encode(data, rng):
    """The test client's `post` arguments: multipart (always with a file), sometimes urlencoded."""
    flat = {name: values if len(values) != 1 else values[0] for name, values in data.items()}
    has_file = any(isinstance(v, SimpleUploadedFile) for values in data.values() for v in values)
    if has_file or rng.random() < 0.6:
        return {"data": flat}
    body = urlencode([(name, v) for name, values in data.items() for v in values])
    return {"data": body, "content_type": "application/x-www-form-urlencoded"}


# ---------------------------------------------------------------- the world


@pytest.fixture
def world(settings, tmp_path, referee, head_referee, organiser):
    """The hall tournament with 12 players: rounds 1–2 completed, round 3 started (table 1
    verified, 2 submitted, 3 in progress), round 4 published, round 5 a draft; a yellow card,
    a snapshot on disk, a staff grant, a tablet signed in with its link and an unused link.
    Its pages give the URL arguments; a second tournament with no round yet, four of its nine
    players checked in, shows the forms of the draw and the check-in. Another side's tournament
    (tests/support/sides.py) gives `foreign` values: the ids of its players, staff grants, tablet
    link and snapshot, which the random mixes post in place of this side's."""
    settings.VAR_DIR = tmp_path
    settings.BACKUP_DIR = tmp_path / "backups"
    data = hall_data(players=12)
    data["rounds"][2]["tables"][2]["state"] = "in_progress"
    data["cards"] = [{"player": "p3", "round": 3, "colour": "yellow", "reason": "noise"}]
    tournament = import_tournament(data)
    fresh = tournament_data(9)
    fresh["tournament"].update(slug="fresh", name="Fresh cup")
    fresh = import_tournament(fresh)
    Player.objects.filter(tournament=fresh, ext_id__in=["p1", "p2", "p3", "p4"]).update(present=True)
    assert Card.objects.filter(player__tournament=tournament).exists()
    snapshot = take_snapshot(tournament, "verify-r3-t1").name
    tablet_link, tablet_token = create_device_link(tournament, label="Tablet 1", created_by=organiser)
    link, token = create_device_link(tournament, label="Tablet 2", created_by=organiser)
    grant = TournamentRole.objects.create(user=referee, tournament=tournament, role="referee")
    gone = TournamentRole.objects.create(
        user=User.objects.create_user("removed.referee"), tournament=tournament, role="referee"
    )
    _name, undo = remove_staff_member(tournament, grant_id=gone.pk, removed_by=organiser)
    player = Player.objects.filter(tournament=tournament).order_by("pk").first()
    other = make_side("other", hall_data(slug="other-side"))
    other_link = DeviceLink.objects.get(tournament=other.tournament)
    foreign = [str(pk) for pk in Player.objects.filter(tournament=other.tournament).values_list("pk", flat=True)[:3]]
    foreign += [
        str(other_link.pk),
        "p1",
        take_snapshot(other.tournament, "verify-r3-t1").name,
        *(str(grant.pk) for grant in TournamentRole.objects.filter(tournament=other.tournament)[:2]),
    ]
    invitation, invitation_token = create_invitation(tournament.host, role="referee", created_by=organiser)
    with_people(tournament)  # a person's season page, and the seasons' pages of the organiser
    player.refresh_from_db()
    season = Season.objects.create(host=tournament.host, name="Sezon", slug="sezon")
    season.tournaments.add(tournament)
    cookies = {"anonymous": Client().cookies}
    for role, user in (("referee", referee), ("head referee", head_referee), ("organiser", organiser)):
        client = Client()
        client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
        cookies[role] = client.cookies
    tablet = Client()
    assert tablet.post(reverse("accounts:device_sign_in", args=[tablet_token])).status_code == 302
    cookies["tablet"] = tablet.cookies
    arguments = {
        "slug": tournament.slug,
        "number": 3,
        "round_number": 3,
        "table_number": 3,
        "game_number": 1,
        "pk": player.pk,
        "player_id": player.pk,
        "person_id": player.person_id,
        "ext_id": player.ext_id,
        "link_id": link.pk,
        "grant_id": grant.pk,
        "token": token,
        "name": "standings.csv",
        "host": tournament.host.slug,
        "membership_id": Membership.objects.get(user=referee).pk,
        "invitation_id": invitation.pk,
        "invitation_token": invitation_token,
        "uidb64": urlsafe_base64_encode(force_bytes(organiser.pk)),
        "season": season.slug,
        "file": "season.csv",
        "uid": str(player.person.uid),
        "file_id": ProducedFile.objects.create(  # a round's score sheets, made (GET only: POST is 405)
            tournament=tournament,
            kind=ProducedFile.Kind.SCORE_SHEETS,
            content_key="round 3",
            source_path=reverse("printing:score_sheets", args=[tournament.slug, 3]),
            status=ProducedFile.Status.DONE,
            content=b"%PDF-1.7 ",
            file_name="round-3-score-sheets.pdf",
            content_type="application/pdf",
        ).pk,
    }
    return {
        "tournament": tournament,
        "cookies": cookies,
        "arguments": arguments,
        "other": other.tournament,
        "foreign": foreign,
        "by_name": {  # arguments particular to one pattern
            "organiser:snapshot_download": {"name": snapshot},
            "organiser:snapshot_restore": {"name": snapshot},
            "organiser:player_action": {"action": "check-in"},
            "organiser:round_action": {"action": "publish", "number": 5},
        },
        # Pages fetched for their forms besides each pattern's own: each sheet of round 3, the
        # rounds in each state, the tablets' sign-in page of the unused link.
        "more_pages": [reverse("scoring:sheet", args=[tournament.slug, 3, n]) for n in (1, 2, 3)]
        + [reverse("organiser:round", args=[tournament.slug, n]) for n in (2, 4, 5)]
        + [reverse("scoring:sheet", args=[tournament.slug, 2, 1])]
        + [reverse(f"organiser:{name}", args=[fresh.slug]) for name in ("dashboard", "players", "draw")]
        # the staff page asking whether to remove a referee, and offering to undo a removal
        + [
            reverse("accounts:staff_members", args=[tournament.slug]) + f"?{query}"
            for query in (f"remove={grant.pk}", urlencode({"removed": undo}))
        ],
    }


def client_for(world, role):
    client = Client(raise_request_exception=False)
    for key, morsel in world["cookies"][role].items():
        client.cookies[key] = morsel.value
    return client


def excluded(route):
    return next((reason for prefix, reason in EXCLUDED.items() if route.startswith(prefix)), None)


def pattern_urls(world):
    """(route, name, url) of every pattern not excluded; fails on a pattern it cannot fill."""
    found, unknown = [], []
    for route, name, arguments, pattern in url_patterns():
        if excluded(route):
            continue
        own = world["by_name"].get(name, {})
        missing = arguments - set(world["arguments"]) - set(own)
        if name is None or missing:
            unknown.append(f"{route} ({name}): no value for {sorted(missing) or 'a pattern without a name'}")
            continue
        kwargs = {argument: own.get(argument, world["arguments"].get(argument)) for argument in arguments}
        for extra in pattern_defaults(pattern):
            kwargs.pop(extra, None)
        found.append((route, name, reverse(name, kwargs=kwargs)))
    assert not unknown, (
        "add these URL arguments to the world, or the patterns to EXCLUDED with a reason:\n" + "\n".join(unknown)
    )
    return found


def pattern_of(url):
    """(the pattern's namespaced name, its non-number arguments) of a URL, or None."""
    try:
        match = resolve(url)
    except Resolver404:
        return None
    return match.view_name, tuple(sorted((k, v) for k, v in match.kwargs.items() if not isinstance(v, int)))


# ---------------------------------------------------------------- the walk


class ServerErrors:
    """The tracebacks of the requests that raised (the client answers them with a 500)."""

    def __init__(self):
        self.last = None

    def __call__(self, sender, request=None, **kwargs):
        self.last = traceback.format_exc()


def discover(world, pages):
    """The POST forms of every page, as each role sees them: {target path: [Form]}."""
    forms = {}
    for role in ROLES:
        client = client_for(world, role)
        for url in pages:
            response = client.get(url)
            assert response.status_code < 500, f"GET {url} as {role}: {response.status_code}"
            if response.status_code != 200 or not response["Content-Type"].startswith("text/html"):
                continue
            for form in page_forms(url, response.content.decode()):
                if pattern_of(form.action) is None:
                    continue
                known = next((f for f in forms.setdefault(form.action, []) if f.key == form.key), None)
                if role not in (known or form).roles:
                    (known or form).roles.append(role)
                if known is None:
                    forms[form.action].append(form)
    return forms


def distinct(plans):
    """The plans without repeats (a form without fields is the same form in every sweep)."""
    seen = set()
    for description, data in plans:
        key = repr(
            sorted(
                (name, [v.name + repr(v.read()) if hasattr(v, "read") else v for v in values])
                for name, values in data.items()
            )
        )
        for values in data.values():
            for value in values:
                if hasattr(value, "seek"):
                    value.seek(0)
        if key not in seen:
            seen.add(key)
            yield description, data


def targets(patterns, forms, max_urls=1):
    """The URLs to post to for each pattern: the ones forms post to (one per non-number argument,
    e.g. each player action; up to `max_urls` spread over the rest), else the pattern's own."""
    by_pattern = {}
    for action in forms:
        name, words = pattern_of(action)
        by_pattern.setdefault(name, {}).setdefault(words, []).append(action)
    for route, name, url in patterns:
        groups = by_pattern.get(name)
        if not groups:
            yield route, name, [url]
            continue
        chosen = []
        for urls in groups.values():
            step = max(1, len(urls) // max_urls)
            chosen += urls[::step][:max_urls] if len(groups) == 1 else urls[:1]
        yield route, name, chosen


# Patterns that must be reached with a real form's fields (else the walk would post only junk).
FORM_PATTERNS = {
    "organiser:create",
    "organiser:settings",
    "organiser:players",
    "organiser:player",
    "organiser:player_action",
    "organiser:player_import",
    "organiser:check_in_everyone",
    "organiser:draw",
    "organiser:round",
    "organiser:round_action",
    "organiser:timetable",
    "organiser:backups",
    "organiser:snapshot_restore",
    "organiser:restore_new",
    "set_language",
    "scoring:game_save",
    "scoring:game_preview",
    "scoring:score_override",
    "scoring:sheet_submit",
    "scoring:sheet_verify",
    "scoring:give_card",
    "public:results_control",
    "accounts:login",
    "accounts:logout",
    "accounts:device_links",
    "accounts:device_link_revoke",
    "accounts:device_sign_in",
    "accounts:staff_members",
    "accounts:staff_member_remove",
    "accounts:staff_member_restore",
    "accounts:venue",
    "printing:device_sheet",
}


def test_no_post_to_any_endpoint_as_any_role_gives_a_server_error(world):
    patterns = pattern_urls(world)
    pages = list(
        dict.fromkeys(
            [url for route, _name, url in patterns if not route.endswith(FILE_SUFFIXES)] + world["more_pages"]
        )
    )
    forms = discover(world, pages)
    reached = {pattern_of(action)[0] for action in forms}
    assert FORM_PATTERNS - reached == set(), "no page showed a form posting to these"

    errors = ServerErrors()
    got_request_exception.connect(errors)
    failures, posted, sent = [], set(), 0
    other = rows_of(world["other"])
    try:
        for route, _name, urls in targets(patterns, forms):
            for role in ROLES:
                for url in urls:
                    rng = random.Random(zlib.crc32(f"{SEED} {role} {url}".encode()))
                    plans = []
                    for form in forms.get(url, [])[:2]:
                        plans += list(
                            mutations(form, rng, full=role in form.roles[:FULL_ROLES], foreign=world["foreign"])
                        )
                    for description, data in distinct(plans or [("hostile fields", junk(rng))]):
                        htmx = rng.random() < 0.5
                        errors.last = None
                        with transaction.atomic():
                            response = client_for(world, role).post(
                                url, **encode(data, rng), **({"HTTP_HX_REQUEST": "true"} if htmx else {})
                            )
                            crossed = carries(data, world["foreign"]) and rows_of(world["other"]) != other
                            transaction.set_rollback(True)
                        sent += 1
                        posted.add((route, role))
                        if response.status_code >= 500 or crossed:
                            failures.append(
                                (
                                    response.status_code,
                                    role,
                                    url,
                                    description,
                                    htmx,
                                    "changed the other side's tournament" if crossed else errors.last or "",
                                )
                            )
    finally:
        got_request_exception.disconnect(errors)

    every = {(route, role) for route, _name, _url in patterns for role in ROLES}
    assert every - posted == set()
    assert not failures, report(failures, sent)
    assert 300 <= sent <= 2000, f"{sent} requests: keep the walk at a few hundred to a thousand or so"


def report(failures, sent):
    """One paragraph per distinct error (its last traceback line), with where it happened."""
    by_error = {}
    for status, role, url, description, htmx, trace in failures:
        last = trace.strip().splitlines()[-1] if trace.strip() else f"status {status}"
        by_error.setdefault(last, []).append((role, url, description, htmx, trace))
    lines = [f"{len(failures)} of {sent} requests failed with a server error:"]
    for last, cases in by_error.items():
        lines.append(f"\n{last} ({len(cases)}×), e.g.:")
        lines += [
            f"  {role:12} POST {url} ({description}{', htmx' if htmx else ''})"
            for role, url, description, htmx, _t in cases[:5]
        ]
        lines.append("\n".join("    " + line for line in where(cases[0][4])))
    return "\n".join(lines)


def where(trace):
    """A traceback shortened to the app's own frames and the error, or its last lines (a
    library's error: the frames that called into it say where)."""
    lines = trace.strip().splitlines()
    own = [
        line
        for line in lines
        if line.lstrip().startswith("File ") and "site-packages" not in line and "/lib/python" not in line
    ]
    return own[-8:] + lines[-6:]


# ---------------------------------------------------------------- headers and submission tokens

NOT_AN_ADDRESS = [
    "http://[x",
    "http://[::1",
    "ftp://[",
    "http://testserver:99999999/",
    "http://testserver:port/",
    "\x00",
    "💥",
    "//",
    "http://",
    "x" * 10_000,
    "javascript:alert(1)",
    "http://evil.example/staff/",
]
HOSTILE_HEADERS = (
    [("HTTP_REFERER", value) for value in NOT_AN_ADDRESS + ["https://testserver/accounts/", "null"]]
    + [("HTTP_ORIGIN", value) for value in NOT_AN_ADDRESS + ["null", "https://testserver"]]
    + [
        ("HTTP_HOST", value)
        for value in [
            "[x",
            "[::1",
            "evil.example",
            "testserver:port",
            "",
            "💥",
            "a" * 300,
            "testserver\x00",
            "[::1]:80",
            "..",
            "testserver:99999999",
        ]
    ]
    + [("HTTP_HX_CURRENT_URL", value) for value in NOT_AN_ADDRESS]
)
# The staff pages whose forms get the hostile headers and tokens, and the role that opens them.
HEADER_PAGES = [
    ("organiser", "accounts:staff_members"),
    ("organiser", "accounts:device_links"),
    ("organiser", "organiser:players"),
    ("organiser", "organiser:settings"),
    ("referee", "scoring:sheet"),
]


def hostile_tokens(own, other):
    """(description, submission token) the token field is sent with."""
    return [
        ("long", "a" * 65),
        ("very long", own * 200),
        ("a final newline", own + "\n"),
        ("64 and a newline", "a" * 64 + "\n"),
        ("non-ASCII", "ż" * 40),
        ("empty", ""),
        ("a NUL byte", own[:30] + "\x00" + own[31:]),
        ("another user's", other),
        ("another user's with a newline", other + "\n"),
        ("its own, the first time, every other field empty", own),
        ("its own, the second time", own),
    ]


def staff_forms(world, role, name):
    """(client, form) for the POST forms of a staff page, fetched by one client that keeps its
    CSRF cookie, so the forms pass the CSRF check."""
    client = client_for(world, role)
    client.handler.enforce_csrf_checks = True
    args = {"scoring:sheet": [world["arguments"]["slug"], 3, 3]}.get(name, [world["arguments"]["slug"]])
    url = reverse(name, args=args)
    response = client.get(url)
    assert response.status_code == 200, url
    html = response.content.decode()
    forms = [form for form in page_forms(url, html) if submissions.FIELD in form.fields]
    assert forms, f"no form with a submission token on {url}"
    return client, forms, {"csrfmiddlewaretoken": [re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)[1]]}


def test_hostile_headers_and_submission_tokens_give_no_server_error(world, organiser):
    errors = ServerErrors()
    got_request_exception.connect(errors)
    failures, sent = [], 0
    other = submissions.new_token(organiser)
    try:
        for role, name in HEADER_PAGES:
            client, forms, csrf = staff_forms(world, role, name)
            for form in forms[:3]:
                own = form.sent()[submissions.FIELD][0]
                cases = [(f"{header} {value[:40]!r}", {header: value}, {}) for header, value in HOSTILE_HEADERS]
                cases += [
                    (f"a token: {label}", {"HTTP_REFERER": "http://[x"}, {submissions.FIELD: [token]})
                    for label, token in hostile_tokens(own, other)
                ]
                for number, (description, headers, fields) in enumerate(cases):
                    data = {**form.sent(), **csrf, **fields}
                    if "every other field empty" in description:  # a form refused, then sent again
                        data = {
                            name: values if name in (submissions.FIELD, "csrfmiddlewaretoken") else [""]
                            for name, values in data.items()
                        }
                    secure = number % 2 == 1 and not fields  # https: the CSRF check reads the Referer too
                    htmx = {"HTTP_HX_REQUEST": "true"} if number % 3 == 0 else {}
                    errors.last = None
                    with transaction.atomic():
                        response = client.post(form.action, data, secure=secure, **htmx, **headers)
                        if "the first time" not in description:  # kept: the second time finds it
                            transaction.set_rollback(True)
                    sent += 1
                    if response.status_code >= 500:
                        failures.append(
                            (response.status_code, role, form.action, description, bool(htmx), errors.last or "")
                        )
    finally:
        got_request_exception.disconnect(errors)
    assert not failures, report(failures, sent)
    assert sent >= 300

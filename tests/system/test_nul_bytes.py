"""A NUL byte anywhere the app reads text is never a 500 (issue 46, rows 4 and 5): PostgreSQL
refuses NUL in any text, SQLite stores it. The organiser's crawl of every staff page and form
(tests/support/crawl.py) and the public pages are asked again with a NUL in each GET parameter,
in a parameter the page reads by hand (`q`, `help`, …), in the path, and every form is posted with
a NUL in each of its text fields. A NUL in the path or a query parameter is a 400; a posted one
is the form's error or a refusal, never a 500, and no request is stored as a server error.
It runs on both databases (.ci/run's PostgreSQL run has it)."""

from urllib.parse import parse_qsl, quote, urlencode, urlsplit

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from tests.factories import hall_data
from tests.support.crawl import crawl
from tests.support.sides import client_of, make_side
from tournament.models import ServerError

pytestmark = pytest.mark.django_db

NUL_VALUES = ("\x00", "a\x00b")
# Parameters pages read by hand from request.GET (a search, a help page, an undo note, a choice).
HAND_READ = ("q", "help", "changed", "removed", "member", "remove", "round", "page", "next")


def with_nul_parameters(url):
    """The URL again with a NUL in each of its parameters' values, and with each hand-read parameter."""
    parts = urlsplit(url)
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    names = {name for name, _value in pairs} | set(HAND_READ)
    for name in sorted(names):
        for value in NUL_VALUES:
            changed = [(key, value if key == name else kept) for key, kept in pairs if key != name]
            yield f"{parts.path}?{urlencode([*changed, (name, value)])}"
    yield f"{parts.path}?a%00=1"


def with_nul_path(url):
    """The path with a NUL as its last segment, and with one added to its last segment."""
    path = urlsplit(url).path.rstrip("/")
    head, _sep, last = path.rpartition("/")
    yield f"{head}/%00/"
    yield f"{head}/{quote(last)}%00/"


@pytest.fixture
def organiser_side():
    side = make_side("Bravo", hall_data(slug="b-cup"))
    return side, client_of(side, "organiser")


def staff_crawl(side, client):
    slug = side.tournament.slug
    start = [
        reverse("accounts:home"),
        reverse("organiser:home"),
        reverse("public:help"),
        *(
            reverse(name, args=[slug])
            for name in ("organiser:dashboard", "scoring:home", "printing:index", "accounts:staff_members")
        ),
    ]
    found = crawl(client, start)
    assert len(found.urls()) >= 40 and len(found.forms) >= 20, found.counts()
    return found


def public_urls(side):
    slug = side.tournament.slug
    ext_id = side.tournament.players.values_list("ext_id", flat=True).first()
    return [
        "/",
        f"/t/{slug}/",
        f"/t/{slug}/standings/",
        f"/t/{slug}/player/{ext_id}/?help=1",
        f"/t/{slug}/round/1/",
        f"/t/{slug}/projector/",
        f"/o/{side.tournament.host.slug}/",
    ]


def test_a_nul_in_any_get_parameter_or_path_is_a_400_or_404(organiser_side):
    side, client = organiser_side
    urls = [*staff_crawl(side, client).urls(), *public_urls(side)]
    answers = {}
    for url in urls:
        for asked in (*with_nul_parameters(url), *with_nul_path(url)):
            for who in (client, Client()):
                answers[asked, who is client] = who.get(asked).status_code
    wrong = {asked: status for asked, status in answers.items() if status not in (400, 404)}
    assert not wrong, sorted(wrong.items())[:20]
    assert len(answers) > 2000
    assert not ServerError.objects.exists()


def test_the_anonymous_nul_request_of_the_audit_is_a_400(organiser_side):
    side, _client = organiser_side
    slug = side.tournament.slug
    assert Client().get(f"/t/{slug}/player/%00/?help=%00").status_code == 400
    assert Client().get(f"/t/{slug}/player/p1/?help=%00").status_code == 400
    assert not ServerError.objects.exists()


def test_a_nul_in_any_form_field_is_never_a_server_error(organiser_side):
    side, client = organiser_side
    found = staff_crawl(side, client)
    client.raise_request_exception = False
    posted = 0
    failures = []
    for form in found.forms:
        texts = [name for name, spec in form.fields.items() if spec.kind in ("text", "textarea", "hidden", "select")]
        for name in texts:
            for value in NUL_VALUES:
                data = {**form.sent(), name: [value]}
                with transaction.atomic():
                    status = client.post(form.action, data).status_code
                    transaction.set_rollback(True)
                posted += 1
                if status >= 500:
                    failures.append((form.action, name, repr(value), status))
    assert not failures, failures[:20]
    assert posted >= 40
    assert not ServerError.objects.exists()

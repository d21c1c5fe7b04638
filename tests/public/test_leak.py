"""Nothing hidden reaches the public (SPEC §8): crawl every public URL as an anonymous visitor.

The crawler starts at the home page, the tournament page, the public print folder and the
public standings PDF, and
follows every same-site link (href, src, hx-get, GET forms with sample searches) under
`/t/<slug>/` and `/print/<slug>/`. Each URL is fetched as a page and as an htmx fragment;
HTML, JSON and text are searched as they are, PDFs by their extracted text. Distinctive
scores are planted in the tournament: one verified in round 1, one verified in round 3 (after
the freeze at round 2) and one on a sheet that is not verified. The same crawl in live mode
must find the first two, so the test fails if the crawler stops seeing the pages.

A tournament with a final, under the default plan for the final's results, is crawled as well:
nothing of its results reaches the public from the final's start until the medal ceremony
reveals 1st place, and then the final's results are public everywhere.

Another side's tournament is on the server too (tests/support/sides.py), live, with scores of
its own planted: none of them ever shows on this tournament's pages, and the frozen and the
final's crawls run as that side's organiser or head referee, who see no more than the public.
"""

import io
import re
from collections import deque
from html.parser import HTMLParser
from urllib.parse import urldefrag, urlencode, urljoin, urlsplit

import pytest
from django.http import HttpResponse
from pypdf import PdfReader

from organiser import services
from organiser.exports.site import site_files
from organiser.interchange import import_tournament
from scoring.services.visibility import advance_ceremony, set_visibility
from tests.factories import (
    LATE_SCORE,
    LIVE_ONLY_TOTALS,
    ROUND1_SCORE,
    UNVERIFIED_SCORE,
    build_hall,
    games,
    hall_data,
    table,
    tournament_data,
)
from tests.support.files import number_pattern
from tests.support.sides import client_of, make_side
from tournament.models import Tournament

pytestmark = pytest.mark.django_db

SAMPLE_SEARCHES = ("a", "Łęcki", "gracz")
MAX_FETCHES = 2000
CSRF_TOKEN = re.compile(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]*')


class LinkParser(HTMLParser):
    """Collects link targets and GET forms (action, text field names) from a page."""

    def __init__(self):
        super().__init__()
        self.links, self.forms = [], []
        self._form = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in ("href", "src", "hx-get", "data-url"):
            if attrs.get(name):
                self.links.append(attrs[name])
        if tag == "form" and (attrs.get("method") or "get").lower() == "get":
            self._form = {"action": attrs.get("action") or "", "fields": []}
            self.forms.append(self._form)
        if tag == "input" and self._form is not None and attrs.get("type", "text") in ("text", "search"):
            self._form["fields"].append(attrs.get("name"))

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None


def body_text(response):
    content_type = response.get("Content-Type", "")
    content = b"".join(response.streaming_content) if response.streaming else response.content
    if "pdf" in content_type:
        return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(content)).pages)
    return CSRF_TOKEN.sub("", content.decode("utf-8", errors="replace"))


def crawl(client, slug):
    """{url: text} of every public URL reachable from the public entry points."""
    prefixes = (f"/t/{slug}/", f"/print/{slug}/")
    queue = deque(["/", f"/t/{slug}/", f"/print/{slug}/public/", f"/print/{slug}/public/standings.pdf"])
    seen, texts = set(queue), {}

    def enqueue(base, link):
        url, _ = urldefrag(urljoin(base, link))
        parts = urlsplit(url)
        if parts.scheme not in ("", "http") or parts.netloc not in ("", "testserver"):
            return
        local = parts.path + (f"?{parts.query}" if parts.query else "")
        if local not in seen and (parts.path.startswith(prefixes) or local == "/"):
            seen.add(local)
            queue.append(local)

    fetches = 0
    while queue:
        url = queue.popleft()
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
            fetches += 1
            assert fetches < MAX_FETCHES, "the crawl does not end"
            response = client.get(url, **headers)
            if response.status_code in (301, 302, 303, 307, 308):
                enqueue(url, response["Location"])
                continue
            if response.status_code == 404:
                continue
            text = body_text(response)
            texts[f"{url} {'(htmx)' if headers else ''}".strip()] = text
            if "html" not in response.get("Content-Type", ""):
                continue
            parser = LinkParser()
            parser.feed(text)
            for link in parser.links:
                enqueue(url, link)
            for form in parser.forms:
                for field in filter(None, form["fields"]):
                    for sample in SAMPLE_SEARCHES:
                        enqueue(url, f"{form['action'] or url}?{urlencode({field: sample})}")
    return texts


def found(texts, value):
    pattern = number_pattern(value)
    return sorted(url for url, text in texts.items() if pattern.search(text))


def crawled_kinds(texts, slug):
    kinds = {
        "tournament": f"/t/{slug}/",
        "standings": f"/t/{slug}/standings/",
        "json": f"/t/{slug}/standings.json",
        "player": f"/t/{slug}/player/",
        "round": f"/t/{slug}/round/",
        "projector": f"/t/{slug}/projector/",
        "projector page 2": f"/t/{slug}/projector/?page=2",
        "ceremony": f"/t/{slug}/ceremony/",
        "search": f"/t/{slug}/?q=",
        "fragment": "(htmx)",
    }
    return {kind for kind, marker in kinds.items() if any(marker in url for url in texts)}


# The other side's planted scores, in place of ROUND1_SCORE, LATE_SCORE and UNVERIFIED_SCORE.
OTHER_SCORES = {ROUND1_SCORE: 5813, LATE_SCORE: 5927, UNVERIFIED_SCORE: 5641}


@pytest.fixture
def other_side(db):
    """Another side's hall tournament, live, its scores planted as OTHER_SCORES."""
    data = hall_data(slug="other-side")
    data["tournament"]["name"] = "Other side's cup"
    for game in (game for round_ in data["rounds"] for table_ in round_["tables"] for game in table_["games"]):
        if "winner_override" in game:
            game["winner_override"]["score"] = OTHER_SCORES[game["winner_override"]["score"]]
    return make_side("other", data)


@pytest.fixture
def tournament(other_side):
    # 42 players: the projector has two pages, so its paging is crawled too.
    return build_hall(players=42)


def assert_nothing_of_the_other_side(texts):
    for value in OTHER_SCORES.values():
        assert found(texts, value) == [], f"the other side's {value} shows on this tournament's pages"


def test_live_mode_shows_the_verified_scores_so_the_crawl_can_see_them(client, tournament):
    texts = crawl(client, tournament.slug)
    assert crawled_kinds(texts, tournament.slug) == {
        "tournament",
        "standings",
        "json",
        "player",
        "round",
        "projector",
        "projector page 2",
        "ceremony",
        "search",
        "fragment",
    }
    assert found(texts, ROUND1_SCORE) and found(texts, LATE_SCORE) and found(texts, LIVE_ONLY_TOTALS[0])
    assert found(texts, UNVERIFIED_SCORE) == []
    assert_nothing_of_the_other_side(texts)


def test_frozen_mode_shows_nothing_after_the_freeze_even_to_another_sides_organiser(tournament, other_side):
    set_visibility(tournament, Tournament.Visibility.FROZEN)  # as of round 2, the last completed
    texts = crawl(client_of(other_side, "organiser"), tournament.slug)
    assert found(texts, ROUND1_SCORE), "the crawl must still see the results up to the freeze"
    for value in (LATE_SCORE, UNVERIFIED_SCORE, *LIVE_ONLY_TOTALS):
        assert found(texts, value) == [], f"{value} leaked"
    assert_nothing_of_the_other_side(texts)


def test_hidden_mode_shows_no_score_at_all(client, tournament):
    texts = crawl(client, tournament.slug)  # live first: fills every cache with the numbers
    assert found(texts, LATE_SCORE)
    set_visibility(tournament, Tournament.Visibility.HIDDEN)
    texts = crawl(client, tournament.slug)
    assert {"tournament", "player", "round", "projector", "ceremony", "fragment"} <= crawled_kinds(
        texts, tournament.slug
    )
    for value in (ROUND1_SCORE, LATE_SCORE, UNVERIFIED_SCORE, *LIVE_ONLY_TOTALS, "3788"):
        assert found(texts, value) == [], f"{value} leaked"
    assert "Łęcki Jan" in texts[f"/t/{tournament.slug}/"], "the seating stays public"


# ---------------------------------------------------------------- the final, hidden until the ceremony

FINAL_SCORE = 6173  # the final's first game, overridden: public only once the ceremony has revealed 1st place
# p1 wins that game and loses 12, 5 and 8 in the others: the final's small points 6148; with
# the qualifying round's (3917 − 25 = 3892) added up, 10040, which no output shows (the JSON
# gives the final's figures with the two parts beside them).
FINAL_POINTS, FINAL_AND_QUALIFYING = 6148, 10040


def final_to_start(host):
    """`test` of the host organisation `host`, 8 players: round 1 completed; the final seated and published, its sheet already
    entered and verified (only so that its numbers would show at once, were they ever public)."""
    ids = [f"p{i}" for i in range(1, 9)]
    rounds = [
        {
            "number": 1,
            "state": "completed",
            "tables": [table(1, ids[:4], games(ROUND1_SCORE)), table(2, ids[4:], games())],
        },
        {
            "number": 2,
            "kind": "final",
            "state": "published",
            "tables": [table(1, ["p1", "p5", "p2", "p6"], games(FINAL_SCORE), state="verified")],
        },
    ]
    return import_tournament(tournament_data(8, rounds, {"final": True, "rounds_planned": 1}), host=host)


def site_found(tournament, value):
    pattern = number_pattern(value)
    return sorted(path for path, data in site_files(tournament).items() if pattern.search(data.decode()))


def test_by_default_no_public_output_shows_the_finals_results_until_the_ceremony(
    client, organiser, head_referee, other_side
):
    tournament = final_to_start(organiser.memberships.get().host)
    assert tournament.final_release == Tournament.FinalRelease.CEREMONY  # nobody ticked anything
    texts = crawl(client, tournament.slug)  # before the start: live, and every cache filled
    assert found(texts, ROUND1_SCORE) and found(texts, FINAL_SCORE) == [], "a final not started shows no result"
    assert any(url.endswith("standings.pdf") for url in texts)

    services.start_round(tournament.rounds.get(number=2), user=organiser)
    for revealed in (0, 1, 2):  # asked by another side's head referee: no more than the public sees
        texts = crawl(client_of(other_side, "head referee"), tournament.slug)
        assert {"tournament", "player", "round", "projector", "ceremony", "fragment"} <= crawled_kinds(
            texts, tournament.slug
        )
        assert f"/t/{tournament.slug}/round/2/" in texts and f"/t/{tournament.slug}/player/p1/" in texts
        for value in (FINAL_SCORE, FINAL_POINTS, FINAL_AND_QUALIFYING, ROUND1_SCORE):
            assert found(texts, value) == [], f"{value} leaked with {revealed} places revealed"
        tournament.refresh_from_db()
        assert site_found(tournament, FINAL_SCORE) == [], "the results website"
        assert "1 Gracz" in texts[f"/t/{tournament.slug}/round/2/"], "the final's seating stays public"
        advance_ceremony(tournament, user=head_referee)

    texts = crawl(client, tournament.slug)  # 1st place revealed: everything is public
    tournament.refresh_from_db()
    assert tournament.visibility == Tournament.Visibility.LIVE
    for value, kinds in (
        (FINAL_SCORE, ("/round/2/", "/player/p1/")),
        (FINAL_POINTS, ("/standings/", "/projector/", ".pdf")),
    ):
        for kind in kinds:
            assert any(kind in url for url in found(texts, value)), (value, kind)
    assert found(texts, FINAL_AND_QUALIFYING) == []
    assert site_found(tournament, FINAL_SCORE) and site_found(tournament, FINAL_POINTS)


def test_the_crawler_reads_pdf_text():
    response = HttpResponse(_one_page_pdf("Score 4 321"), content_type="application/pdf")
    assert number_pattern(LATE_SCORE).search(body_text(response))
    assert not number_pattern(LATE_SCORE).search(
        body_text(HttpResponse(_one_page_pdf("Score 14321"), content_type="application/pdf"))
    )


def _one_page_pdf(text):
    """A minimal PDF with one line of text (Helvetica), built by hand for the test above."""
    stream = f"BT /F1 12 Tf 20 50 Td ({text}) Tj ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out, offsets = io.BytesIO(), []
    out.write(b"%PDF-1.4\n")
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    out.write(b"".join(b"%010d 00000 n \n" % offset for offset in offsets))
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref))
    return out.getvalue()


SECRET_CONTACT = {"name": "Teofila Sekretna", "email": "teofila.sekretna@example.pl", "phone": "+48 611 222 333"}


def test_no_contact_detail_of_an_entry_reaches_any_public_page(client):
    """Entries (SPEC §11): a player, a waiting entry and an unconfirmed one, each with planted
    contact details; the crawl (the entry page included: the tournament page links to it while
    entries are open), the public JSON and the results website show their players' names and never
    a contact detail, which only the staff's export carries."""
    from organiser.services.entries import EntryData, confirm_entry, submit_entry
    from tests.support.entries import open_tournament

    tournament = open_tournament(capacity=1)
    entries = [
        submit_entry(
            tournament,
            EntryData(
                f"UTW Sekret {n}",
                f"Zgłoszona{n}",
                "Anna",
                1950,
                SECRET_CONTACT["name"],
                SECRET_CONTACT["email"],
                SECRET_CONTACT["phone"],
                "zgoda",
            ),
            form_key=f"form-key-of-entry-{n}",
            client="10.0.0.1",
            site="http://testserver/",
        )
        for n in (1, 2, 3)
    ]
    confirm_entry(entries[0])
    confirm_entry(entries[1])
    texts = crawl(client, tournament.slug)
    assert any("Zgłoszona1" in text for text in texts.values())  # the crawl sees the entries' player
    assert any(url.startswith(f"/t/{tournament.slug}/entry/") for url in texts)
    # The public JSON (fetched even when no page links it) and the results website too.
    public_json = client.get(f"/t/{tournament.slug}/standings.json")
    assert public_json.status_code == 200 and "Zgłoszona1" in public_json.content.decode()
    texts["public JSON"] = public_json.content.decode()
    for path, data in site_files(tournament).items():
        texts[f"results website {path}"] = data.decode("utf-8", errors="replace")
    assert any("Zgłoszona1" in text for url, text in texts.items() if url.startswith("results website"))
    from organiser.interchange import dumps, export_tournament

    staff_export = dumps(export_tournament(tournament))  # the staff's file carries them: the crawl could see them
    assert all(secret in staff_export for secret in SECRET_CONTACT.values())
    for secret in (*SECRET_CONTACT.values(), "teofila", "611 222"):
        leaks = sorted(url for url, text in texts.items() if secret.casefold() in text.casefold())
        assert leaks == [], f"{secret} shows on {leaks}"

"""The Content-Security-Policy (issue 13, item 9): on every response, no inline script in any
template, and no page of any role breaks it in Chromium."""

import re
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from accounts.services import create_device_link
from tests.factories import build, out_game, table
from tests.support.browser import TABLET, signed_in_page
from tournament.models import Tournament

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))


def directives(header):
    return {part.split()[0]: part.split()[1:] for part in header.split(";") if part.strip()}


def tournament():
    games = [out_game(1, "A", B=(23, 0), C=(10, 1), D=(5, 0))]
    rounds = [
        {"number": 1, "tables": [table(1, ["p1", "p2", "p3", "p4"], games), table(2, ["p5", "p6", "p7", "p8"], games)]},
        {
            "number": 2,
            "state": "started",
            "tables": [table(1, ["p1", "p5", "p3", "p7"], state="empty"), table(2, ["p2", "p6", "p4", "p8"])],
        },
    ]
    return build(8, rounds=rounds)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    [
        "/",
        "/t/test/",
        "/t/test/standings.json",
        "/t/test/timer",
        "/accounts/login/",
        "/staff/test/",
        "/admin/",
        "/t/nope/",
        "/print/test/public/standings.pdf",
    ],
)
def test_every_response_carries_the_policy(client, url):
    tournament()
    header = client.get(url)["Content-Security-Policy"]
    policy = directives(header)
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["default-src"] == ["'self'"] and policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"] and policy["base-uri"] == ["'none'"]
    assert "'unsafe-inline'" not in header.split("style-src-attr")[0] and "'unsafe-eval'" not in header


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT / "templates")))
def test_no_template_holds_an_inline_script_or_event_handler(template):
    html = template.read_text()
    for tag in re.findall(r"<script\b[^>]*>", html):
        assert "src=" in tag, f"inline script: {tag}"
    assert not re.search(r"\son[a-z]+\s*=", html), "event handler attribute"
    assert "hx-on" not in html and "javascript:" not in html
    if "printing/" not in str(template):  # PDFs are drawn by WeasyPrint, not by a browser
        assert "<style" not in html


def test_htmx_injects_no_style_element():
    html = (ROOT / "templates/base.html").read_text()
    assert """<meta name="htmx-config" content='{"includeIndicatorStyles": false}'>""" in html


VIOLATION_LISTENER = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(e.violatedDirective + " " + e.blockedURI));
"""


def visit(page, url, violations):
    """Open `url`, collecting every policy violation (events and console messages)."""
    messages = []
    page.on("console", lambda message: messages.append(message.text))
    page.add_init_script(VIOLATION_LISTENER)
    page.goto(url)
    page.wait_for_load_state("networkidle")
    found = page.evaluate("window.__violations") + [
        m for m in messages if "Content Security Policy" in m or "Refused to" in m
    ]
    violations.extend(f"{url}: {v}" for v in found)
    return page


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_no_page_of_any_role_breaks_the_policy_in_chromium(
    live_server, new_page, client, organiser, head_referee, referee
):
    tournament()
    _, token = create_device_link(Tournament.objects.get(), label="Tablet")
    base = live_server.url
    violations = []
    public = [
        "/",
        "/t/test/",
        "/t/test/standings/",
        "/t/test/player/p1/",
        "/t/test/round/1/",
        "/t/test/projector/",
        "/t/test/ceremony/",
        "/t/test/timer",
        "/accounts/login/",
        f"/accounts/device/sign-in/{token}/",
    ]
    for path in public:
        visit(new_page(TABLET), base + path, violations)
    pages = {
        organiser: [
            "/staff/",
            "/staff/test/",
            "/staff/test/settings/",
            "/staff/test/players/",
            "/staff/test/players/import/",
            "/staff/test/rounds/2/",
            "/accounts/device/test/",
            "/print/test/",
            "/admin/",
            "/admin/scoring/seatresult/",
            reverse("admin:tournament_player_change", args=[1]),
        ],
        head_referee: [
            "/referee/test/",
            "/referee/test/ties/",
            "/t/test/results-control/",
            "/referee/test/round/1/table/1/",
        ],
        referee: ["/referee/test/players/", "/referee/test/player/1/"],
    }
    for user, paths in pages.items():
        for path in paths:
            page = signed_in_page(new_page, live_server, client, user)
            visit(page, base + path, violations)
    # The referee's sheet with htmx and sheet.js at work: the preview, the keypad, saving a game.
    page = visit(
        signed_in_page(new_page, live_server, client, referee), base + "/referee/test/round/2/table/1/", violations
    )
    page.click("label[for=g1-ending-A]")
    page.fill("#g1-B-tiles", "23")
    page.locator("#game-1 .rack--C .keypad summary").click()
    page.click("#game-1 button[name=key-C][value='10']")
    page.click("label[for=g1-D-opening-not_possible]")
    page.wait_for_load_state("networkidle")
    page.click("#game-1 .save-button")
    expect(page.locator("#g2-version")).to_have_value("1")  # saved through htmx
    violations.extend(page.evaluate("window.__violations"))
    assert not violations, "\n".join(violations)

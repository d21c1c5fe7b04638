"""Every address that only takes a POST, asked with GET as each role (a reload, Back, a tablet
restoring its tabs): the answer is the app's own page in the visitor's language, never the
browser's bare "HTTP ERROR 405", and it keeps the Allow header and the security headers."""

import pytest

from tests.support.pages import ROLES, client_for, pages, world  # noqa: F401 (world: a fixture)

pytestmark = pytest.mark.django_db

HEADING = {"pl": "Ten adres działa tylko po naciśnięciu przycisku", "en": "This address only takes a button press"}
SECURITY_HEADERS = (
    "X-Frame-Options",
    "X-Content-Type-Options",
    "Referrer-Policy",
    "Cross-Origin-Opener-Policy",
    "Content-Security-Policy",
)


def problems_of_405(url, response, language):
    html = response.content.decode()
    problems = []
    if HEADING[language] not in html or "<html" not in html:
        problems.append(f"{url}: 405 without the app's page in {language}")
    if "POST" not in response.get("Allow", ""):
        problems.append(f"{url}: 405 without an Allow header naming POST")
    problems.extend(f"{url}: no {header}" for header in SECURITY_HEADERS if header not in response)
    return problems


@pytest.mark.parametrize("role", list(ROLES))
def test_every_post_only_url_asked_with_get_answers_the_apps_page(world, role):
    client = client_for(role)
    problems, post_only = [], 0
    for _route, url in pages(world):
        response = client.get(url)
        if response.status_code == 405:
            post_only += 1
            problems.extend(problems_of_405(url, response, "pl"))
    assert not problems, "\n".join(problems)
    assert post_only >= 10  # the players' actions, the rounds' actions, the tablets' links, sign-out…


def test_the_page_speaks_english_to_an_english_visitor_and_links_to_the_page_the_action_belongs_to(world):
    client = client_for("organiser")
    client.cookies["django_language"] = "en"
    player = world["player"]
    response = client.get(f"/staff/senioriada-demo/players/{player.pk}/check-in/")
    assert response.status_code == 405
    assert not problems_of_405("check-in", response, "en")
    assert f'href="/staff/senioriada-demo/players/{player.pk}/"' in response.content.decode()


def test_the_card_confirmation_opened_again_is_the_players_page(world):
    client = client_for("head referee")
    player = world["player"]
    response = client.get(f"/referee/senioriada-demo/player/{player.pk}/card/")
    assert response.status_code == 302 and response["Location"] == f"/referee/senioriada-demo/player/{player.pk}/"
    response = client.get(f"/referee/senioriada-demo/player/{player.pk}/card/withdraw/")
    assert response.status_code == 302 and response["Location"] == f"/referee/senioriada-demo/player/{player.pk}/"

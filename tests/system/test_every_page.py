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

import pytest

from tests.support.pages import ROLES, client_for, excluded, pages, world  # noqa: F401 (world: a fixture)
from tests.support.polish_text import LEFTOVER_SYNTAX, english_fragments, untranslated, visible_text
from tests.support.urls import url_patterns

pytestmark = pytest.mark.django_db


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
    for _route, url in pages(world):
        response = client.get(url)
        head = client.head(url)
        if head.status_code != response.status_code or head.content:
            problems.append(
                f"{url}: GET {response.status_code}, HEAD {head.status_code} with {len(head.content)} bytes"
            )
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

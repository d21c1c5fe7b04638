"""Polish that agrees (issue 31.7): the final's states are masculine ("Finał opublikowany", while
"Runda 2 opublikowana" stays feminine); what is said of a player needs no gendered verb or adjective
(a woman is never "wyłożył" or "nieobecny"); the seat letter is a "Krzesło", never "Miejsce", which
reads as a place in the standings. Read from the catalogue and from rendered pages."""

import re

import pytest
from django.utils import translation

from tests.factories import build, started_round, table
from tests.support.files import entries
from tournament.models import Round

# Past forms and adjectives that give a player a gender. "kto"/"nikt" (who/nobody) take the
# masculine form whoever is meant, so "Kto wyłożył…?" stays.
GENDERED = re.compile(
    r"(?<!kto )(?<!nikt nie )\b(wyłożył|wyłożyła|mógł(?= wyłożyć)|mogła(?= wyłożyć)|wygrał|wygrała)(?!\w)"
    r"|^(nie)?obecn[yai]$|^wycofan[yai]$|^zdyskwalifikowan[yai]$|^aktywn[yai]$",
    re.IGNORECASE,
)


def polish(msgid, context=None):
    with translation.override("pl"):
        return translation.pgettext(context, msgid) if context else translation.gettext(msgid)


def test_the_final_is_masculine_and_a_round_feminine():
    with translation.override("pl"):
        final = Round(number=6, kind=Round.Kind.FINAL)
        round_2 = Round(number=2, kind=Round.Kind.QUALIFYING)
        for state, masculine, feminine in [
            ("published", "opublikowany", "opublikowana"),
            ("started", "rozpoczęty", "rozpoczęta"),
            ("completed", "zakończony", "zakończona"),
        ]:
            final.state = round_2.state = state
            assert f"{final} {final.get_state_display()}" == f"Finał {masculine}"
            assert f"{round_2} {round_2.get_state_display()}" == f"Runda 2 {feminine}"
    with translation.override("en"):
        final.state = "published"
        assert final.get_state_display() == "published"


def test_no_polish_message_gives_a_player_a_gender():
    found = [
        (entry["msgid"], text)
        for entry in entries()
        for text in entry["msgstr"]
        if GENDERED.search(text) and entry["context"] != "card"  # a card (karta) is feminine: no player's gender
    ]
    assert found == []


@pytest.mark.parametrize(
    "msgid, expected",
    [
        ("went out", "wszystko wyłożone"),
        ("laid out", "wyłożenie wykonane"),
        ("could not lay out", "wyłożenie niemożliwe"),
        ("checked in", "obecność potwierdzona"),
        ("not checked in", "obecność niepotwierdzona"),
        ("disqualified", "dyskwalifikacja"),
        ("Seat", "Krzesło"),
        ("Place", "Miejsce"),
    ],
)
def test_words_said_of_a_player_and_of_the_seat(msgid, expected):
    assert polish(msgid) == expected


def test_the_gendered_check_catches_what_it_is_for():
    assert GENDERED.search("Gracz wyłożył wszystko") and GENDERED.search("nieobecny") and GENDERED.search("Wygrał(a) A")
    assert not GENDERED.search("Kto wyłożył wszystkie kamienie?") and not GENDERED.search("obecność potwierdzona")


@pytest.mark.django_db
def test_the_seat_letter_column_reads_krzeslo_on_the_sheet_and_the_final_reads_right_on_the_dashboard(organiser_client):
    organiser_client.cookies["django_language"] = "pl"
    rounds = [
        started_round(table(1, ["p1", "p2", "p3", "p4"]), number=1, state="completed"),
        {"number": 2, "kind": "final", "state": "published", "tables": [table(1, ["p1", "p2", "p3", "p4"])]},
    ]
    build(4, rounds=rounds, settings={"rounds_planned": 1})
    with translation.override("pl"):
        sheet = organiser_client.get("/referee/test/round/2/table/1/", HTTP_ACCEPT_LANGUAGE="pl").content.decode()
        dashboard = organiser_client.get("/staff/test/", HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert re.search(r'<th scope="col">(<span class="totals__seat">)?Krzesło<', sheet)
    assert not re.search(r'<th scope="col">(<span class="totals__seat">)?Miejsce<', sheet)
    assert re.search(r"Finał\s*</strong>\s*<span[^>]*>opublikowany</span>", dashboard), "the rounds list"
    assert "opublikowana" not in dashboard

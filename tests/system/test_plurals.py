"""Every number in a message agrees with its words, in English and in Polish (three forms:
1 gracz, 2 gracze, 5 graczy, 22 gracze).

The catalogue is read for numbers glued into text without a plural form, and the count-bearing
messages are rendered with 1, 2, 5 and 22 in both languages, through the code that makes them
where that is a function, else through the catalogue with the msgids the templates use.
"""

import re

import pytest
from django.template import Context, Template
from django.utils import translation
from django.utils.translation import ngettext, npgettext

from organiser.views.dashboard import SHEET_COUNT_LABELS
from scoring.models import ScoreSheet
from tests.support.files import entries
from tournament.refusals import message_for
from tournament.validation import at_most_characters

COUNTS = (1, 2, 5, 22)

# English nouns that follow a number in a message; a number glued to one of them in a message
# without plural forms reads wrong for some count ("1 players", "2 player").
COUNTED_NOUNS = (
    "players?|rounds?|tables?|games?|results?|minutes?|hours?|characters?|points?|jokers?|tiles?|sheets?|"
    "times?|cards?|links?|tablets?|problems?|places?|changes?|organisations?"
)
GLUED = re.compile(rf"%\((\w+)\)[sd] (?:[a-z-]+ )?(?:{COUNTED_NOUNS})\b|\bthere (?:is|are|were) %\((\w+)\)[sd]")


def _render(msgid, plural, count, language, placeholder="count", context=None, **values):
    with translation.override(language):
        text = npgettext(context, msgid, plural, count) if context else ngettext(msgid, plural, count)
        return text % {placeholder: count, **values}


def test_no_number_is_glued_to_a_counted_word_without_plural_forms():
    glued = [e["msgid"] for e in entries() if not e["plural"] and GLUED.search(e["msgid"])]
    assert glued == []


def test_a_message_that_names_a_count_has_plural_forms():
    counted = [e["msgid"] for e in entries() if not e["plural"] and re.search(r"%\((count|counter)\)", e["msgid"])]
    assert counted == []


def test_the_glued_number_check_catches_the_mistakes_it_is_for():
    assert GLUED.search("An organisation may enter at most %(quota)s players.")
    assert GLUED.search("%(count)s players imported.")
    assert GLUED.search("%(planned)s qualifying rounds")
    assert GLUED.search("the limit is reached; there are %(count)s.")
    assert not GLUED.search("Round %(number)s has started.")
    assert not GLUED.search("Table %(table)s, seat %(seat)s")
    assert not GLUED.search("%(round)s cannot be published: it is %(state)s.")


@pytest.mark.parametrize(
    "language, expected",
    [
        (
            "en",
            [
                "UTW already has 1 player;",
                "UTW already has 2 players;",
                "UTW already has 5 players;",
                "UTW already has 22 players;",
            ],
        ),
        (
            "pl",
            [
                "UTW ma już 1 zgłoszonego gracza;",
                "UTW ma już 2 zgłoszonych graczy;",
                "UTW ma już 5 zgłoszonych graczy;",
                "UTW ma już 22 zgłoszonych graczy;",
            ],
        ),
    ],
)
def test_the_organisation_quota_message(language, expected):
    """Issue: "An organisation may enter at most 1 players" and "Klub 1 already has 1 players"."""
    with translation.override(language):
        messages = [message_for("quota_reached", {"organisation": "UTW", "count": n, "quota": 1}) for n in COUNTS]
        assert [message.split(";")[0] + ";" for message in messages] == expected


# (msgid, msgid_plural, placeholder, English forms for 1, 2, 5, 22, Polish forms for 1, 2, 5, 22)
CATALOGUE_MESSAGES = [
    (
        "%(counter)s active player",
        "%(counter)s active players",
        "counter",
        ["1 active player", "2 active players", "5 active players", "22 active players"],
        ["1 aktywny gracz", "2 aktywni gracze", "5 aktywnych graczy", "22 aktywni gracze"],
    ),
    (
        "%(counter)s checked in",
        "%(counter)s checked in",
        "counter",
        ["1 checked in", "2 checked in", "5 checked in", "22 checked in"],
        [
            "obecność potwierdzona: 1",
            "obecność potwierdzona: 2",
            "obecność potwierdzona: 5",
            "obecność potwierdzona: 22",
        ],
    ),
    (
        "%(counter)s withdrawn",
        "%(counter)s withdrawn",
        "counter",
        ["1 withdrawn", "2 withdrawn", "5 withdrawn", "22 withdrawn"],
        ["wycofania: 1", "wycofania: 2", "wycofania: 5", "wycofania: 22"],
    ),
    (
        "%(counter)s disqualified",
        "%(counter)s disqualified",
        "counter",
        ["1 disqualified", "2 disqualified", "5 disqualified", "22 disqualified"],
        ["dyskwalifikacje: 1", "dyskwalifikacje: 2", "dyskwalifikacje: 5", "dyskwalifikacje: 22"],
    ),
    (
        "%(counter)s player registered",
        "%(counter)s players registered",
        "counter",
        ["1 player registered", "2 players registered", "5 players registered", "22 players registered"],
        None,
    ),
    (
        "%(planned)s qualifying round",
        "%(planned)s qualifying rounds",
        "planned",
        ["1 qualifying round", "2 qualifying rounds", "5 qualifying rounds", "22 qualifying rounds"],
        ["1 runda eliminacyjna", "2 rundy eliminacyjne", "5 rund eliminacyjnych", "22 rundy eliminacyjne"],
    ),
    (
        "at most %(quota)s player per organisation",
        "at most %(quota)s players per organisation",
        "quota",
        [
            "at most 1 player per organisation",
            "at most 2 players per organisation",
            "at most 5 players per organisation",
            "at most 22 players per organisation",
        ],
        [
            "najwyżej 1 gracz na organizację",
            "najwyżej 2 gracze na organizację",
            "najwyżej 5 graczy na organizację",
            "najwyżej 22 gracze na organizację",
        ],
    ),
    (
        "%(count)s player imported.",
        "%(count)s players imported.",
        "count",
        ["1 player imported.", "2 players imported.", "5 players imported.", "22 players imported."],
        ["Zaimportowano 1 gracza.", "Zaimportowano 2 graczy.", "Zaimportowano 5 graczy.", "Zaimportowano 22 graczy."],
    ),
    (
        "Scores were recomputed with the new settings: %(count)s result changed.",
        "Scores were recomputed with the new settings: %(count)s results changed.",
        "count",
        [f"Scores were recomputed with the new settings: {n} result{'s' if n > 1 else ''} changed." for n in COUNTS],
        [
            "Wyniki przeliczono według nowych ustawień: zmienił się 1 wynik.",
            "Wyniki przeliczono według nowych ustawień: zmieniły się 2 wyniki.",
            "Wyniki przeliczono według nowych ustawień: zmieniło się 5 wyników.",
            "Wyniki przeliczono według nowych ustawień: zmieniły się 22 wyniki.",
        ],
    ),
    (
        "%(count)s round has already been drawn: plan at least that many.",
        "%(count)s rounds have already been drawn: plan at least that many.",
        "count",
        [
            "1 round has already been drawn: plan at least that many.",
            "2 rounds have already been drawn: plan at least that many.",
            "5 rounds have already been drawn: plan at least that many.",
            "22 rounds have already been drawn: plan at least that many.",
        ],
        [
            "Rozlosowano już 1 rundę: zaplanuj co najmniej tyle.",
            "Rozlosowano już 2 rundy: zaplanuj co najmniej tyle.",
            "Rozlosowano już 5 rund: zaplanuj co najmniej tyle.",
            "Rozlosowano już 22 rundy: zaplanuj co najmniej tyle.",
        ],
    ),
    (
        "Save and change %(counter)s verified result",
        "Save and change %(counter)s verified results",
        "counter",
        [f"Save and change {n} verified result{'s' if n > 1 else ''}" for n in COUNTS],
        [
            "Zapisz i zmień 1 zweryfikowany wynik",
            "Zapisz i zmień 2 zweryfikowane wyniki",
            "Zapisz i zmień 5 zweryfikowanych wyników",
            "Zapisz i zmień 22 zweryfikowane wyniki",
        ],
    ),
    (
        "%(counter)s table",
        "%(counter)s tables",
        "counter",
        ["1 table", "2 tables", "5 tables", "22 tables"],
        ["1 stolik", "2 stoliki", "5 stolików", "22 stoliki"],
    ),
]


@pytest.mark.parametrize(
    "msgid, plural, placeholder, english, polish", CATALOGUE_MESSAGES, ids=[m[0] for m in CATALOGUE_MESSAGES]
)
def test_count_bearing_messages_read_right_for_1_2_5_and_22(msgid, plural, placeholder, english, polish):
    assert [_render(msgid, plural, n, "en", placeholder) for n in COUNTS] == english
    rendered = [_render(msgid, plural, n, "pl", placeholder) for n in COUNTS]
    assert rendered != english, "no Polish translation"
    if polish is not None:
        assert rendered == polish


def test_the_sign_in_pause_counts_minutes():
    template = Template(
        "{% load i18n %}{% blocktranslate count minutes=minutes %}Too many wrong passwords for “{{ username }}” on this "
        "network. This user can try again in {{ minutes }} minute.{% plural %}Too many wrong passwords for “{{ username }}” "
        "on this network. This user can try again in {{ minutes }} minutes.{% endblocktranslate %}"
    )
    with translation.override("pl"):
        endings = [template.render(Context({"minutes": n, "username": "ala"})).split(" za ")[-1] for n in COUNTS]
    assert endings == ["1 minutę.", "2 minuty.", "5 minut.", "22 minuty."]


def test_character_limits_and_rack_limits_agree_with_the_number():
    with translation.override("pl"):
        assert [at_most_characters(n) % {"count": n} for n in COUNTS] == [
            "Najwyżej 1 znak.",
            "Najwyżej 2 znaki.",
            "Najwyżej 5 znaków.",
            "Najwyżej 22 znaki.",
        ]
        assert [message_for("keypad_jokers", {"max": n}) for n in COUNTS] == [
            "Komplet ma tylko 1 jokera.",
            "Komplet ma tylko 2 jokery.",
            "Komplet ma tylko 5 jokerów.",
            "Komplet ma tylko 22 jokery.",
        ]
    with translation.override("en"):
        assert [at_most_characters(n) % {"count": n} for n in COUNTS] == [
            "At most 1 character.",
            "At most 2 characters.",
            "At most 5 characters.",
            "At most 22 characters.",
        ]
        assert message_for("jokers_range", {"max": 1}) == "A rack can hold at most 1 joker."
        assert message_for("jokers_range", {"max": 2}) == "A rack can hold at most 2 jokers."


def test_the_dashboard_counts_sheets_with_agreeing_words():
    with translation.override("pl"):
        verified = [f"{n} {SHEET_COUNT_LABELS[ScoreSheet.State.VERIFIED](n)}" for n in COUNTS]
    assert verified == ["1 zweryfikowana", "2 zweryfikowane", "5 zweryfikowanych", "22 zweryfikowane"]
    with translation.override("en"):
        assert SHEET_COUNT_LABELS[ScoreSheet.State.SUBMITTED](5) == "submitted"

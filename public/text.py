"""Diacritics-insensitive name search for "find my table": "lecki" finds "Łęcki".

NFKD splits most accented letters into a base letter and combining marks, which are then
dropped; a few letters have no decomposition (ł, ø, đ, ß …) and are mapped explicitly.
"""

import functools
import unicodedata

MAX_QUERY_LENGTH = 100

# Letters that NFKD leaves whole, folded to what a person types without diacritics.
UNDECOMPOSABLE = str.maketrans(
    {
        "ł": "l",
        "Ł": "l",
        "ø": "o",
        "Ø": "o",
        "đ": "d",
        "Đ": "d",
        "ħ": "h",
        "Ħ": "h",
        "ß": "ss",
        "æ": "ae",
        "Æ": "ae",
        "œ": "oe",
        "Œ": "oe",
        "ı": "i",
    }
)


def _bare(text):
    """Text in NFKD without combining marks and with every control or format character dropped."""
    return "".join(
        " " if char.isspace() else char
        for char in unicodedata.normalize("NFKD", text)
        if not unicodedata.combining(char) and (char.isspace() or unicodedata.category(char)[0] != "C")
    )


@functools.lru_cache(maxsize=4096)
def fold(text):
    """Lower-case text without diacritics, control characters or repeated spaces (each text
    folded once per process: the search folds every player's name and club at each letter typed).

    Case folding and decomposition can each produce what the other removes ("℠" gives "SM",
    "İ" gives "i" and a dot), so both run again after the letters without a decomposition
    are mapped.
    """
    text = _bare(str(text).casefold()).translate(UNDECOMPOSABLE)
    return " ".join(_bare(text.casefold()).split())


def search_terms(query):
    """The folded words of a visitor's query (at most MAX_QUERY_LENGTH characters are read)."""
    return fold(str(query)[:MAX_QUERY_LENGTH]).split()


def name_matches(terms, name):
    """True when every search term occurs in the folded name ("ann now" finds "Anna Nowak")."""
    folded = fold(str(name))
    return bool(terms) and all(term in folded for term in terms)

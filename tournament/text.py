"""Polish alphabetical order, independent of the machine's locales.

The Polish alphabet puts each letter with a diacritic right after its base letter:
a ą b c ć d e ę f g h i j k l ł m n ń o ó p q r s ś t u v w x y z ź ż.
Comparison ignores case; names that still compare equal are ordered by the raw string,
so the order is total and stable.
"""

import unicodedata

from django.utils.text import slugify

ALPHABET = "aąbcćdeęfghijklłmnńoópqrsśtuvwxyzźż"
_LETTER_RANK = {letter: rank for rank, letter in enumerate(ALPHABET)}

# Classes of characters, in sort order: separators first, then digits, then letters.
_SEPARATOR, _DIGIT, _LETTER, _OTHER = range(4)


def _char_key(char):
    lower = char.lower()
    if lower in _LETTER_RANK:
        return (_LETTER, _LETTER_RANK[lower], 0, 0)
    if char.isdigit():
        return (_DIGIT, ord(char), 0, 0)
    if char.isalpha():
        # A letter outside the Polish alphabet (é, ü, ß…) sorts right after its base letter.
        base = unicodedata.normalize("NFD", lower)[0]
        if base in _LETTER_RANK:
            return (_LETTER, _LETTER_RANK[base], 1, ord(lower))
        return (_OTHER, ord(lower), 0, 0)
    return (_SEPARATOR, 0, 0, 0) if char.isspace() or char in "-‐–—'’.,_" else (_OTHER, ord(char), 0, 0)


def polish_sort_key(text):
    """A key for `sorted` giving Polish alphabetical order, case-insensitive."""
    raw = str(text)
    normalized = unicodedata.normalize("NFC", " ".join(raw.split()))
    return (tuple(_char_key(char) for char in normalized), raw)


def sorted_polish(items, key=lambda item: item):
    """`items` sorted by the Polish alphabetical order of `key(item)`."""
    return sorted(items, key=lambda item: polish_sort_key(key(item)))


def match_key(text):
    """A name as people tell names apart by ear: case, spacing and Polish diacritics ignored
    ("Łukasz  Wójcik" and "lukasz wojcik" give the same key)."""
    folded = unicodedata.normalize("NFKD", str(text).replace("ł", "l").replace("Ł", "L"))
    letters = "".join(char for char in folded if not unicodedata.combining(char))
    return " ".join(letters.casefold().split())


def slug_from(text):
    """An ASCII web address part from a Polish name: "Łódź 2026" → "lodz-2026"."""
    return slugify(str(text).replace("ł", "l").replace("Ł", "L"))

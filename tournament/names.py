"""A person's name in two parts, surname and given names, and the order lists use.

Polish registration lists write a whole name as "Anna Nowak" (given names, then the surname),
so in one piece the last word is the surname; a particle before it ("van", "de", …) belongs
to the surname too ("Jan van Dijk": van Dijk). A column headed "Nazwisko i imię" writes the
surname first ("Nowak Anna"), and a comma marks it wherever it stands ("Nowak, Anna").

Everything a person scans for their own name is in surname order (Polish alphabetical order of
the surname, then of the given names) and shows the surname first, "Nowak Anna"; everything
else (score sheets, standings, diplomas) writes the name as it is read, "Anna Nowak".
"""

from __future__ import annotations

from typing import NamedTuple

from tournament.text import polish_sort_key

# Words that start a surname when they stand before its last word ("Ludwig van Beethoven").
PARTICLES = frozenset(
    {"da", "de", "del", "della", "der", "di", "dos", "du", "la", "le", "ten", "ter", "van", "von", "zu"}
)


class NameParts(NamedTuple):
    given_names: str
    surname: str


def full_name(given_names: str, surname: str) -> str:
    """The name as it is read: "Anna Nowak" (just the surname when there are no given names)."""
    return " ".join(f"{given_names} {surname}".split())


def surname_first(given_names: str, surname: str) -> str:
    """The name as a list sorted by surname shows it: "Nowak Anna"."""
    return " ".join(f"{surname} {given_names}".split())


def split_name(text: str, *, surname_first: bool = False, comma: bool = True) -> NameParts:
    """The parts of a name written in one piece.

    "Anna Maria Nowak" → ("Anna Maria", "Nowak"); "Jan van Dijk" → ("Jan", "van Dijk");
    with `surname_first` (a "Nazwisko i imię" column) "Nowak Anna Maria" → ("Anna Maria", "Nowak");
    with `comma` "Nowak, Anna" → ("Anna", "Nowak") either way. A single word is a surname.
    `full_name` of the parts gives the text back (white space collapsed) unless a comma was read.
    """
    if comma and "," in text:
        surname, _comma, given_names = text.partition(",")
        surname, given_names = " ".join(surname.split()), " ".join(given_names.replace(",", " ").split())
        if surname and given_names:
            return NameParts(given_names, surname)
        text = f"{given_names} {surname}"
    words = text.split()
    if len(words) < 2:
        return NameParts("", " ".join(words))
    if surname_first:
        return NameParts(" ".join(words[1:]), words[0])
    start = len(words) - 1
    while start > 1 and words[start - 1] in PARTICLES:
        start -= 1
    return NameParts(" ".join(words[:start]), " ".join(words[start:]))


def surname_key(person) -> tuple:
    """A sort key of anything with `surname` and `given_names`: the Polish order of the
    surname, then of the given names ("Cebula" < "Ćwik" < "Lis" < "Łukasz" < "Żak")."""
    return polish_sort_key(person.surname), polish_sort_key(person.given_names)


def sorted_by_surname(items, person=lambda item: item):
    """`items` in surname order of `person(item)` (the item itself by default)."""
    return sorted(items, key=lambda item: surname_key(person(item)))

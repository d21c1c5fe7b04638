"""Likely duplicates among people's names (issue 48.3): two records of one organisation that may
be one person typed twice.

Two names are likely the same person when, folded (case, spacing and Polish diacritics ignored),
they hold the same words in another order ("Maria Teresa Chmiel" and "Chmiel Teresa Maria") or
are one edit apart: a letter added, left out, changed, or two neighbours swapped (a
Damerau–Levenshtein distance of 1, "Kowalski" and "Kowlaski"). Identical folded names count too.

`likely_duplicates` compares a whole organisation's names without comparing every pair: names
that share their sorted words, or one of their "one letter left out" variants, are the only
candidates (every pair one edit apart shares one), and each candidate pair is checked.
Pure Python, no Django: the caller reads the names in one query and links the pairs it gets.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from collections.abc import Hashable, Mapping
from itertools import combinations
from typing import TypeVar

Key = TypeVar("Key", bound=Hashable)

MAX_NAME = 120  # longer names (none is real) are compared by their words only


def fold(name: str) -> str:
    """A name as people tell names apart by ear: case, spacing and diacritics ignored, ł as l."""
    decomposed = unicodedata.normalize("NFKD", str(name).replace("ł", "l").replace("Ł", "L"))
    letters = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(letters.casefold().split())


def edit_distance(a: str, b: str) -> int:
    """The Damerau–Levenshtein distance of `a` and `b` (optimal string alignment): the fewest
    letters added, left out, changed or neighbours swapped that turn one into the other."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[len(b)]


def one_edit_apart(a: str, b: str) -> bool:
    """Whether `edit_distance(a, b) <= 1`, in one pass (the check `likely_duplicates` runs on
    every candidate pair)."""
    if a == b:
        return True
    if len(a) > len(b):
        a, b = b, a
    if len(b) - len(a) > 1:
        return False
    at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), len(a))
    if len(a) != len(b):  # one letter more in b, at or after `at`
        return a[at:] == b[at + 1 :]
    if a[at + 1 :] == b[at + 1 :]:  # one letter changed
        return True
    return at + 1 < len(a) and a[at] == b[at + 1] and a[at + 1] == b[at] and a[at + 2 :] == b[at + 2 :]


def _words(folded: str) -> tuple[str, ...]:
    return tuple(sorted(folded.split()))


def alike(a: str, b: str) -> bool:
    """Whether names `a` and `b` are likely one person's: folded, the same words in any order, or
    one edit apart."""
    first, second = fold(a), fold(b)
    if not first or not second:
        return False
    if _words(first) == _words(second):
        return True
    return one_edit_apart(first, second)


def _deletions(folded: str) -> set[str]:
    """The name itself and every name with one of its characters left out."""
    if len(folded) > MAX_NAME:
        return set()
    return {folded} | {folded[:i] + folded[i + 1 :] for i in range(len(folded))}


def likely_duplicates(names: Mapping[Key, str]) -> list[tuple[Key, Key]]:
    """Every pair of keys whose names are `alike`, each pair once, in the order of `names`
    (the earlier key first), pairs ordered by their first key, then their second."""
    order = {key: index for index, key in enumerate(names)}
    folded = {key: fold(name) for key, name in names.items()}
    buckets: defaultdict[object, list[Key]] = defaultdict(list)
    for key, name in folded.items():
        if not name:
            continue
        buckets[("words", _words(name))].append(key)
        for variant in _deletions(name):
            buckets[("letters", variant)].append(key)
    pairs: set[tuple[Key, Key]] = set()
    checked: set[tuple[Key, Key]] = set()
    for keys in buckets.values():
        for first, second in combinations(dict.fromkeys(keys), 2):
            pair = (first, second) if order[first] < order[second] else (second, first)
            if pair in checked:
                continue
            checked.add(pair)
            a, b = folded[first], folded[second]
            if _words(a) == _words(b) or one_edit_apart(a, b):
                pairs.add(pair)
    return sorted(pairs, key=lambda pair: (order[pair[0]], order[pair[1]]))


def duplicates_of(names: Mapping[Key, str]) -> dict[Key, list[Key]]:
    """{key: the other keys its name is alike} for every key with at least one, in `names` order."""
    found: dict[Key, list[Key]] = {}
    for first, second in likely_duplicates(names):
        found.setdefault(first, []).append(second)
        found.setdefault(second, []).append(first)
    return found

"""Likely duplicates among names (`engine/duplicates.py`, issue 48.3): worked examples, and
hypothesis properties against a brute-force comparison of every pair."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from engine.duplicates import alike, duplicates_of, edit_distance, fold, likely_duplicates, one_edit_apart

LETTERS = "abcłóż "
names = st.text(alphabet=LETTERS, min_size=0, max_size=8)


def test_worked_examples():
    assert fold("  Łucja   WÓJCIK ") == "lucja wojcik"
    assert alike("Maria Teresa Chmiel", "Chmiel Teresa Maria")  # the same words in another order
    assert alike("Lucja Wojcik", "Łucja Wójcik")  # diacritics aside, identical
    assert alike("Jan Kowalski", "Jan Kowlaski")  # two neighbours swapped
    assert alike("Jan Kowalski", "Jan Kowalsky")  # one letter changed
    assert alike("Jan Kowalski", "Jan Kowalsk")  # one letter left out
    assert not alike("Jan Kowalski", "Jan Kowalczyk")  # several letters
    assert not alike("Anna Nowak", "Anna Nowicka")
    assert not alike("Anna Nowak", "")
    assert edit_distance("kowalski", "kowlaski") == 1
    assert edit_distance("ca", "abc") == 3  # optimal string alignment: no edit of a swapped pair
    assert edit_distance("nowak", "nowicka") == 3


def test_pairs_of_an_organisation_in_its_order():
    people = {
        1: "Maria Teresa Chmiel",
        2: "Anna Nowak",
        3: "Chmiel Teresa Maria",
        4: "Jan Kowalski",
        5: "Anna Nowakowa",
        6: "Jan Kowlaski",
        7: "Anna Nowak",
    }
    assert likely_duplicates(people) == [(1, 3), (2, 7), (4, 6)]
    assert duplicates_of(people) == {1: [3], 3: [1], 2: [7], 7: [2], 4: [6], 6: [4]}


def brute_force(people):
    keys = list(people)
    return [(a, b) for a, b in combinations(keys, 2) if alike(people[a], people[b])]


@given(st.lists(names, max_size=12))
def test_the_same_pairs_as_comparing_every_pair(typed):
    people = dict(enumerate(typed))
    assert likely_duplicates(people) == brute_force(people)


@given(names, names)
def test_alike_is_symmetric_and_ignores_case_and_diacritics(a, b):
    assert alike(a, b) == alike(b, a)
    assert alike(a, b) == alike(a.upper(), b.replace("l", "ł").replace("o", "ó"))


@given(st.lists(st.text(alphabet="abcdł", min_size=1, max_size=6), min_size=1, max_size=4), st.randoms())
def test_any_order_of_the_same_words_is_alike(words, random):
    shuffled = list(words)
    random.shuffle(shuffled)
    assert alike(" ".join(words), " ".join(shuffled))


@given(st.text(alphabet="abcdef", min_size=2, max_size=10), st.data())
def test_one_edit_is_alike_and_the_distance_is_one(name, data):
    at = data.draw(st.integers(0, len(name) - 2))
    edit = data.draw(st.sampled_from(["drop", "add", "change", "swap"]))
    letter = data.draw(st.sampled_from("abcdefxyz"))
    edited = {
        "drop": name[:at] + name[at + 1 :],
        "add": name[:at] + letter + name[at:],
        "change": name[:at] + letter + name[at + 1 :],
        "swap": name[:at] + name[at + 1] + name[at] + name[at + 2 :],
    }[edit]
    assert edit_distance(name, edited) <= 1
    assert alike(name, edited)


@given(names, names)
def test_the_distance_is_a_distance(a, b):
    assert edit_distance(a, b) == edit_distance(b, a)
    assert (edit_distance(a, b) == 0) == (a == b)
    assert edit_distance(a, b) <= max(len(a), len(b))


@given(st.text(alphabet="abc ", max_size=7), st.text(alphabet="abc ", max_size=7))
def test_the_one_pass_check_agrees_with_the_distance(a, b):
    assert one_edit_apart(a, b) == (edit_distance(a, b) <= 1)

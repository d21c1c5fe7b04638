"""The Polish alphabetical sort key."""

from hypothesis import given
from hypothesis import strategies as st

from tournament.text import ALPHABET, polish_sort_key, slug_from, sorted_polish


def test_letters_with_diacritics_follow_their_base_letter():
    words = [
        "żaba",
        "zebra",
        "źrebię",
        "łania",
        "lis",
        "mak",
        "ćma",
        "cel",
        "dom",
        "ósemka",
        "osa",
        "pies",
        "ślimak",
        "sowa",
        "tak",
    ]
    assert sorted_polish(words) == [
        "cel",
        "ćma",
        "dom",
        "lis",
        "łania",
        "mak",
        "osa",
        "ósemka",
        "pies",
        "sowa",
        "ślimak",
        "tak",
        "zebra",
        "źrebię",
        "żaba",
    ]


def test_the_whole_alphabet_is_in_order():
    shuffled = list(reversed(ALPHABET))
    assert "".join(sorted_polish(shuffled)) == "aąbcćdeęfghijklłmnńoópqrsśtuvwxyzźż"


def test_case_is_ignored_and_ties_are_broken_by_the_raw_string():
    assert sorted_polish(["Łucja", "lucyna", "Ludwik", "łukasz"]) == ["lucyna", "Ludwik", "Łucja", "łukasz"]
    assert sorted_polish(["anna", "Anna", "ANNA"]) == ["ANNA", "Anna", "anna"]


def test_a_shorter_name_and_a_space_come_before_a_longer_word():
    assert sorted_polish(["Nowakowska Ewa", "Nowak Jan", "Nowak"]) == ["Nowak", "Nowak Jan", "Nowakowska Ewa"]


def test_foreign_letters_sort_next_to_their_base_letter():
    assert sorted_polish(["Renée", "Renata", "Reńka", "Rene"]) == ["Renata", "Rene", "Renée", "Reńka"]


def test_sorting_by_a_key_function():
    people = [{"name": "Żak"}, {"name": "Ćwik"}, {"name": "Czech"}]
    assert [p["name"] for p in sorted_polish(people, key=lambda p: p["name"])] == ["Czech", "Ćwik", "Żak"]


@given(st.lists(st.text(max_size=12)))
def test_the_order_is_total_and_does_not_depend_on_the_input_order(words):
    assert sorted_polish(words) == sorted_polish(list(reversed(words)))
    keys = [polish_sort_key(w) for w in sorted_polish(words)]
    assert keys == sorted(keys)


def test_a_web_address_part_from_a_polish_name():
    assert slug_from("Senioriada Łódź – Żółć 2026") == "senioriada-lodz-zolc-2026"


def test_polish_sort_key_follows_the_polish_alphabet():
    names = [
        "Żak",
        "Zając",
        "Łęcki",
        "Lis",
        "Ćwik",
        "Cebula",
        "Annabel",
        "Anna Nowak",
        "Ósma",
        "Oko",
        "Śliwa",
        "Szymon",
        "Źdźbło",
        "Zenon",
        "ąbel",
        "Abel",
        "Ewa",
        "Ęcki",
        "Nowak",
        "Ńa",
    ]
    assert sorted(names, key=polish_sort_key) == [
        "Abel",
        "Anna Nowak",
        "Annabel",
        "ąbel",
        "Cebula",
        "Ćwik",
        "Ewa",
        "Ęcki",
        "Lis",
        "Łęcki",
        "Nowak",
        "Ńa",
        "Oko",
        "Ósma",
        "Szymon",
        "Śliwa",
        "Zając",
        "Zenon",
        "Źdźbło",
        "Żak",
    ]

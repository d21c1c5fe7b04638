"""The diacritics-insensitive search fold behind "find my table"."""

from hypothesis import given, settings
from hypothesis import strategies as st

from public.text import MAX_QUERY_LENGTH, fold, name_matches, search_terms


def test_polish_letters_fold_to_what_people_type():
    assert fold("Łęcki") == "lecki"
    assert fold("ŻÓŁĆ źdźbło ŚĄŃ") == "zolc zdzblo san"


def test_letters_without_a_decomposition_are_mapped():
    assert fold("Øster Straße Đorđe") == "oster strasse dorde"


def test_search_finds_any_part_of_the_name_in_any_order():
    assert name_matches(search_terms("lecki"), "Jan Łęcki")
    assert name_matches(search_terms("  ŁĘC  jan "), "Jan Łęcki")
    assert name_matches(search_terms("nowak ann"), "Anna Nowak")
    assert not name_matches(search_terms("nowak jan"), "Anna Nowak")


def test_an_empty_query_matches_nobody():
    assert search_terms("   ") == []
    assert not name_matches([], "Anna Nowak")


def test_control_characters_and_nul_bytes_are_dropped():
    assert fold("Ann\x00a\tNo\u200bwak") == "anna nowak"


def test_only_the_start_of_a_long_query_is_read():
    assert search_terms("x" * 10_000) == ["x" * MAX_QUERY_LENGTH]


@settings(deadline=None)
@given(st.text())
def test_fold_never_fails_and_is_idempotent(text):
    once = fold(text)
    assert fold(once) == once

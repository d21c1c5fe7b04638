"""Hypothesis properties of the rules engine (`engine/rules.py`) on random valid games:
zero-sum, winners, ties, renaming seats, monotonicity."""

from __future__ import annotations

import dataclasses
import itertools

import pytest
from hypothesis import HealthCheck, assume, given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from engine.rules import (
    ADD,
    DIFFERENCE,
    DRAWN_LAST_ROUND,
    JOKER,
    MAX_JOKERS,
    MAX_TILES,
    NOT_POSSIBLE,
    OPENED,
    OPENINGS,
    POSSIBLE_NOT_DONE,
    REPLACE,
    SEAT_LETTERS,
    SUM,
    UNIT_GAME,
    UNIT_ROUND,
    Game,
    Rack,
    RuleViolation,
    Settings,
    game_big_points,
    keypad_rack,
    rack_minus,
    round_big_points,
    score_game,
    table_round,
    validate_game,
    validate_keypad_racks,
)
from engine.tests.examples import examples

FAST = hyp_settings(max_examples=examples(50), deadline=None, suppress_health_check=[HealthCheck.too_slow])

settings_strategy = st.builds(
    Settings,
    joker_penalty=st.integers(0, 100),
    opening_penalty_mode=st.sampled_from([REPLACE, ADD]),
    penalty_not_possible=st.integers(0, 500),
    penalty_possible_not_done=st.integers(0, 500),
    penalty_drawn_last_round=st.integers(0, 500),
    penalty_first_move=st.integers(0, 500),
    pool_exhausted_scoring=st.sampled_from([SUM, DIFFERENCE]),
    big_point_unit=st.sampled_from([UNIT_GAME, UNIT_ROUND]),
    # places in non-increasing order (as every real scheme), 1 to 5 entries
    big_point_places=st.lists(st.integers(0, 10), min_size=1, max_size=5).map(lambda p: tuple(sorted(p, reverse=True))),
)

# small tile values make ties (and so shared wins) frequent
tiles_strategy = st.one_of(st.integers(0, 15), st.integers(0, MAX_TILES))


@st.composite
def rack_strategy(draw, max_jokers: int = MAX_JOKERS) -> Rack:
    return Rack(
        tiles=draw(tiles_strategy),
        jokers=draw(st.integers(0, max_jokers)),
        opening=draw(st.sampled_from(OPENINGS)),
        first_move_case=draw(st.booleans()),
    )


@st.composite
def game_strategy(draw, pool_exhausted=None, seats=None) -> Game:
    if seats is None:
        size = draw(st.sampled_from([3, 4]))
        seats = tuple(sorted(draw(st.permutations(SEAT_LETTERS))[:size]))
    if pool_exhausted is None:
        pool_exhausted = draw(st.booleans())
    winner = None if pool_exhausted else draw(st.sampled_from(seats))
    racks = {}
    jokers_left = MAX_JOKERS
    for seat in draw(st.permutations([s for s in seats if s != winner])):
        rack = draw(rack_strategy(max_jokers=jokers_left))
        jokers_left -= rack.jokers
        racks[seat] = rack
    return Game(seats=seats, winner=winner, racks=racks)


@FAST
@given(game_strategy(), settings_strategy)
def test_prop_valid_games_validate_and_are_zero_sum(game, s):
    validate_game(game)
    result = score_game(game, s)
    assert set(result.scores) == set(game.seats)
    assert list(result.scores) == [x for x in SEAT_LETTERS if x in game.seats]
    assert sum(result.scores.values()) == 0
    assert all(isinstance(v, int) for v in result.scores.values())


@FAST
@given(game_strategy(), settings_strategy)
def test_prop_winners_nonnegative_others_nonpositive(game, s):
    result = score_game(game, s)
    assert result.winners, "there is always at least one winner"
    assert result.winners <= set(game.seats)
    for seat, score in result.scores.items():
        if seat in result.winners:
            assert score >= 0
        else:
            assert score <= 0
    if game.winner is not None:
        assert result.winners == {game.winner}
        assert result.scores[game.winner] == sum(rack_minus(r, s) for r in game.racks.values())


@FAST
@given(game_strategy(), settings_strategy)
def test_prop_minus_matches_rack_minus(game, s):
    result = score_game(game, s)
    for seat, rack in game.racks.items():
        assert result.minus[seat] == rack_minus(rack, s) >= 0
        if game.winner is not None:
            assert result.scores[seat] == -rack_minus(rack, s)


@FAST
@given(rack_strategy(), settings_strategy)
def test_prop_rack_minus_definition(rack, s):
    count = rack.tiles + rack.jokers * s.joker_penalty
    flagged = rack.opening != OPENED or rack.first_move_case
    applicable = {
        NOT_POSSIBLE: [s.penalty_not_possible],
        POSSIBLE_NOT_DONE: [s.penalty_possible_not_done],
        DRAWN_LAST_ROUND: [s.penalty_drawn_last_round],
        OPENED: [],
    }[rack.opening] + ([s.penalty_first_move] if rack.first_move_case else [])
    if not flagged:
        expected = count
    elif s.opening_penalty_mode == REPLACE:
        expected = max(applicable)
    else:
        expected = count + max(applicable)
    assert rack_minus(rack, s) == expected


@FAST
@given(game_strategy(pool_exhausted=True), settings_strategy)
def test_prop_pool_exhausted_winners_are_the_minimal_racks(game, s):
    result = score_game(game, s)
    minus = {seat: rack_minus(rack, s) for seat, rack in game.racks.items()}
    lowest = min(minus.values())
    assert result.winners == {seat for seat, m in minus.items() if m == lowest}
    losers = [seat for seat in game.seats if seat not in result.winners]
    for seat in losers:
        if s.pool_exhausted_scoring == SUM:
            assert result.scores[seat] == -minus[seat]
        else:
            assert result.scores[seat] == -(minus[seat] - lowest)
        assert result.scores[seat] < 0
    # winners share equally: shares differ by less than the number of winners, the
    # earliest seat holds the remainder
    ordered = [x for x in SEAT_LETTERS if x in result.winners]
    shares = [result.scores[x] for x in ordered]
    pot = -sum(result.scores[x] for x in losers)
    base, remainder = divmod(pot, len(ordered))
    assert shares == [base + remainder] + [base] * (len(ordered) - 1)
    if not losers:
        assert all(v == 0 for v in result.scores.values())


@FAST
@given(game_strategy(), settings_strategy)
def test_prop_big_points_equal_for_ties(game, s):
    result = score_game(game, s)
    big = game_big_points(result, s)
    assert set(big) == set(game.seats)
    allowed = set(s.big_point_places) | {0}
    assert set(big.values()) <= allowed
    for seat in result.winners:
        assert big[seat] == s.big_point_places[0]
    others = [x for x in game.seats if x not in result.winners]
    for a, b in itertools.combinations(others, 2):
        if result.scores[a] == result.scores[b]:
            assert big[a] == big[b]
        elif result.scores[a] > result.scores[b]:
            assert big[a] >= big[b]  # places are non-increasing
    for a in others:
        assert big[a] <= s.big_point_places[0]
    # the place of a non-winner: number of winners + number of non-winners strictly above
    for a in others:
        place = len(result.winners) + sum(1 for b in others if result.scores[b] > result.scores[a])
        assert big[a] == s.place_points(place)


@FAST
@given(
    st.dictionaries(st.sampled_from(SEAT_LETTERS), st.integers(-300, 300), min_size=3, max_size=4), settings_strategy
)
def test_prop_round_big_points_ties_share_best_place(totals, s):
    big = round_big_points(totals, s)
    for a, b in itertools.combinations(totals, 2):
        if totals[a] == totals[b]:
            assert big[a] == big[b]
        elif totals[a] > totals[b]:
            assert big[a] >= big[b]
    best = max(totals.values())
    assert all(big[x] == s.big_point_places[0] for x in totals if totals[x] == best)


@st.composite
def round_strategy(draw):
    """A round at one table: one game per seat, all with the same seats."""
    size = draw(st.sampled_from([3, 4]))
    seats = SEAT_LETTERS[:size]
    return [draw(game_strategy(seats=seats)) for _ in range(size)]


@hyp_settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(round_strategy(), settings_strategy)
def test_prop_table_round(games, s):
    results = [score_game(g, s) for g in games]
    table = table_round(results, s)
    assert sum(v["small_points"] for v in table.values()) == 0
    assert sum(v["games_won"] for v in table.values()) == sum(len(r.winners) for r in results)
    for seat, v in table.items():
        assert v["small_points"] == sum(r.scores[seat] for r in results)
        assert v["games_won"] == sum(seat in r.winners for r in results)
    if s.big_point_unit == UNIT_ROUND:
        for a, b in itertools.combinations(table, 2):
            if table[a]["small_points"] == table[b]["small_points"]:
                assert table[a]["big_points"] == table[b]["big_points"]
    else:
        for seat in table:
            assert table[seat]["big_points"] == sum(game_big_points(r, s)[seat] for r in results)
        if s.big_point_places[1:] == (0,) * (len(s.big_point_places) - 1):
            # a winner-only scheme: big points = games won x places[0]
            for v in table.values():
                assert v["big_points"] == v["games_won"] * s.big_point_places[0]


def rename(game: Game, mapping: dict[str, str]) -> Game:
    return Game(
        seats=tuple(mapping[x] for x in game.seats),
        winner=None if game.winner is None else mapping[game.winner],
        racks={mapping[k]: v for k, v in game.racks.items()},
    )


@FAST
@given(game_strategy(pool_exhausted=False), settings_strategy, st.data())
def test_prop_renaming_seats_normal_end(game, s, data):
    # any permutation of the four letters (a 3-table may land on any three letters)
    perm = data.draw(st.permutations(SEAT_LETTERS))
    mapping = dict(zip(SEAT_LETTERS, perm))
    before = score_game(game, s)
    after = score_game(rename(game, mapping), s)
    for seat in game.seats:
        assert after.scores[mapping[seat]] == before.scores[seat]
        assert after.minus[mapping[seat]] == before.minus[seat]
    assert after.winners == {mapping[w] for w in before.winners}
    big_before, big_after = game_big_points(before, s), game_big_points(after, s)
    assert all(big_after[mapping[x]] == big_before[x] for x in game.seats)


@FAST
@given(game_strategy(pool_exhausted=True), settings_strategy, st.data())
def test_prop_renaming_seats_pool_exhausted(game, s, data):
    perm = data.draw(st.permutations(game.seats))
    mapping = dict(zip(game.seats, perm))
    before = score_game(game, s)
    after = score_game(rename(game, mapping), s)
    assert after.winners == {mapping[w] for w in before.winners}
    for seat in game.seats:
        assert after.minus[mapping[seat]] == before.minus[seat]
        if seat not in before.winners:
            assert after.scores[mapping[seat]] == before.scores[seat]
    # winners: the pot and the multiset of shares are the same; only who gets the
    # remainder (the earliest winner seat) can change
    assert sorted(after.scores[mapping[w]] for w in before.winners) == sorted(before.scores[w] for w in before.winners)
    ordered_before = [x for x in SEAT_LETTERS if x in before.winners]
    ordered_after = [x for x in SEAT_LETTERS if x in after.winners]
    if [mapping[x] for x in ordered_before] == ordered_after:
        # the renaming keeps the winners' order: identical scores seat by seat
        for seat in game.seats:
            assert after.scores[mapping[seat]] == before.scores[seat]
    big_before, big_after = game_big_points(before, s), game_big_points(after, s)
    assert all(big_after[mapping[x]] == big_before[x] for x in game.seats)


@FAST
@given(game_strategy(), settings_strategy, st.data())
def test_prop_adding_tiles_to_a_loser_never_raises_the_score(game, s, data):
    before_result = score_game(game, s)
    losers = sorted(set(game.racks) - before_result.winners)
    assume(losers)
    seat = data.draw(st.sampled_from(losers))
    base = game.racks[seat]
    rack = Rack(
        tiles=data.draw(st.integers(0, MAX_TILES - 1)), jokers=base.jokers, opening=OPENED, first_move_case=False
    )
    extra = data.draw(st.integers(1, MAX_TILES - rack.tiles))
    g1 = Game(seats=game.seats, winner=game.winner, racks={**game.racks, seat: rack})
    g2 = Game(
        seats=game.seats,
        winner=game.winner,
        racks={**game.racks, seat: Rack(tiles=rack.tiles + extra, jokers=rack.jokers)},
    )
    r1, r2 = score_game(g1, s), score_game(g2, s)
    assert r2.scores[seat] <= r1.scores[seat]
    if seat not in r1.winners:
        # a loser stays a loser and loses strictly more (sum: -minus; difference:
        # -(minus - lowest) with the lowest unchanged)
        assert r2.scores[seat] < r1.scores[seat]
    if game.winner is not None:
        # the winner gains exactly what the loser lost
        assert r2.scores[game.winner] - r1.scores[game.winner] == extra


@FAST
@given(game_strategy(pool_exhausted=True), settings_strategy, st.data())
def test_prop_pool_exhausted_any_seat_more_tiles_never_helps(game, s, data):
    # stronger: in a pool-exhausted game, even a winner's score never rises with more tiles
    seat = data.draw(st.sampled_from(game.seats))
    base = game.racks[seat]
    tiles = data.draw(st.integers(0, MAX_TILES - 1))
    extra = data.draw(st.integers(1, MAX_TILES - tiles))
    g1 = Game(seats=game.seats, winner=None, racks={**game.racks, seat: Rack(tiles=tiles, jokers=base.jokers)})
    g2 = Game(seats=game.seats, winner=None, racks={**game.racks, seat: Rack(tiles=tiles + extra, jokers=base.jokers)})
    assert score_game(g2, s).scores[seat] <= score_game(g1, s).scores[seat]


@FAST
@given(game_strategy(), settings_strategy)
def test_prop_replace_mode_ignores_rack_content_of_flagged_racks(game, s):
    # In `replace` mode, changing tiles/jokers on a rack with an opening penalty changes nothing.
    s = dataclasses.replace(s, opening_penalty_mode=REPLACE)
    flagged = [x for x, r in game.racks.items() if r.opening != OPENED or r.first_move_case]
    assume(flagged)
    changed = {
        x: (
            Rack(tiles=(r.tiles + 1) % (MAX_TILES + 1), jokers=0, opening=r.opening, first_move_case=r.first_move_case)
            if x in flagged
            else r
        )
        for x, r in game.racks.items()
    }
    assert score_game(Game(game.seats, game.winner, changed), s).scores == score_game(game, s).scores


@FAST
@given(game_strategy(), st.sampled_from(["tiles", "jokers"]), st.data())
def test_prop_out_of_range_values_rejected(game, field_name, data):
    seat = data.draw(st.sampled_from(sorted(game.racks)))
    rack = game.racks[seat]
    if field_name == "tiles":
        bad = data.draw(st.one_of(st.integers(max_value=-1), st.integers(min_value=MAX_TILES + 1)))
        broken = Rack(tiles=bad, jokers=rack.jokers, opening=rack.opening, first_move_case=rack.first_move_case)
        code = "tiles_range"
    else:
        bad = data.draw(st.one_of(st.integers(max_value=-1), st.integers(min_value=MAX_JOKERS + 1)))
        broken = Rack(tiles=rack.tiles, jokers=bad, opening=rack.opening, first_move_case=rack.first_move_case)
        code = "jokers_range"
    with pytest.raises(RuleViolation) as info:
        score_game(Game(game.seats, game.winner, {**game.racks, seat: broken}))
    assert info.value.code == code
    assert info.value.path == f"racks.{seat}.{field_name}"


@FAST
@given(
    st.dictionaries(
        st.sampled_from(SEAT_LETTERS), st.lists(st.one_of(st.integers(1, 13), st.just(JOKER)), max_size=14), max_size=4
    )
)
def test_prop_keypad_racks_fit_the_tile_set(racks):
    faces = [f for rack in racks.values() for f in rack]
    fits = faces.count(JOKER) <= MAX_JOKERS and all(faces.count(n) <= 8 for n in range(1, 14))
    if fits:
        validate_keypad_racks(racks)
        for rack in racks.values():
            tiles, jokers = keypad_rack(rack)
            assert tiles == sum(f for f in rack if f != JOKER)
            assert jokers == rack.count(JOKER)
    else:
        with pytest.raises(RuleViolation) as info:
            validate_keypad_racks(racks)
        assert info.value.code in {"keypad_jokers", "keypad_copies"}

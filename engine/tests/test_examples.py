"""make test's quick run tries fewer examples and cases than make test-full (engine/tests/examples.py)."""

from engine.tests.examples import examples, spread


def test_a_quick_run_keeps_every_third_size_with_both_ends(monkeypatch):
    monkeypatch.setenv("HYPOTHESIS_PROFILE", "quick")
    # 9..40: every third from 9 is 9, 12, ..., 39; then 40, the last, and no duplicate when it falls on the step.
    assert spread(range(9, 41)) == [9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 40]
    assert spread(range(21, 28)) == [21, 24, 27]
    assert {n % 4 for n in spread(range(9, 41))} == {0, 1, 2, 3}  # tables of 3 and of 4 alike
    # A quarter of the examples, at least five, never more than asked.
    assert [examples(count) for count in (150, 60, 20, 15, 3)] == [37, 15, 5, 5, 3]


def test_a_full_run_and_a_run_by_hand_keep_everything(monkeypatch):
    for profile in ("full", None):
        if profile:
            monkeypatch.setenv("HYPOTHESIS_PROFILE", profile)
        else:
            monkeypatch.delenv("HYPOTHESIS_PROFILE", raising=False)
        assert spread(range(9, 41)) == list(range(9, 41))
        assert examples(60) == 60

"""The migration that gives every tournament a plan for the final's results: live where the
final has started (as those tournaments had it), hidden until the ceremony everywhere else."""

import pytest

from tests.support.migrations import latest, migrate

BEFORE = [("tournament", "0007_round_time")]
AFTER = [("tournament", "0008_tournament_final_release")]
# The final's state (None: not seated) → the plan the migration gives.
EXPECTED = {"none": "ceremony", "draft": "ceremony", "published": "ceremony", "started": "live", "completed": "live"}


@pytest.mark.django_db(transaction=True)
def test_only_a_tournament_whose_final_has_started_keeps_live_results():
    old = migrate(BEFORE)
    Tournament, Round = (old.get_model("tournament", name) for name in ("Tournament", "Round"))
    for state in EXPECTED:
        tournament = Tournament.objects.create(name=state, slug=f"final-{state}", date="2026-02-10")
        Round.objects.create(tournament=tournament, number=1, state="completed")
        if state != "none":
            Round.objects.create(tournament=tournament, number=2, kind="final", state=state)
    try:
        new = migrate(AFTER)
        plans = dict(new.get_model("tournament", "Tournament").objects.values_list("name", "final_release"))
        assert plans == EXPECTED
    finally:
        migrate(latest())

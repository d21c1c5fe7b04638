"""How many examples a property test (Hypothesis) tries, by the run it is part of.

`make test` runs before every commit with HYPOTHESIS_PROFILE=quick: each property test tries a
quarter of its examples (at least five); `make test-full` (and pytest run by hand, without the
variable) sets `full` and tries them all. Neither profile has a deadline or the too-slow check: a
busy machine makes an example slow, never wrong. The engine's tests and the suite's load the
profile in their conftest.py.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

QUICK_SHARE = 4
settings.register_profile("full", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "quick", max_examples=100 // QUICK_SHARE, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def profile() -> str:
    return "quick" if os.environ.get("HYPOTHESIS_PROFILE") == "quick" else "full"


def load_profile() -> None:
    settings.load_profile(profile())


def examples(count: int) -> int:
    """`count` examples in a full run, a quarter of them (at least five) in a quick one."""
    return count if profile() == "full" else min(count, max(5, count // QUICK_SHARE))

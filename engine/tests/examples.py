"""How many examples a property test (Hypothesis) tries, and how many cases a sweep checks, by
the run it is part of.

`make test` runs before every commit with HYPOTHESIS_PROFILE=quick: each property test tries a
quarter of its examples (at least five), and a sweep over every field size checks every third
size; `make test-full` (and pytest run by hand, without the variable) sets `full` and tries them
all. Neither profile has a deadline or the too-slow check: a
busy machine makes an example slow, never wrong. The engine's tests and the suite's load the
profile in their conftest.py.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TypeVar

from hypothesis import HealthCheck, settings

T = TypeVar("T")

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


def spread(cases: Iterable[T], step: int = 3) -> list[T]:
    """Every case in a full run; in a quick one every `step`-th, the first and the last included (a
    step of 3 keeps field sizes of every remainder by 4, so tables of 3 and of 4 alike)."""
    every = list(cases)
    if profile() == "full":
        return every
    return every[::step] + ([every[-1]] if (len(every) - 1) % step else [])

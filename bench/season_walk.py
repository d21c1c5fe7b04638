"""A federation's season, walked in Chromium through the pages only, as its people would (issue 48).

    make walk-season                      # the whole season, screenshots in var/season-walk/
    .venv/bin/python bench/season_walk.py --out DIR [--until team|first]

The server is the venue's: `bin/serve` (what `make run DEMO=0` starts) on a free port over a fresh
VAR_DIR. The operator makes the first superuser and the organisation; its organiser invites a head
referee and a referee by link; two tournaments of 12 senior universities (three rounds and a final
each, 8 people in both, two of them typed differently the second time) are played on the referee's
tablet page and verified by the head referee; a card, a correction with a reason; a season of both,
one tournament's results hidden before its last round; the public pages on a phone; the PDFs.

Every page met passes the checks of season_walk_kit.Walk.look and is kept at 390×844 and 1280×720;
the standings and the season are compared with a hand calculation (season_walk_sums). One line per
step with its time, the total at the end; exit status 1 on the first failed check.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

from season_walk_kit import ROOT, Walk, WalkError, chromium, venue_server
from season_walk_team import make_team

STOPS = ("team", "first", "season")


def arguments(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "var" / "season-walk", help="the screenshots' folder")
    parser.add_argument("--until", choices=STOPS, default="season", help="stop after this part of the walk")
    return parser.parse_args(argv)


def walk_season(walk: Walk, env, until: str) -> None:
    organiser = make_team(walk, env)
    if until == "team":
        return
    from season_walk_public import season_and_public
    from season_walk_season import play_both

    tournaments = play_both(walk, organiser, first_only=until == "first")
    if until == "first":
        return
    season_and_public(walk, organiser, tournaments)


def main(argv=None) -> int:
    options = arguments(argv)
    shutil.rmtree(options.out, ignore_errors=True)
    options.out.mkdir(parents=True)
    began = time.monotonic()
    with venue_server() as (base, var_dir, env), chromium() as browser:
        walk = Walk(options.out, browser, base, var_dir)
        try:
            walk_season(walk, env, options.until)
        except WalkError as failed:
            print(f"FAILED: {failed}", flush=True)
            return 1
    print(f"{len(walk.pages_seen)} pages met, {walk.shots} screenshots and PDFs in {options.out}")
    print(f"walked in {time.monotonic() - began:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

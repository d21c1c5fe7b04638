"""State changes the organiser makes, each in one transaction: the tournament's settings
(`tournaments`), players (`players`), the organisation's people (`people`), the draw and the final (`draw`), the round lifecycle and
seat swaps (`rounds`), the day's timetable (`timetable`), seasons (`seasons`). A refusal raises
`tournament.refusals.Refused` and writes nothing.

The names below are the organiser's whole set of services, imported from their modules.
"""

from organiser.services.draw import (
    FINAL_METHOD,
    RANDOM,
    check_field_size,
    draw_round,
    next_round_number,
    seat_final,
    table_counts,
)
from organiser.services.people import correct_person, merge_people, merge_person_into, undo_merge
from organiser.services.players import (
    add_people,
    add_player,
    check_in_everyone,
    edit_player,
    import_players,
    reinstate_player,
    remove_player,
    set_present,
    use_person_spelling,
    withdraw_player,
)
from organiser.services.rounds import complete_round, discard_round, publish_round, start_round, swap_players
from organiser.services.seasons import SeasonData, create_season, edit_season
from organiser.services.timetable import save_timetable
from organiser.services.tournaments import (
    Confirmation,
    ResultsWouldChange,
    create_tournament,
    save_tournament,
    set_final_release,
)

__all__ = [
    "FINAL_METHOD",
    "RANDOM",
    "Confirmation",
    "ResultsWouldChange",
    "add_people",
    "SeasonData",
    "add_player",
    "check_field_size",
    "check_in_everyone",
    "complete_round",
    "correct_person",
    "create_season",
    "create_tournament",
    "discard_round",
    "draw_round",
    "edit_player",
    "edit_season",
    "import_players",
    "merge_people",
    "merge_person_into",
    "next_round_number",
    "publish_round",
    "reinstate_player",
    "remove_player",
    "save_timetable",
    "save_tournament",
    "seat_final",
    "set_final_release",
    "set_present",
    "start_round",
    "swap_players",
    "table_counts",
    "undo_merge",
    "use_person_spelling",
    "withdraw_player",
]

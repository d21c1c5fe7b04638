"""The one refusal: the rules say no to a change, and nothing was written.

Every service raises `Refused(code, **params)`; `MESSAGES`, the one catalogue, turns the code
into a message in the active language with the params filled in (Polish plurals through
ngettext_lazy). The engine's `RuleViolation` and `SeatingError` become a `Refused` at the
boundary (`Refused.from_violation`). `field` names the form field a refusal belongs to, and
`problems` lists further refusals (an import's lines: a problem's `line` param puts
"Line N:" before its message).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from tournament.validation import FORBIDDEN_MESSAGE, SLUG_TAKEN

MESSAGES = {
    # SPEC §3: the rules engine
    "tiles_not_integer": _("Enter the sum of the tiles as a whole number."),
    "tiles_range": _("The sum of the tiles must be between 0 and %(max)s."),
    "jokers_not_integer": _("Enter the number of jokers as a whole number."),
    "jokers_range": ngettext_lazy(
        "A rack can hold at most %(max)s joker.", "A rack can hold at most %(max)s jokers.", "max"
    ),
    "opening_unknown": _("Choose one of the four answers about the first laying out."),
    "first_move_case_not_bool": _("Tick the box or leave it empty."),
    "seat_letter": _("Seats are A, B, C and D."),
    "seat_twice": _("A seat appears twice."),
    "table_size": _("A table seats 3 or 4 players."),
    "seat_not_at_table": _("This seat is not at this table."),
    "rack_missing": _("Enter the tiles left on the rack of seat %(seat)s (0 if none)."),
    "winner_not_at_table": _("The player who went out must sit at this table."),
    "winner_has_rack": _("Seat %(seat)s went out, so it has no rack: clear these values."),
    "jokers_per_game": ngettext_lazy(
        "The set has only %(max)s joker: at most %(max)s can be left in one game.",
        "The set has only %(max)s jokers: at most %(max)s can be left in one game.",
        "max",
    ),
    "keypad_face": _("A tile is a number from 1 to 13 or a joker."),
    "keypad_jokers": ngettext_lazy("The set has only %(max)s joker.", "The set has only %(max)s jokers.", "max"),
    "keypad_copies": ngettext_lazy(
        "The set has only %(max)s tile numbered %(face)s: check the racks of this game.",
        "The set has only %(max)s tiles numbered %(face)s: check the racks of this game.",
        "max",
    ),
    "keypad_too_long": _("More tiles than a rack can hold were entered: clear the rack and enter its tiles again."),
    "override_reason": _("A changed score needs a reason."),
    # the score-sheet form
    "ending_missing": _("Tap the player who went out, or “pool exhausted”."),
    "two_winners": _("Only one player can go out in a game."),
    "confirm_tiles": ngettext_lazy(
        "More than %(limit)s point of tiles: are you sure? Tick the box to confirm.",
        "More than %(limit)s points of tiles: are you sure? Tick the box to confirm.",
        "limit",
    ),
    "score_not_integer": _("Enter the score as a whole number, e.g. -80."),
    "score_range": _("Enter a score between −%(max)s and %(max)s."),
    "form_expired": _("This form is out of date. Reload the page; your values are kept on this tablet."),
    # refused changes (scoring.services)
    "stale_version": _("Someone else saved this sheet after you opened it. Nothing of yours was saved yet."),
    "sheet_verified": _("This sheet has been verified. Only the head referee can change it."),
    "reason_required": _("Give a reason for this change."),
    "head_referee_only": _("Only the head referee can do this."),
    "game_number": _("This table has no game %(number)s."),
    "game_not_entered": _("Game %(number)s has not been entered yet."),
    "not_in_progress": _("This sheet cannot be submitted: it is %(state)s."),
    "sheet_incomplete": _("Enter every game before submitting. Missing: %(games)s."),
    "not_submitted": _("Only a submitted sheet can be verified; this one is %(state)s."),
    "card_colour": _("Choose a warning, a yellow card or a red card."),
    "card_round": _("That round belongs to another tournament."),
    # cards (scoring.services.cards)
    "card_second_yellow": _("This is %(player)s's second yellow card: %(player)s will be disqualified."),
    "card_red_disqualifies": _("A red card disqualifies at once: %(player)s will be disqualified."),
    "card_disqualified_already": _(
        "%(player)s is disqualified already: nothing more was recorded. Look at the cards so far."
    ),
    "card_unknown": _("This player has no such card. Reload the page."),
    "card_withdrawn_already": _("This %(card)s of %(player)s has been withdrawn already."),
    # staff accounts (accounts.services)
    "setup_done": _("An organiser account exists already: sign in with it."),
    "setup_code_wrong": _(
        "This is not the setup code. Copy it from the window where the server was started (or the container's log)."
    ),
    "setup_code_gone": _(
        "There is no setup code at the moment. Restart the server (make run, or restart the container): "
        "it prints a new code."
    ),
    "setup_wait": _("Too many codes were typed from this device. Wait %(minutes)s min and try again."),
    "staff_name_unavailable": _("Choose another user name, for example with the surname or a digit added."),
    "staff_role_not_given": _("Choose the role: referee or head referee."),
    "staff_not_removable": _(
        "Your own role cannot be taken away, and an organiser's only by the organisation's organisers."
    ),
    "staff_undo_expired": _("This removal can no longer be undone. Add the person again with a new user name."),
    "username_taken": _("This user name is taken: choose another."),
    "team_not_yourself": _("Your own role cannot be changed here: ask another organiser of your organisation."),
    "team_last_organiser": _("The organisation needs at least one organiser: make someone else an organiser first."),
    "invitation_other_organisation": _("Choose one of your organisation's tournaments."),
    "invitation_unusable": _("This invitation cannot be used any more: ask the organiser for a new link."),
    "organisation_slug_taken": _("This short address is taken: choose another."),
    # ties (scoring.services.ties)
    "final_too_few": _("At least 3 active players are needed for the final."),
    "final_cut_tied": _(
        "Place %(place)s is tied (%(names)s): the head referee must record a decision before the final is seated."
    ),
    "tie_head_referee_only": _("Only the head referee can decide a tie."),
    "tie_reason_required": _("Say how the tie was decided, e.g. a lot drawn by the head referee."),
    "tie_gone": _("These players are no longer tied on a place to decide. Reload the page."),
    "tie_decision_gone": _("This decision has been set aside already, or its players are tied again. Reload the page."),
    "tie_decision_stands": _("These players are still tied: the decision still orders them and stays."),
    # new scoring settings that change verified results (organiser.services.tournaments)
    "rescore_confirm": ngettext_lazy(
        "Not saved yet: these settings change %(count)s result of a verified sheet. Check what changes, give a reason and confirm.",
        "Not saved yet: these settings change %(count)s results of verified sheets. Check what changes, give a reason and confirm.",
        "count",
    ),
    "rescore_reason_required": _(
        "Not saved: give the reason for changing verified results. It is written to the log with each one."
    ),
    "rescore_changed": _(
        "Not saved: what these settings change is no longer what you checked (a setting or a sheet changed meanwhile). Check the changes again."
    ),
    "rescore_head_referee_only": _("Not saved: only the head referee or the organiser can change verified results."),
    # entries from the organisations (organiser.services.entries, SPEC §11)
    "entries_closed": _("This tournament takes no entries: ask its organiser."),
    "entries_ended": _("Entries closed on %(until)s: ask the organiser whether a place is still free."),
    "entries_drawn": _("Round 1 has been drawn: entries are closed."),
    "entry_organisation_taken": ngettext_lazy(
        "%(organisation)s has already entered %(count)s player; the limit is %(quota)s per organisation.",
        "%(organisation)s has already entered %(count)s players; the limit is %(quota)s per organisation.",
        "count",
    ),
    "entry_rate_limited": _("Too many entries were sent from this address in the last hour. Try again in an hour."),
    "entry_expired": _("This entry was not confirmed within 48 hours and has expired. Send the entry again."),
    "entry_withdraw_after_draw": _("Round 1 has been drawn: ask the organiser to withdraw the player."),
    "entry_reason_required": _("Give the reason: it is sent to the entry's contact."),
    "entry_not_holding": _("This entry is %(state)s: there is nothing to refuse."),
    # registering players (organiser.services.players), one problem per line of a file
    "name_empty": _("the name is empty."),
    "surname_empty": _("the surname is empty."),
    "organisation_empty": _("the organisation is empty."),
    "name_too_long": ngettext_lazy(
        "a name is longer than %(count)s character.", "a name is longer than %(count)s characters.", "count"
    ),
    "forbidden_character": FORBIDDEN_MESSAGE,
    "already_registered": _("%(name)s is already registered for %(organisation)s."),
    "registered_twice": _("%(name)s appears twice for %(organisation)s (also line %(other)s)."),
    "quota_reached": ngettext_lazy(
        "%(organisation)s already has %(count)s player; the limit is %(quota)s per organisation.",
        "%(organisation)s already has %(count)s players; the limit is %(quota)s per organisation.",
        "count",
    ),
    "quota_lines": ngettext_lazy(
        "%(organisation)s: %(count)s player on line %(lines)s; the limit is %(quota)s per organisation.",
        "%(organisation)s: %(count)s players on lines %(lines)s; the limit is %(quota)s per organisation.",
        "count",
    ),
    "quota_lines_registered": ngettext_lazy(
        "%(organisation)s: %(count)s player on line %(lines)s and %(registered)s already registered; the limit is %(quota)s per organisation.",
        "%(organisation)s: %(count)s players on lines %(lines)s and %(registered)s already registered; the limit is %(quota)s per organisation.",
        "count",
    ),
    "nothing_imported": _("Nothing was imported."),
    "person_unsure": _("Has %(name)s played here before? Choose the person below, or “a new person”."),
    "person_not_offered": _("Choose one of the people offered, or “a new person”."),
    "person_merge_elsewhere": _("That person is not one of this organisation's people: choose another."),
    "person_merge_self": _("A record cannot be merged into itself: choose another person."),
    "person_merged": _("The record of %(name)s has been merged into another one: use that one."),
    "person_merge_same_tournament": _(
        "%(name)s and %(other)s both played in %(tournament)s: two players of one tournament cannot be one person."
    ),
    "person_not_merged": _("The record of %(name)s is not merged into another one."),
    "person_name_taken": _(
        "%(tournament)s already has a player named %(name)s in the same organisation: the name was not changed."
    ),
    "person_already_playing": _("%(name)s is already a player of this tournament."),
    "people_none_chosen": _("Tick the people to add."),
    "nothing_added": _("Nobody was added."),
    "player_list_clash": _("Someone else changed the player list at the same moment. Please try again."),
    "seated_in_draft": _("%(player)s is seated in %(round)s, which is drawn but not started. Discard that draw first."),
    "remove_after_start": _("The tournament has started: withdraw the player instead of removing them."),
    "already_played": _("%(player)s has already played: withdraw them instead."),
    "player_not_active": _("%(player)s is not active."),
    "player_not_withdrawn": _("%(player)s is not withdrawn."),
    "check_in_after_start": _("Round 1 has started: check in late arrivals one by one."),
    # a player file (organiser.importers)
    "file_empty": _("The file “%(file)s” is empty."),
    "file_too_large": _("The file “%(file)s” is too large (at most 2 MB)."),
    "file_old_excel": _("“%(file)s” is an old Excel file (.xls). Save it as .xlsx or CSV and try again."),
    "file_other_kind": _("“%(file)s” is not a CSV or Excel (.xlsx) file: it looks like a %(kind)s file."),
    "file_bad_xlsx": _("“%(file)s” is not a valid Excel (.xlsx) file."),
    "file_binary": _("“%(file)s” is not a CSV or Excel (.xlsx) file."),
    "file_not_utf8": _("“%(file)s” is not in UTF-8. In Excel choose “Save as” → “CSV UTF-8”, then try again."),
    "file_bad_csv": _("“%(file)s” cannot be read as a CSV file."),
    "file_too_many_cells": _(
        "“%(file)s” holds far more cells than a player list. Copy the name and organisation columns into a new file and try again."
    ),
    "file_header": _(
        "the first line must name the columns “name” (or “given names” and “surname”) and “organisation”."
    ),
    "file_too_many_rows": ngettext_lazy(
        "The file has more than %(count)s player.", "The file has more than %(count)s players.", "count"
    ),
    "file_no_players": _("The file “%(file)s” has no players below its header."),
    # the draw and the final (organiser.services.draw; engine.seating's SeatingError codes)
    "too_few_players": ngettext_lazy(
        "At least 3 active, checked-in players are needed to seat a round; there is %(count)s.",
        "At least 3 active, checked-in players are needed to seat a round; there are %(count)s.",
        "count",
    ),
    "five_players": _(
        "5 players cannot be seated: tables are for 3 or 4 players. Check in one more player or withdraw one."
    ),
    "no_round_after_final": _("The final has been seated: there are no more rounds to draw."),
    "round_not_complete": _(
        "Round %(number)s is not complete yet. Draw the next round once every sheet is verified and the round is completed."
    ),
    "qualifying_played_seat_final": ngettext_lazy(
        "The only qualifying round has been played: seat the final.",
        "All %(count)s qualifying rounds have been played: seat the final.",
        "count",
    ),
    "qualifying_played": ngettext_lazy(
        "The only qualifying round has been played.", "All %(count)s qualifying rounds have been played.", "count"
    ),
    "draw_clash": _("Someone else drew this round at the same moment. Reload the page."),
    "slug_taken": SLUG_TAKEN,
    "unknown_method": _("Unknown seating method."),
    "no_final": _("This tournament has no final (see the settings)."),
    "final_seated": _("The final has already been seated."),
    "final_too_early": _("The final is seated after the last qualifying round (round %(number)s) is completed."),
    "final_release_unknown": _("Choose hidden until the ceremony or live."),
    "final_release_started": _(
        "The final has started, so the plan for its results no longer changes. The head referee shows or hides "
        "the results on the results visibility page."
    ),
    # the round lifecycle and swaps (organiser.services.rounds)
    "round_not_publishable": _("%(round)s cannot be published: it is %(state)s."),
    "round_not_startable": _("%(round)s cannot be started: it is %(state)s."),
    "round_not_completable": _("%(round)s cannot be completed: it is %(state)s."),
    "round_unverified": ngettext_lazy(
        "%(round)s cannot be completed: the sheet of table %(tables)s is not verified yet.",
        "%(round)s cannot be completed: the sheets of tables %(tables)s are not verified yet.",
        "count",
    ),
    "round_started_no_discard": _("%(round)s has started: its seating can no longer be discarded."),
    "round_has_results": _("%(round)s already has results entered: it cannot be discarded."),
    "round_completed_no_swap": _("%(round)s is completed: its seating can no longer change."),
    "swap_head_referee_only": _("%(round)s has started: only the head referee may change its seating."),
    "swap_reason_required": _("%(round)s has started: give the reason for changing its seating."),
    "swap_organiser_only": _("Only the organiser may change a seating before the round starts."),
    "swap_same_player": _("Choose two different players."),
    "player_not_seated": _("%(player)s is not seated in %(round)s."),
    # backups (organiser.backups.restore)
    "backup_too_large": _("The file is larger than %(size)s MB: it cannot be a backup of one tournament."),
    "backup_unpacks_too_large": _(
        "The compressed file unpacks to more than %(size)s MB: it cannot be a backup of one tournament."
    ),
    "backup_damaged": _("The file looks compressed (gzip) but is damaged or cut short."),
    "backup_not_text": _("The file is not a backup: it is not text (UTF-8 JSON)."),
    "backup_invalid": _("The file cannot be restored: %(problem)s"),
    "upload_expired": _("This upload has expired or was already restored. Upload the file again."),
    "restore_already_confirmed": _("This backup is already being restored (it was confirmed already)."),
    "restore_failed": _("The restore failed unexpectedly; nothing was changed. Upload the file again."),
    "backup_changed": _("The tournament %(slug)s changed since the preview. Upload the file again."),
    "backup_not_saved_first": _(
        "The tournament as it is now could not be saved first (is the disk full?), so nothing was restored."
    ),
    # seasons (organiser.services.seasons)
    "season_name_required": _("Give the season a name."),
    "season_slug_taken": _("Another season already has this address: choose another one."),
    "season_points_count": ngettext_lazy(
        "Give the points of 1 to %(max)s place.", "Give the points of 1 to %(max)s places.", "max"
    ),
    "season_points_range": _("Points for a place are whole numbers from 0 to %(max)s."),
    "season_best_count": _("Count at least 1 tournament, or leave it empty to count every one."),
    "season_tournament_not_ours": _("%(slug)s is not one of this organisation's tournaments."),
    "season_reason_required": _("Give the reason for the change: it goes into the log."),
}

LINE = _("Line %(line)s: %(message)s")

FALLBACK = _("This value is not allowed.")


def message_for(code: str, params: dict[str, Any] | None = None) -> str:
    """The message for an error code in the active language, with its params filled in."""
    template = MESSAGES.get(code)
    if template is None:
        return str(FALLBACK)
    try:
        return str(template % (params or {}))
    except (KeyError, TypeError, ValueError):
        return str(FALLBACK)


class Refused(Exception):
    """A change the rules do not allow: `code` picks the message, `params` fill it in."""

    def __init__(self, code: str, /, *, field: str | None = None, problems: Iterable[Refused] = (), **params: Any):
        super().__init__(code)
        self.code = code
        self.params = params
        self.field = field
        self.problems = list(problems)

    @classmethod
    def from_violation(cls, error: Any, *, field: str | None = None, **params: Any) -> Refused:
        """The refusal for an engine error that carries a `code` and maybe `params` (RuleViolation,
        SeatingError); `params` adds what the engine does not know (e.g. a count for the message)."""
        return cls(error.code, field=field, **{**getattr(error, "params", {}), **params})

    @property
    def message(self) -> str:
        """The message in the active language; "Line N: …" for a problem on a file's line."""
        text = message_for(self.code, self.params)
        line = self.params.get("line")
        return text if line is None else str(LINE % {"line": line, "message": text})

    def __str__(self) -> str:
        return self.code


def violation_message(error: Any) -> str:
    """The message for any error with a `code` and `params` (a Refused or an engine violation)."""
    return message_for(error.code, getattr(error, "params", {}))

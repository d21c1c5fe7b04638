"""A stored game or card as a plain record: the interchange format's game and card (SPEC §9).

The JSON export writes them, and the audit log keeps them as the before and after of a change.
"""

import datetime


def game_record(game, results):
    """One stored game in the interchange format, with its seat results `results`."""
    data = {"number": game.number, "ending": game.ending}
    if game.winner:
        data["winner"] = game.winner
    racks = {}
    for r in sorted(results, key=lambda x: x.letter):
        if r.went_out:
            if r.override_score is not None:
                data["winner_override"] = {"score": r.override_score, "reason": r.override_reason}
            continue
        rack = {"tiles": r.tiles, "jokers": r.jokers, "opening": r.opening}
        if r.first_move_case:
            rack["first_move_case"] = True
        if r.keypad is not None:
            rack["keypad"] = r.keypad
        if r.override_score is not None:
            rack["override"] = {"score": r.override_score, "reason": r.override_reason}
        racks[r.letter] = rack
    data["racks"] = racks
    if "winner_override" in data:
        data["winner_override"] = data.pop("winner_override")
    return data


def card_record(card):
    """One card in the interchange format (its `player` read with it): who got it for what, when and
    from whom (a user name, as text), and, once withdrawn, when, by whom and why. The audit log
    keeps it as the before and after of a withdrawal."""
    data = {
        "player": card.player.ext_id,
        "round": card.round.number if card.round else None,
        "colour": card.colour,
        "reason": card.reason,
        "given_at": moment(card.created_at),
        "given_by": card.given_by_name or None,
    }
    if card.withdrawn_at is not None:
        data["withdrawn"] = {
            "at": moment(card.withdrawn_at),
            "by": card.withdrawn_by_name or None,
            "reason": card.withdrawal_reason,
        }
    return data


def moment(when):
    """A stored time as the interchange file writes it: ISO 8601 in UTC, with its offset."""
    return when.astimezone(datetime.UTC).isoformat()

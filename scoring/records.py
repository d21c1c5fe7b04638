"""A stored game as a plain record: the interchange format's game (SPEC §9).

The JSON export writes it, and the audit log keeps it as the before and after of a change.
"""


def game_record(game):
    """One stored game in the interchange format."""
    data = {"number": game.number, "ending": game.ending}
    if game.winner:
        data["winner"] = game.winner
    racks = {}
    for r in sorted(game.results.all(), key=lambda x: x.letter):
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

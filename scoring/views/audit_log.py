"""The audit log of a sheet in words a referee can read (who, when, before, after, reason)."""

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scoring.models import ScoreSheet, SeatResult
from scoring.templatetags.referee import signed
from tournament.models import AuditEntry

OPENING_LABELS = dict(SeatResult.Opening.choices)
ACTION_LABELS = {
    "save_game": gettext_lazy("game saved"),
    "correct_game": gettext_lazy("correction by the head referee"),
    "override": gettext_lazy("score changed by hand"),
    "submit": gettext_lazy("sheet submitted"),
    "verify": gettext_lazy("sheet verified"),
    "card": gettext_lazy("card"),
    "disqualify": gettext_lazy("disqualification"),
    "rescore_result": gettext_lazy("result changed by new scoring settings"),
    "withdraw_card": gettext_lazy("card withdrawn"),
    "lift_disqualification": gettext_lazy("disqualification lifted"),
}
STATE_LABELS = dict(ScoreSheet.State.choices)


@dataclass
class ChangeView:
    entry: AuditEntry
    action: str
    before: list
    after: list

    @property
    def before_marked(self):
        """(line, changed) pairs: a line is marked when the other side does not have it."""
        return [(line, line not in self.after) for line in self.before]

    @property
    def after_marked(self):
        return [(line, line not in self.before) for line in self.after]

    @property
    def who(self):
        """Who made the change; an entry restored from a file says so (its name is the file's word)."""
        user = self.entry.user
        if self.entry.from_file:
            return _("%(name)s (as a restored file says)") % {"name": self.entry.user_name or _("unknown")}
        if user is None:
            return self.entry.user_name or _("unknown")
        return user.get_full_name() or user.get_username()


def describe_entry(entry, players):
    return ChangeView(
        entry,
        str(ACTION_LABELS.get(entry.action, entry.action)),
        describe_state(entry.before, players),
        describe_state(entry.after, players),
    )


def describe_state(data, players):
    """An audit snapshot as lines a referee can read (a game seat by seat, or a sheet state)."""
    if not isinstance(data, dict):
        return []
    if data.get("game"):
        return describe_game(data["game"], players)
    if isinstance(data.get("scores"), dict) and "small_points" in data:
        return describe_result(data)
    if data.get("state"):
        return [_("state: %(state)s") % {"state": STATE_LABELS.get(data["state"], data["state"])}]
    return []


def rack_words(tiles, jokers, opening, first_move_case=False):
    """A rack in words: "23 in tiles and 0 jokers, laid out[, first-move case]"."""
    text = ngettext(
        "%(tiles)s in tiles and %(jokers)s joker, %(opening)s",
        "%(tiles)s in tiles and %(jokers)s jokers, %(opening)s",
        jokers,
    ) % {"tiles": tiles, "jokers": jokers, "opening": OPENING_LABELS.get(opening, opening)}
    if first_move_case:
        text = _("%(rack)s, first-move case") % {"rack": text}
    return text


def describe_game(game, players):
    """Lines for a game snapshot (see `services.game_snapshot`): the ending, then seat by seat."""
    winner = game.get("winner")
    if winner:
        lines = [_("Game %(number)s: seat %(seat)s went out") % {"number": game["number"], "seat": winner}]
    else:
        lines = [_("Game %(number)s: pool exhausted") % {"number": game["number"]}]
    racks = game.get("racks", {})
    for letter, score in sorted(game.get("scores", {}).items()):
        rack = racks.get(letter)
        override = game.get("winner_override") if letter == winner else (rack or {}).get("override")
        if rack is None:
            text = _("went out")
        else:
            text = rack_words(
                rack.get("tiles", 0), rack.get("jokers", 0), rack.get("opening"), rack.get("first_move_case")
            )
        line = _("%(seat)s %(name)s: %(rack)s → %(score)s") % {
            "seat": letter,
            "name": players.get(letter, ""),
            "rack": text,
            "score": signed(score),
        }
        if override:
            line = _("%(line)s; set by hand to %(score)s (%(reason)s)") % {
                "line": line,
                "score": signed(override["score"]),
                "reason": override["reason"],
            }
        lines.append(line)
    return lines


def describe_result(data):
    """Lines for a player's result on a sheet (see `scoring.services.rescore`): each game's score, then the totals."""
    games = ", ".join(
        _("game %(number)s %(score)s") % {"number": number, "score": signed(score)}
        for number, score in sorted(
            data["scores"].items(), key=lambda item: int(item[0]) if str(item[0]).isdigit() else 0
        )
    )
    return [
        _("%(seat)s %(name)s: %(games)s")
        % {"seat": data.get("seat", ""), "name": data.get("name", ""), "games": games},
        _("small points %(small)s, big points %(big)s, games won %(won)s")
        % {"small": signed(data.get("small_points")), "big": data.get("big_points"), "won": data.get("games_won")},
    ]

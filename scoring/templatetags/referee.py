"""Template filters of the referee pages."""

from django import template
from django.utils.html import format_html_join
from django.utils.translation import gettext as _

from engine import rules
from scoring.forms import KEYPAD_BACK, KEYPAD_CLEAR

register = template.Library()


@register.filter
def signed(value):
    """A score with its sign and a real minus sign: −23, +183, 0 (empty for no score)."""
    if value is None or value == "":
        return ""
    value = int(value)
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"−{-value}"
    return "0"


@register.simple_tag
def keypad_keys(letter, preview_url):
    """The keys of one rack's keypad: tile faces 1–13, the joker, undo and clear.

    Without JavaScript each key posts the form to the preview, which adds the face on the server;
    with JavaScript, sheet.js lists the face in the rack's field and asks for the preview. (Built
    here rather than in a template loop: a sheet has 68 of these buttons.)
    """
    keys = [(str(face), str(face), "key", "") for face in rules.TILE_FACES]
    keys += [
        (rules.JOKER, rules.JOKER, "key key--joker", _("joker")),
        (KEYPAD_BACK, _("Undo"), "key key--edit", ""),
        (KEYPAD_CLEAR, _("Clear"), "key key--edit", ""),
    ]
    return format_html_join(
        "",
        '<button type="submit" class="{}" name="key-{}" value="{}" formaction="{}" aria-label="{}">{}</button>',
        ((css, letter, value, preview_url, spoken or label, label) for value, label, css, spoken in keys),
    )

"""Template filters and tags of the referee pages."""

from html import escape

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

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


def rack_count(tiles, jokers):
    """A rack's count in words: "10 in tiles and 1 joker"."""
    return ngettext(
        "%(tiles)s in tiles and %(jokers)s joker", "%(tiles)s in tiles and %(jokers)s jokers", jokers,
    ) % {"tiles": tiles, "jokers": jokers}


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
    # Escaped here once per value (format_html would take a tenth of the sheet page's time).
    name, action = escape(f"key-{letter}"), escape(preview_url)
    return mark_safe("".join(
        f'<button type="submit" class="{css}" name="{name}" value="{escape(value)}" formaction="{action}"'
        f' aria-label="{escape(spoken or label)}">{escape(label)}</button>'
        for value, label, css, spoken in keys
    ))


@register.simple_tag
def choice_buttons(field, label_class):
    """A radio field's inputs, each followed by the label the sheet draws as its button. (Built
    here rather than in a template loop: a sheet has 144 of them.)"""
    return mark_safe("\n".join(
        f'{option.tag()}\n<label class="{escape(label_class)}" for="{escape(option.id_for_label)}">'
        f"{conditional_escape(option.choice_label)}</label>"
        for option in field
    ))

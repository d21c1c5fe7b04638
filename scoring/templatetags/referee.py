"""Template filters and tags of the referee pages."""

import functools
from html import escape

from django import template
from django.forms.boundfield import BoundWidget
from django.template.loader import get_template
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext
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


def rack_count(tiles, jokers):
    """A rack's count in words: "10 in tiles and 1 joker"."""
    return ngettext("%(tiles)s in tiles and %(jokers)s joker", "%(tiles)s in tiles and %(jokers)s jokers", jokers) % {
        "tiles": tiles,
        "jokers": jokers,
    }


@register.simple_tag
def keypad_keys(letter):
    """The keys of one rack's keypad: tile faces 1–13, the joker, undo and clear.

    Without JavaScript each key posts the game's form (to its save address, which answers a key
    as the preview does: `scoring.forms.keypad_key_pressed`), and the face is added on the server;
    with JavaScript, sheet.js lists the face in the rack's field and asks for the preview. A sheet
    draws them once (`letter` ""; sheet.js copies them into each rack holding no faces, naming
    them) and in each rack holding faces: each is as short as it can be (a button in a form
    submits it; a key whose face is its name needs no label), built once per seat and language.
    """
    return _keypad_keys(letter, get_language())


@functools.lru_cache(maxsize=64)
def _keypad_keys(letter, language):  # `language`: the labels are in it
    keys = [(str(face), str(face), "", "") for face in rules.TILE_FACES]
    keys += [
        (rules.JOKER, rules.JOKER, "key--joker", _("joker")),
        (KEYPAD_BACK, _("Undo"), "key--edit", ""),
        (KEYPAD_CLEAR, _("Clear"), "key--edit", ""),
    ]
    name = f' name="{escape(f"key-{letter}")}"' if letter else ""  # no letter: sheet.js names them

    def key(value, label, css, spoken):
        css = f' class="{css}"' if css else ""
        spoken = f' aria-label="{escape(spoken)}"' if spoken else ""
        return f'<button{css}{name} value="{escape(value)}"{spoken}>{escape(label)}</button>'

    return mark_safe("".join(key(*k) for k in keys))


CHOICE_GROUPS_KEPT = 1024  # distinct groups of choice buttons remembered
drawn_choice_groups = {}


@register.simple_tag
def choice_buttons(field, label_class, invalid=False):
    """A radio field's inputs, each followed by the label the sheet draws as its button. (Built
    here rather than in a template loop: a sheet has 144 of them.) `invalid`: the field has
    errors (the form's own or the rules'), which marks its inputs.

    A group is drawn once for each distinct name, id, value, choices and language (which
    translates the labels), and remembered: a sheet's groups are nearly all the same from page to page.
    """
    invalid = bool(invalid or field.errors)
    key = (
        field.html_name,
        field.auto_id,
        repr(field.value()),
        invalid,
        label_class,
        get_language(),
        tuple(value for value, _label in field.field.widget.choices),  # the labels: by the language
    )
    html = drawn_choice_groups.get(key)
    if html is None:
        css = f' class="{escape(label_class)}"' if label_class else ""
        html = mark_safe(
            "".join(
                f'{option.tag()}<label{css} for="{escape(option.id_for_label)}">{conditional_escape(option.choice_label)}</label>'
                for option in choice_options(field, invalid)
            )
        )
        if len(drawn_choice_groups) >= CHOICE_GROUPS_KEPT:
            drawn_choice_groups.clear()
        drawn_choice_groups[key] = html
    return html


def choice_options(field, invalid):
    """The options of a radio field (BoundWidgets), marked invalid when `invalid`."""
    if not invalid or field.errors:
        return field.subwidgets
    widget = field.field.widget
    attrs = {"id": widget.attrs.get("id") or field.auto_id, "aria-invalid": "true"}
    return [
        BoundWidget(widget, option, field.form.renderer)
        for option in widget.subwidgets(field.html_name, field.value(), attrs)
    ]


@register.simple_tag
def card_confirm(form):
    """The confirmation a disqualifying card needs, drawn by the Jinja2 template the score
    sheet's seats use too (`scoring/card_confirm.html`)."""
    return mark_safe(get_template("scoring/card_confirm.html", using="jinja2").render({"form": form}))

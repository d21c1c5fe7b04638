"""The widgets of the referee forms and the renderer that draws them.

A score sheet shows some 400 inputs, and nearly all of them are the same from page to page and
from table to table (`B-tiles` of game 2, empty; `C-opening` with "laid out" ticked): the
renderer remembers the HTML Django's widget templates drew for each distinct widget, so a page
draws only the inputs it has not met before.
"""

from __future__ import annotations

from django import forms
from django.forms.renderers import Jinja2
from django.utils.functional import Promise
from django.utils.translation import get_language

DRAWN_WIDGETS_KEPT = 4096  # distinct widgets remembered: a few tournaments' sheets in a few languages


class RememberingRenderer(Jinja2):
    """Django's Jinja2 form renderer that draws each distinct input once.

    A widget's HTML depends only on its template and its context (name, value, attributes,
    label, whether it is ticked) and, through the templates' text, on the language: that is the
    key. Contexts holding anything else (a whole select with its options, a form) are drawn as
    usual.
    """

    def __init__(self):
        super().__init__()
        self.drawn = {}

    def render(self, template_name, context, request=None):
        key = self.key(template_name, context) if request is None else None
        if key is None:
            return super().render(template_name, context, request)
        html = self.drawn.get(key)
        if html is None:
            html = super().render(template_name, context)
            if len(self.drawn) >= DRAWN_WIDGETS_KEPT:
                self.drawn.clear()
            self.drawn[key] = html
        return html

    @staticmethod
    def key(template_name, context):
        """What a widget's HTML depends on, or None when its context is not plain values."""
        widget = context.get("widget") if len(context) == 1 else None
        if type(widget) is not dict:
            return None
        values = []
        for name, value in widget.items():
            if type(value) not in PLAIN_TYPES:
                if name == "attrs" and type(value) is dict:
                    value = tuple((a, v if type(v) in PLAIN_TYPES else plain(v)) for a, v in value.items())
                    if any(v is NOT_PLAIN for _a, v in value):
                        return None
                else:
                    value = plain(value)
                    if value is NOT_PLAIN:
                        return None
            values.append((name, value))
        return template_name, get_language(), tuple(values)


PLAIN_TYPES = frozenset({str, bool, int, type(None)})  # kept as they are in a key (others: `plain`)
NOT_PLAIN = object()


def plain(value):
    """A widget context's value as a key (a lazy text as the text), or NOT_PLAIN."""
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, Promise):
        return str(value)
    return NOT_PLAIN


class TextBox(forms.TextInput):
    """A text input that always carries its value, empty when nothing was typed (as a browser sends it)."""

    def format_value(self, value):
        formatted = super().format_value(value)
        return "" if formatted is None else formatted


class ChoiceButtons(forms.RadioSelect):
    """Radio inputs the template draws as buttons; each id ends in its value (`g1-B-opening-opened`).

    With a `default` one button is always checked: a post without the field means the default.
    """

    def __init__(self, attrs=None, choices=(), default=None):
        super().__init__(attrs, choices)
        self.default = default

    def value_from_datadict(self, data, files, name):
        return super().value_from_datadict(data, files, name) or self.default

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        if attrs and attrs.get("id"):
            option["attrs"]["id"] = f"{attrs['id']}-{value}"
        return option


class EndingButtons(ChoiceButtons):
    """Who went out: every value posted counts (two taps that disagree are refused)."""

    def value_from_datadict(self, data, files, name):
        return [value for value in data.getlist(name) if value]

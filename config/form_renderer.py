"""The form renderer: Django's templates, except for a bare `<input>` and a `<textarea>`, written here.

A score sheet draws some 400 inputs (every seat's buttons, for four games); through the template
engine each costs about a third of a millisecond, a third of the page's time. The markup is the
same as Django's `input.html` and `attrs.html` (tests/config/test_form_renderer.py compares the two).
"""

import html

from django.forms.renderers import DjangoTemplates
from django.utils.safestring import mark_safe

INPUT_TEMPLATES = frozenset(
    f"django/forms/widgets/{name}.html"
    for name in (
        "input", "text", "number", "email", "url", "password", "hidden", "checkbox", "date", "datetime", "time",
        "input_option", "radio_option", "checkbox_option",
    )
)

TEXTAREA_TEMPLATE = "django/forms/widgets/textarea.html"


def input_html(widget):
    """`<input>` as Django's `input.html` writes it, from a widget's template context."""
    value = "" if widget.get("value") is None else f' value="{escaped(widget["value"])}"'
    name = escaped(widget["name"])
    return mark_safe(f'<input type="{escaped(widget["type"])}" name="{name}"{value}{attributes_html(widget)}>')


def textarea_html(widget):
    """`<textarea>` as Django's `textarea.html` writes it."""
    value = escaped(widget["value"]) if widget.get("value") else ""
    return mark_safe(f'<textarea name="{escaped(widget["name"])}"{attributes_html(widget)}>\n{value}</textarea>')


def attributes_html(widget):
    return "".join(attribute_html(name, attribute) for name, attribute in widget["attrs"].items())


def attribute_html(name, value):
    if value is False:
        return ""
    if value is True:
        return f" {escaped(name)}"
    return f' {escaped(name)}="{escaped(value)}"'


def escaped(value):
    """What the template engine's autoescape writes for a value (safe strings as they are), without
    the lazy-string check `conditional_escape` makes on every call."""
    return value.__html__() if hasattr(value, "__html__") else html.escape(str(value))


class QuickInputs(DjangoTemplates):
    """Django's template renderer that writes a bare `<input>` (no wrapping label) and a
    `<textarea>` directly."""

    def render(self, template_name, context, request=None):
        widget = context.get("widget")
        if template_name in INPUT_TEMPLATES and widget is not None and not widget.get("wrap_label"):
            return input_html(widget)
        if template_name == TEXTAREA_TEMPLATE and widget is not None:
            return textarea_html(widget)
        return super().render(template_name, context, request)

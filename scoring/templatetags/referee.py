"""Template filters of the referee pages."""

from django import template

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

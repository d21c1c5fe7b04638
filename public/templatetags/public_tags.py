"""Display helpers for public pages (formatting only: every number comes from the server)."""

from django import template

register = template.Library()


@register.filter
def signed(value):
    """A score with its sign: +183, −23 (a real minus sign), 0; empty for a game not played."""
    if value is None or value == "":
        return ""
    value = int(value)
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"\u2212{-value}"
    return "0"

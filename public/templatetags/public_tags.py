"""Display helpers for public pages (formatting only: every number comes from the server)."""

from django import template

from scoring.templatetags.referee import signed

register = template.Library()
register.filter("signed", signed)

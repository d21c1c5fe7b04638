"""`{% submission_token %}`: the one-time token of a staff form, beside `{% csrf_token %}`.

A built-in tag (settings.TEMPLATES), so no template needs to load it. It renders a hidden field
with a new token, signed for the signed-in user, each time the form is rendered; for a signed-in
user only (a visitor's pages post nothing, and the public pages shared between visitors carry no
token).
`tournament.submissions` runs a POST carrying it once.
"""

from django import template
from django.utils.html import format_html

from tournament.submissions import FIELD, new_token

register = template.Library()


@register.simple_tag(takes_context=True)
def submission_token(context):
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return ""
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, new_token(user))

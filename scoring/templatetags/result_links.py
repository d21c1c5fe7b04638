"""Template tags of the result pages, shared by the public pages and the static results site.

Links: on the static site (`site_root` in the context: "" at its top, "../" one folder down)
they are relative file paths; on the public pages, the public URLs. `signed`: a score with
its sign. `standings_caption` and `tie_note`: what a standings table says about its rows
(`scoring.selectors.standings`, shared with the PDF and the exports). `with_final`: whether the
table splits the final's figures from the qualifying ones.
"""

from django import template
from django.urls import reverse

from scoring.selectors import standings
from scoring.templatetags.referee import signed

register = template.Library()
register.filter("signed", signed)
register.filter("standings_caption", standings.caption)
register.filter("tie_note", standings.tie_note)


@register.filter
def with_final(rows):
    """Whether the standings rows hold the final's players: the table then shows the final's and
    the qualifying figures in separate, labelled columns (issue 48.8)."""
    return any(row.in_final for row in rows or ())


@register.simple_tag(takes_context=True)
def player_href(context, player):
    root = context.get("site_root")
    if root is not None:
        return f"{root}players/{player.start_number}.html"
    return reverse("public:player", args=[context["tournament"].slug, player.ext_id])


@register.simple_tag(takes_context=True)
def round_href(context, number):
    root = context.get("site_root")
    if root is not None:
        return f"{root}rounds/{number}.html"
    return reverse("public:round", args=[context["tournament"].slug, number])

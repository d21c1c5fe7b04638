"""The Jinja2 environment of the templates rendered with Jinja2 (the score sheet's games, whose
hundreds of inputs the Django template language drew at a fifth of the speed).

Django's gettext and the referee's filters and tags, and `{% csrf_token %}` and
`{% submission_token %}` written as in a Django template (tests/tournament/test_submissions.py
reads every form's tags in templates).
"""

from django.template.defaultfilters import date, truncatechars
from django.utils import timezone
from django.utils.translation import gettext, ngettext, npgettext, pgettext
from jinja2 import ChainableUndefined, Environment, nodes
from jinja2.ext import Extension

from scoring.templatetags import referee
from tournament.templatetags.submissions import submission_token


class FormTokens(Extension):
    """`{% csrf_token %}` and `{% submission_token %}`, as Django's tags write them."""

    tags = {"csrf_token", "submission_token"}

    def parse(self, parser):
        tag = next(parser.stream)
        if tag.value == "csrf_token":
            return nodes.Output([nodes.Name("csrf_input", "load")], lineno=tag.lineno)
        return nodes.Output([self.call_method("_submission_token", [nodes.Name("request", "load")])], lineno=tag.lineno)

    @staticmethod
    def _submission_token(request):
        return submission_token({"request": request})


def local_date(value, format_string):
    """Django's `date` filter, in the current time zone as in a Django template."""
    return date(timezone.template_localtime(value), format_string)


def environment(**options):
    # A missing value reads as empty, as in a Django template (a verified sheet's game has no form):
    # never an error on a referee's page.
    options["undefined"] = ChainableUndefined
    env = Environment(extensions=["jinja2.ext.i18n", FormTokens], **options)
    env.install_gettext_callables(gettext, ngettext, newstyle=False, pgettext=pgettext, npgettext=npgettext)
    env.filters.update(signed=referee.signed, date=local_date, truncatechars=truncatechars)
    env.globals.update(
        keypad_keys=referee.keypad_keys, choice_buttons=referee.choice_buttons, rack_count=referee.rack_count
    )
    return env

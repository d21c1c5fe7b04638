"""The Jinja2 environment of the templates rendered with Jinja2 (the score sheet's games, whose
hundreds of inputs the Django template language drew at a fifth of the speed).

Django's gettext and the referee's filters and tags, and `{% csrf_token %}` and
`{% submission_token %}` written as in a Django template (tests/tournament/test_submissions.py
reads every form's tags in templates).
"""

import weakref

from django.template.backends.utils import csrf_input
from django.template.defaultfilters import date, truncatechars
from django.utils import timezone
from django.utils.translation import gettext, ngettext, npgettext, pgettext
from jinja2 import ChainableUndefined, Environment, Undefined, nodes
from jinja2.ext import Extension

from scoring.templatetags import referee
from tournament.templatetags.submissions import submission_token


class FormTokens(Extension):
    """`{% csrf_token %}` and `{% submission_token %}`, as Django's tags write them.

    One CSRF token a request, as a Django template makes one a rendering (a score sheet draws
    nine forms in three templates: masking a token for each took more than drawing some forms)."""

    tags = {"csrf_token", "submission_token"}
    _csrf_inputs: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def parse(self, parser):
        tag = next(parser.stream)
        method = "_csrf_input" if tag.value == "csrf_token" else "_submission_token"
        return nodes.Output([self.call_method(method, [nodes.Name("request", "load")])], lineno=tag.lineno)

    @classmethod
    def _csrf_input(cls, request):
        if request is None or isinstance(request, Undefined):
            return ""
        if request not in cls._csrf_inputs:
            cls._csrf_inputs[request] = csrf_input(request)
        return cls._csrf_inputs[request]

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

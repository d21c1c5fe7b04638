"""What a browser would send from a page: a form's fields, the score sheet's version.

Shared by the Locust scenarios (bench/hall_scenario.py, bench/hosted_scenario.py) and the hosted
test's restore (bench/hosted_test.py); plain Python, no Locust.
"""

import re
from html.parser import HTMLParser


class FormInputs(HTMLParser):
    """The fields a browser sends for one form of a page (the one whose action is `action`)."""

    def __init__(self, action):
        super().__init__()
        self.action, self.inside, self.fields = action, False, []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.inside = attrs.get("action") == self.action
        elif tag == "input" and self.inside and attrs.get("name"):
            if attrs.get("type") in ("radio", "checkbox") and "checked" not in attrs:
                return
            self.fields.append((attrs["name"], attrs.get("value", "on")))

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False


def form_fields(page, action):
    parser = FormInputs(action)
    parser.feed(page)
    return parser.fields


def version_in(page):
    """The sheet version the page (or an htmx reply) carries in its game forms."""
    return re.search(r'id="g\d+-version" value="(\d+)"', page).group(1)

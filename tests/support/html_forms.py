"""The POST forms of an HTML page as a browser would send them: each form's action, its htmx
`hx-post`, each submit button's `formaction`, and the fields with their values and choices
(read by tests/system/test_fuzz_posts.py to post every form of the site with hostile values)."""

import json
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

from django.core.files.uploadedfile import SimpleUploadedFile


@dataclass
class Field:
    kind: str  # text, checkbox, radio, select, textarea, file, button
    choices: list = field(default_factory=list)  # values the page offers
    sent: list = field(default_factory=list)  # values a browser sends untouched


@dataclass
class Form:
    """A POST form as a page shows it: where it posts, and its fields."""

    action: str
    fields: dict
    page: str
    roles: list = field(default_factory=list)  # the roles that were shown it, in the order of ROLES

    @property
    def key(self):
        return self.action, tuple(sorted(self.fields))

    def sent(self):
        """What a browser sends when the form is submitted as the page shows it."""
        data = {name: list(spec.sent) for name, spec in self.fields.items() if spec.sent and spec.kind != "file"}
        for name, spec in self.fields.items():
            if spec.kind == "file":
                data[name] = [SimpleUploadedFile("players.csv", b"name,organisation\nAnna Nowak,Klub A\n")]
        return data


class FormParser(HTMLParser):
    """The POST forms of a page, one per target: the form's action, its `hx-post`, and each
    submit button's `formaction` (with the button's own name and value); elements outside a form
    that post with htmx are forms of their own."""

    TEXT_TYPES = {"text", "hidden", "number", "date", "password", "email", "search", "tel", "url", "time"}

    def __init__(self, page):
        super().__init__(convert_charrefs=True)
        self.page = page
        self.forms = []
        self.form = None  # (targets, fields, buttons) of the form being read
        self.select = self.textarea = None

    def _url(self, value):
        return urlsplit(urljoin(self.page, value or self.page)).path

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            if (a.get("method") or "get").lower() == "post" or a.get("hx-post"):
                targets = {self._url(a.get("action"))} | ({self._url(a["hx-post"])} if a.get("hx-post") else set())
                self.form = (targets, {}, [])
            return
        if self.form is None:
            if a.get("hx-post"):
                fields = (
                    {a["name"]: Field("button", [a.get("value", "")], [a.get("value", "")])} if a.get("name") else {}
                )
                for name, value in json.loads(a.get("hx-vals") or "{}").items():
                    fields[name] = Field("text", [str(value)], [str(value)])
                self.forms.append(Form(self._url(a["hx-post"]), fields, self.page))
            return
        _targets, fields, buttons = self.form
        name = a.get("name")
        if name == "csrfmiddlewaretoken":  # the test client does not check it
            return
        if tag == "input":
            kind = (a.get("type") or "text").lower()
            if kind in ("submit", "image", "button"):
                self._button(a, kind)
            elif name and kind in ("checkbox", "radio"):
                spec = fields.setdefault(name, Field(kind))
                spec.choices.append(a.get("value", "on"))
                if "checked" in a:
                    spec.sent.append(a.get("value", "on"))
            elif name and kind == "file":
                fields[name] = Field("file")
            elif name and kind in self.TEXT_TYPES:
                fields[name] = Field("text", [a.get("value", "")], [a.get("value", "")])
        elif tag == "button" and (a.get("type") or "submit").lower() == "submit":
            self._button(a, "submit")
        elif tag == "select" and name:
            self.select = fields[name] = Field("select")
        elif tag == "option" and self.select is not None:
            self.select.choices.append(a.get("value", ""))
            if "selected" in a:
                self.select.sent.append(a.get("value", ""))
        elif tag == "textarea" and name:
            self.textarea = fields[name] = Field("textarea", [""], [""])

    def _button(self, a, kind):
        _targets, fields, buttons = self.form
        buttons.append(a)
        if a.get("name"):
            spec = fields.setdefault(a["name"], Field("button"))
            spec.choices.append(a.get("value", ""))

    def handle_data(self, data):
        if self.textarea is not None:
            self.textarea.sent[0] += data
            self.textarea.choices[0] += data

    def handle_endtag(self, tag):
        if tag == "select" and self.select is not None:
            if not self.select.sent and self.select.choices:
                self.select.sent.append(self.select.choices[0])
            self.select = None
        elif tag == "textarea":
            self.textarea = None
        elif tag == "form" and self.form is not None:
            self._close()

    def _close(self):
        targets, fields, buttons = self.form
        self.form = None
        plain = [b for b in buttons if not b.get("formaction")]
        for target in sorted(targets):
            chosen = dict(fields)
            if plain and plain[0].get("name"):  # the default button sends its own name and value
                chosen[plain[0]["name"]] = Field(
                    "button", fields[plain[0]["name"]].choices, [plain[0].get("value", "")]
                )
            self.forms.append(Form(target, chosen, self.page))
        for button in buttons:
            if button.get("formaction"):
                chosen = dict(fields)
                if button.get("name"):
                    chosen[button["name"]] = Field("button", fields[button["name"]].choices, [button.get("value", "")])
                self.forms.append(Form(self._url(button["formaction"]), chosen, self.page))


def page_forms(url, html):
    parser = FormParser(url)
    parser.feed(html)
    parser.close()
    return parser.forms
